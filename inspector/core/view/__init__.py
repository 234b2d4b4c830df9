"""What the canvas shows: visible items, compound layered layout, keyboard walking."""
