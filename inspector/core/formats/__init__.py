"""What we write: TF's text dialects (summarize_graph, tensor values), DOT, command lines, files."""
