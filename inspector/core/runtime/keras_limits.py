"""How much memory and time Keras may take to load one Keras file, sized from the file and the
machine. Keras builds every layer's variables from the sizes the file's config declares before
it reads the stored weights, so a 10 KB file can ask for terabytes; the pure-Python check
(loaders/keras_shapes) refuses the sizes it can model, and these limits stop the rest: the
command line loads Keras in a child process held to them (tf/keras_child), the app's worker
is stopped past its memory limit for the load (worker/client); both name the layer Keras was
building (too_much).

Measured (Keras 3.15, TF 2.21, summarize): a Keras load peaks at ~0.35 GB of data for TF
itself and ~12-16 bytes per byte of file (ResNet50, 103 MB: 1.6 GB; MobileNet v2, 15 MB:
0.59 GB). The budget is 1 GiB + 16 MiB per CPU (TF's thread stacks) + 32 bytes per byte of
file, at most three quarters of the machine's memory."""

from __future__ import annotations

import os

FLOOR = 1 << 30              # TF and Keras themselves, with room
PER_CPU = 16 << 20           # TF's thread pools: a stack or two per CPU
PER_FILE_BYTE = 32           # the stored weights, read, made variables, frozen, sent back
TF_RESIDENT = 640 << 20      # TF's and Keras's code and data resident once imported (worker:
#                              its limit is on resident memory, not the data segment)
SECONDS_FLOOR = 600          # a small model loads in seconds, even on a slow machine
SECONDS_PER_MB = 5
MEMORY_ENV, SECONDS_ENV = "INSPECTOR_KERAS_MEMORY_GB", "INSPECTOR_KERAS_SECONDS"


def machine_memory() -> int:
    """The machine's physical memory in bytes (0 when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def memory_budget(path: str) -> int:
    """Bytes Keras may allocate beyond what its process held when the load began
    ($INSPECTOR_KERAS_MEMORY_GB sets it)."""
    if os.environ.get(MEMORY_ENV):
        try:
            return max(1 << 20, int(float(os.environ[MEMORY_ENV]) * (1 << 30)))
        except ValueError:
            pass
    want = FLOOR + PER_CPU * (os.cpu_count() or 1) + PER_FILE_BYTE * _file_size(path)
    machine = machine_memory() * 3 // 4
    return min(want, max(machine, FLOOR)) if machine else want


def seconds_budget(path: str) -> float:
    """Seconds the load may take ($INSPECTOR_KERAS_SECONDS sets it): generous, it only ends a
    load that would never finish."""
    if os.environ.get(SECONDS_ENV):
        try:
            return max(0.1, float(os.environ[SECONDS_ENV]))
        except ValueError:
            pass
    return SECONDS_FLOOR + SECONDS_PER_MB * _file_size(path) / 1e6


def worker_limit(path: str, resident: int, worker: int) -> int:
    """The resident bytes a Keras load in the app's TensorFlow worker may reach (now
    `resident`, its own limit `worker`): it may grow by the file's budget and TF itself."""
    return min(worker, resident + memory_budget(path) + TF_RESIDENT)


def too_much(limit: int, layer: str | None, how: str) -> str:
    """The one line of a Keras load stopped past its memory `limit`, the command line's
    (tf/keras_child) and the app's worker's alike: the layer Keras was building (if heard
    of) and `how` it was stopped."""
    where = f" building layer '{layer}'" if layer else ""
    return (f"Keras needed more than the {gigabytes(limit)} of memory allowed for this "
            f"file{where} and was stopped ({how}): its config declares sizes its stored "
            f"weights do not hold, or the model needs more ({MEMORY_ENV} sets the limit)")


def gigabytes(n: int) -> str:
    return f"{n / (1 << 30):.1f} GB"


# what a failed allocation says, in the words of numpy, TensorFlow, C++ and the kernel
MEMORY_WORDS = ("oom when allocating", "unable to allocate", "memoryerror", "bad_alloc",
                "cannot allocate memory", "out of memory", "resource exhausted",
                "resourceexhausted")


def says_memory(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in MEMORY_WORDS)
