

xPlaceholder*
dtype0

yReluxghost:1

zIdentityy^phantom