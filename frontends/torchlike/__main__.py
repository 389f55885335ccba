"""`python -m torchlike SCRIPT [ARGS...]`: run a torch script unmodified on torchlike."""
import sys

from janusgrad.dropin import run

if len(sys.argv) < 2:
    sys.stderr.write("usage: python -m torchlike SCRIPT [ARGS...]\n"
                     "Runs SCRIPT like `python SCRIPT ARGS...`,\n"
                     "with `import torch` giving torchlike.\n")
    sys.exit(2)
sys.exit(run(sys.argv[1], sys.argv[2:], public="torch", shim="torchlike"))
