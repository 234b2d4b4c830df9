"""TensorFlow in its own process: the app's executor (client.py) sends each TensorFlow
operation to a long-lived worker (server.py) over a pipe (protocol.py). A TF abort, hang or
memory blow-up ends the worker, never the window; Cancel kills the run."""
