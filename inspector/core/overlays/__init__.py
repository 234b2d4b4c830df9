"""Overlays on the graph: timings (profiles, StatSummarizer) and requantization ranges."""
