"""janusgrad's benchmark suite: workloads A-F against numpy, torch and paddle (see run.py)."""
