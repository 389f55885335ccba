"""A random-program differential fuzzer (issue 14 §3): hypothesis draws small autograd
programs (``program.py``), each rendered as Python source in one dialect and run twice
(``interp.py``): on the real framework and on ours, comparing every step."""
