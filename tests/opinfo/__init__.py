"""Conformance of torchlike and paddlelike held to torch's own OpInfo samples (issue 15 §1).

``core`` selects the ops, draws and converts their samples and compares a frontend with its
real framework; ``paddle_map`` is the torch op -> paddle API table; ``passing_torch.txt`` and
``passing_paddle.txt`` list the ops expected to pass every sample (scripts/opinfo_coverage.py
rewrites them). Nothing here imports torch or paddle at import time of the package.
"""
