"""The window's status line: what the app says, and a progress bar with Cancel while work
runs. What running work says stays until the work ends ("Ready" then); anything else said
replaces it at once, and names the work still running (what Cancel stops) until it ends.
What asked-for work found (`keep`: state.tell) stays past later work: that work is named
after it while it runs, and the line goes back to it, not to "Ready"."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton


class StatusLine:
    def __init__(self, bar, tasks):
        self.tasks = tasks
        self.label = QLabel("")
        self.is_work = False  # the text is what running work said
        self.said = ""        # the text last said (without the work it named)
        self.kept = ""        # what asked-for work found, while it is the text last said
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(self.cancel_work)
        bar.addWidget(self.label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)

    def say(self, text: str) -> None:
        """Say `text`; while work runs, the line names it after the text (what Cancel
        stops), and drops it when that work ends."""
        self.said = text
        self.is_work = False
        if text != self.kept:
            self.kept = ""    # something else said: the outcome is over
        left = self._stoppable()
        self._show(f"{text} · Still running: {', '.join(map(_lower, left))}…"
                   if left and text else text)

    def keep(self, text: str) -> None:
        """`text`, just said, is what asked-for work found: work that starts after it does
        not take its place (the opening's later work did, then "Ready": walk16)."""
        if text == self.said:
            self.kept = text

    def forget(self) -> None:
        """Another model: the outcome kept was of the one before."""
        self.kept = ""

    def _show(self, text: str) -> None:
        """The line's words, whole in its tooltip too: at 1366x768 Expand all's note and the
        work still running after it go past the line's end."""
        self.label.setText(text)
        self.label.setToolTip(text)

    def _stoppable(self) -> list:
        """What Cancel stops: the work the line speaks of, or all that runs."""
        kind = self.tasks.shown()
        return [self.tasks.label_of(kind)] if kind else self.tasks.labels()

    def show_progress(self, done: int, total: int, text: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        else:
            self.progress.setRange(0, 0)
        # the words go on the line; the bar (~95 px) shows the share done: the words in it
        # were wrapped and cut at top and bottom ("interface and totals")
        self.progress.setFormat("%p%" if text else f"{done}/{total}")
        self.progress.setTextVisible(total > 0)
        if text:
            self._show(text)
            self.is_work = True

    def busy(self, busy: bool, label: str) -> None:
        if busy:
            self.progress.setRange(0, 0)  # busy until a task reports countable progress
            self.progress.setTextVisible(False)
            if self.kept and not self.is_work:     # the outcome stays, the work after it
                self.say(self.kept)
            else:
                self._show(f"{label}…")
                self.is_work = True
        elif self.is_work:
            self._show(self.kept or "Ready")  # what the work was saying is over
            self.is_work = not self.kept
        elif self.label.text() != self.said:
            self._show(self.said)  # the work it named is over
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)

    def cancel_work(self) -> None:
        """Cancel the work the line speaks of (Tasks.shown: "Measuring where the bytes go…"
        stops that measure, not the model's other work), or everything running when none of
        it is said; the line says what was stopped and, while other work runs, names it (see
        say): the next Cancel stops that (it said "Cancelled: X" while the next click
        stopped Y, which it did not name)."""
        labels = self._stoppable()
        self.tasks.cancel(self.tasks.shown())
        if labels:
            self.say(f"Cancelled: {', '.join(map(_lower, labels))}")


def _lower(label: str) -> str:
    return label[:1].lower() + label[1:]
