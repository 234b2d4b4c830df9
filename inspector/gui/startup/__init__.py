"""How the app starts: what waits for the first picture (start_order, later_panels,
window_later, thread_then), PySide's import check made cheap (feature_checks), one app per
desktop (single_instance), `--screenshot` and `--smoke-test` (screenshot_driver, smoke)."""
