"""Dockable panels: each shows part of the app state and emits signals; none calls another."""
