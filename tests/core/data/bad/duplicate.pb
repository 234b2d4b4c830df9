

xPlaceholder

dupRelux

dupIdentityx