"""The graph model (bottom layer): protobuf classes, dtypes, tensors, attrs, the Graph, op facts."""
