"""GraphDef Inspector: look inside TensorFlow models."""

__version__ = "0.1.0"
