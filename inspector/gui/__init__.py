"""Qt views over the core (PySide6 and pyqtgraph live only here)."""
