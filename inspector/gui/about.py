"""Help > About: the version and flavour, where settings, cache and crash log live, the
offline promise, and every bundled part with its version and licence."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from inspector import diagnostics


def about_dialog(parent) -> QDialog:
    dialog = QDialog(parent)
    dialog.setObjectName("about")
    dialog.setWindowTitle("About GraphDef Inspector")
    layout = QVBoxLayout(dialog)
    head = QHBoxLayout()
    icon = diagnostics.icon_path()
    if icon:
        picture = QLabel()
        picture.setPixmap(QIcon(icon).pixmap(64, 64))
        head.addWidget(picture, 0, Qt.AlignTop)
    info = diagnostics.info()
    text = QLabel(
        f"<h3>GraphDef Inspector {diagnostics.VERSION}</h3>"
        f"<p>{info['flavour']} flavour{' (a frozen build)' if diagnostics.frozen() else ''}; "
        f"Python {info['Python']}, Qt {info['Qt']}, TensorFlow: {info['TensorFlow']}.</p>"
        "<p>Works offline, for good: no network access, no telemetry, no update checks, "
        "no expiry date.</p>"
        f"<p>Settings: {info['config dir']}<br>Cache and crash log: {info['cache dir']}</p>")
    text.setObjectName("about_text")
    text.setWordWrap(True)
    text.setTextInteractionFlags(Qt.TextSelectableByMouse)
    head.addWidget(text, 1)
    layout.addLayout(head)
    parts = diagnostics.bundled_parts()
    layout.addWidget(QLabel(f"Bundled parts and their licences ({len(parts)}):"))
    table = QTableWidget(len(parts), 3)
    table.setObjectName("about_parts")
    table.setHorizontalHeaderLabels(["part", "version", "licence"])
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QTableWidget.NoEditTriggers)
    for row, part in enumerate(parts):
        for col, key in enumerate(("name", "version", "licence")):
            table.setItem(row, col, QTableWidgetItem(str(part.get(key, ""))))
    table.resizeColumnsToContents()
    table.horizontalHeader().setStretchLastSection(True)
    layout.addWidget(table, 1)
    folder = diagnostics.licences_dir()
    if folder:
        files = QLabel(f"Licence texts: {folder}")
        files.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(files)
    buttons = QDialogButtonBox(QDialogButtonBox.Close)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    dialog.resize(640, 520)
    return dialog
