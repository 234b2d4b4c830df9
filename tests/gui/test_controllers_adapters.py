"""Controllers are adapters (issue 46.3): built from their collaborators (state, tasks, panel,
dialogs, a callable they need), never from the window; each reads the state at the end of its
constructor, so a panel made after the first picture shows what happened before it."""

import ast
import importlib
import inspect
import os
import pkgutil

from PySide6.QtCore import QObject

import inspector.gui.controllers as controllers
from inspector.gui.startup import window_later
from inspector.gui.startup.later_panels import build

GUI = os.path.dirname(os.path.dirname(controllers.__file__))
WINDOWISH = {"window", "w", "main_window", "win", "parent"}
STILL: set = set()      # controllers still made from the window: none


def controller_classes() -> list:
    found = []
    for info in pkgutil.iter_modules(controllers.__path__):
        module = importlib.import_module(f"{controllers.__name__}.{info.name}")
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if c.__module__ == module.__name__ and c.__name__.endswith("Controller")
                  and c.__name__ not in STILL]
    return found


def test_no_controller_constructor_takes_the_window():
    classes = controller_classes()
    assert len(classes) >= 15
    wrong = {c.__name__: [p for p in inspect.signature(c.__init__).parameters
                          if p in WINDOWISH]
             for c in classes}
    assert not {k: v for k, v in wrong.items() if v}


def test_no_controller_is_built_with_the_window():
    """Where the window makes controllers (main_window) or its builders do (window_later),
    no argument is the window itself."""
    wrong = []
    for path, me in (("main_window.py", "self"), ("startup/window_later.py", "w")):
        tree = ast.parse(open(os.path.join(GUI, path), encoding="utf-8").read())
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
                    call.func.id.endswith("Controller") and call.func.id not in STILL:
                args = call.args + [k.value for k in call.keywords]
                if any(isinstance(a, ast.Name) and a.id == me for a in args):
                    wrong.append(f"{path}:{call.lineno} {call.func.id}")
    assert not wrong


def test_no_controller_holds_the_window(window):
    for group in window_later.groups():
        build(window, group)
    classes = tuple(controller_classes())
    made = [v for v in vars(window).values() if isinstance(v, classes)]
    assert len(made) >= 15
    holding = [type(c).__name__ for c in made
               if any(v is window for v in vars(c).values())
               or (isinstance(c, QObject) and c.parent() is window)]
    assert not holding


def test_builders_replay_no_private_methods():
    """A controller's constructor reads the state: no builder calls its private methods to
    give it what happened before it existed (tests/gui/test_gui_later_panels.py shows the
    Sizes and Tour panels made after the first picture showing it)."""
    src = open(os.path.join(GUI, "startup", "window_later.py"), encoding="utf-8").read()
    private = [n.attr for n in ast.walk(ast.parse(src))
               if isinstance(n, ast.Attribute) and n.attr.startswith("_")
               and not n.attr.startswith("__")
               and n.attr not in {"_gate_later", "_tour_card"}]     # the window's own
    assert not private


def test_the_menus_write_nothing_onto_the_window():
    """menus.build_menus returns what the window keeps of its menus; the window sets it."""
    tree = ast.parse(open(os.path.join(GUI, "menus.py"), encoding="utf-8").read())
    written = [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
               and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name)
               and n.value.id == "w"]
    assert not written
