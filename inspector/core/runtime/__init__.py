"""The runtime floor (bottom of the core): one job token, events, the task runner, the
garbage-collection policy and who runs TensorFlow work (the executor)."""
