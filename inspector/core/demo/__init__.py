"""The demo room: what a model is fed for a demo run (front ends, value ranges), one run
through the executor, and its answers and feature maps made into pictures."""
