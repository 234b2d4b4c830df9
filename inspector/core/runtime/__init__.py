"""The runtime floor (bottom of the core): one job token, events, the task runner, the
garbage-collection policy, the window's BLAS threads and who runs TensorFlow work (the
executor)."""
