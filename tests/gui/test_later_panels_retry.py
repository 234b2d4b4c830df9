"""A group of window attributes made on first read: a builder that fails leaves the group
unmade, so the next read builds it again (it used to stay marked built, and every later read
of its attributes raised KeyError)."""

import pytest

from inspector.gui.startup import later_panels


class Window:
    calls = 0

    def _build(self):
        Window.calls += 1
        if Window.calls == 1:
            raise OSError("the panel's settings could not be read")
        return {"panel": "the panel", "controller": "its controller"}


later_panels.install(Window, {"panel": (Window._build, ("panel", "controller"))})


def test_a_builder_that_failed_builds_again_on_the_next_read():
    window = Window()
    assert not later_panels.built(window, "panel")
    with pytest.raises(OSError, match="settings"):
        window.panel
    assert not later_panels.built(window, "controller")
    assert window.controller == "its controller" and window.panel == "the panel"
    assert Window.calls == 2 and later_panels.built(window, "panel")
    window.panel
    assert Window.calls == 2
