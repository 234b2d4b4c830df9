"""Pure-Python core: graph model, loaders, analysis and export. Never imports Qt."""
