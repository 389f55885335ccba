"""The array layer: the one module that imports numpy/cupy (backend), dtype promotion,
ranges computed in the output dtype."""
