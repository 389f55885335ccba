"""`python -m torchlike SCRIPT [ARGS...]`: run a torch script unmodified on torchlike."""
import sys

from janusgrad.dropin import main

sys.exit(main(sys.argv, public="torch", shim="torchlike"))
