"""Big structures freed in short calls. Dropping the last reference to a comparison (550k
entries, three 550k-name maps) or an opened model frees it in one C call that holds the GIL
throughout (the 216 MB saved comparison's Diff: ~0.5 s at normal speed), and that holds the
window whichever thread drops it: the GUI thread waits for the GIL. free_in_steps empties
what only it holds a few hundred items a call, so the interpreter hands the GIL over between
them; let_go does it on a thread of its own once that thread holds the last reference.

Only what the walk alone holds is emptied (sys.getrefcount): anything held elsewhere too is
left whole, so nothing still in use is touched. Objects are taken apart only when their
class is one of inspector's (their attributes, __dict__ or __slots__); other objects
(numpy arrays, protobufs) are dropped whole: a few calls each."""

from __future__ import annotations

import sys
import threading
import time

STEP = 256        # items of a container freed in one call
SMALL = 64        # in a container of at most SMALL items, objects are walked too
WAIT = 60.0       # let_go waits at most this long for the other holders to let go


def _alone() -> int:
    """sys.getrefcount of an object only a local holds (json_pieces._alone's rule)."""
    v: list = []
    return sys.getrefcount(v)


def _ours(x) -> bool:
    t = type(x)
    return t.__module__.startswith("inspector.") and not isinstance(x, type)


def _walked(x, small: bool) -> bool:
    """Whether x is worth a step of its own: a container of more than SMALL items, or
    (among few) one of inspector's objects or any container."""
    t = type(x)
    if t is list or t is dict or t is set or t is tuple:
        return small or len(x) > SMALL
    return small and _ours(x)


def free_in_steps(root) -> None:
    """Free `root` in short calls. The caller passes its last reference and keeps none."""
    alone = _alone()
    todo = [root]
    del root
    while todo:
        v = todo.pop()
        if sys.getrefcount(v) > alone:      # held elsewhere too: dropping ours frees nothing
            continue
        t = type(v)
        if t is tuple:
            v = list(v)                     # the tuple freed; its items walked as a list
            t = list
        if t is list:
            small = len(v) <= SMALL
            while v:
                part = v[-STEP:]
                del v[-STEP:]
                todo.extend(x for x in part if _walked(x, small))
                del part
        elif t is dict:
            small = len(v) <= SMALL
            while v:
                for _ in range(min(STEP, len(v))):
                    x = v.popitem()[1]
                    if _walked(x, small):
                        todo.append(x)
                    del x
        elif t is set:
            while v:
                for _ in range(min(STEP, len(v))):
                    v.pop()
        elif _ours(v):
            _take_apart(v, todo)
        del v


def _take_apart(v, todo: list) -> None:
    """An inspector object's attributes moved to `todo` (walked there, or dropped at once)."""
    d = getattr(v, "__dict__", None)
    if type(d) is dict:
        for name in list(d):
            x = d.pop(name)
            if _walked(x, True):
                todo.append(x)
            del x
    for cls in type(v).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                x = getattr(v, name)
                delattr(v, name)
            except (AttributeError, TypeError):
                continue
            if _walked(x, True):
                todo.append(x)
            del x


def let_go(obj) -> threading.Thread:
    """Free `obj` in short calls on a thread of its own, once that thread holds its last
    reference (waiting at most WAIT s for the others, polling): the caller passes its
    reference and drops every other it has. Returns the thread (tests join it)."""
    box = [obj]
    del obj

    def run():
        alone = _alone()                # box[0] alone: the box's reference and the argument
        end = time.monotonic() + WAIT
        while sys.getrefcount(box[0]) > alone and time.monotonic() < end:
            time.sleep(0.05)
        free_in_steps(box.pop())

    thread = threading.Thread(target=run, name="letting go", daemon=True)
    thread.start()
    return thread
