"""What we learn from a graph: summary, likely inputs/outputs, FLOPs, metrics, marks, search."""
