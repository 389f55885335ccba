"""The graph core: tensors and nodes, the backward scheduler, grad mode, hooks, views,
in-place writes, custom functions, anomaly mode."""
