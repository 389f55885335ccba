"""`python -m paddlelike SCRIPT [ARGS...]`: run a paddle script unmodified on paddlelike."""
import sys

from janusgrad.dropin import main

sys.exit(main(sys.argv, public="paddle", shim="paddlelike"))
