"""`python -m paddlelike SCRIPT [ARGS...]`: run a paddle script unmodified on paddlelike."""
import sys

from janusgrad.dropin import run

if len(sys.argv) < 2:
    sys.stderr.write("usage: python -m paddlelike SCRIPT [ARGS...]\n"
                     "Runs SCRIPT like `python SCRIPT ARGS...`,\n"
                     "with `import paddle` giving paddlelike.\n")
    sys.exit(2)
sys.exit(run(sys.argv[1], sys.argv[2:], public="paddle", shim="paddlelike"))
