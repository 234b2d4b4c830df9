"""Which front end this process serves: the window opens a model for its first picture (what
the picture needs comes first), the command line for its report."""

from __future__ import annotations

WINDOW = False      # set by the window's start (gui.app.tune_runtime)
FEW_NODES = False   # set by a command whose report reads few NodeDefs (summarize): a big
#                     graph's nodes stay bytes in the file, as in the window (1M nodes: 0.4 s
#                     and ~750 MB of protobuf messages not made)
KERAS_IN_CHILD = False  # set by the command line: Keras files load in a child process held to
#                         a memory and a time limit (tf/keras_child; the app's worker has its own)
AT_COMMAND_END: list = []  # called by the command line's main when a command ends (the
#                            Keras child that answers its TensorFlow operations is ended)
