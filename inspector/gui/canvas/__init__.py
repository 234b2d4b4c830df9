"""The graph canvas (scene items, minimap) and picture exports."""
