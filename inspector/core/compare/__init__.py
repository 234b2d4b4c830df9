"""Compare models: matching, the diff document and its reports (Qt-free, no TensorFlow)."""
