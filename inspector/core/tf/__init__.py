"""TensorFlow itself (imported lazily): freezing, running, shape inference, its own transforms."""
