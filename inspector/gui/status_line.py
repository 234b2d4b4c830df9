"""The window's status line: what the app says, and a progress bar with Cancel while work
runs. What running work says stays until the work ends ("Ready" then); anything else said
replaces it at once."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton


class StatusLine:
    def __init__(self, bar, tasks):
        self.tasks = tasks
        self.label = QLabel("")
        self.is_work = False  # the text is what running work said
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
        self.label.setText(text)
        self.is_work = False

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
            self.label.setText(text)
            self.is_work = True

    def busy(self, busy: bool, label: str) -> None:
        if busy:
            self.progress.setRange(0, 0)  # busy until a task reports countable progress
            self.progress.setTextVisible(False)
            self.label.setText(f"{label}…")
            self.is_work = True
        elif self.is_work:
            self.label.setText("Ready")  # what the work was saying is over
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)

    def cancel_work(self) -> None:
        """Cancel the work the line speaks of (Tasks.shown: "Measuring where the bytes go…"
        stops that measure, not the model's other work), or everything running when none of
        it is said; the line says what was stopped."""
        kind = self.tasks.shown()
        labels = [self.tasks.label_of(kind)] if kind else self.tasks.labels()
        doing = ", ".join(label[:1].lower() + label[1:] for label in labels)
        self.tasks.cancel(kind)
        if doing:
            self.say(f"Cancelled: {doing}")
