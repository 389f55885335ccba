"""`python -m torchlike SCRIPT|-c CODE|-m MODULE [ARGS...]`: torch code run on torchlike."""
import sys

from janusgrad.dropin import main

sys.exit(main(sys.argv, public="torch", shim="torchlike"))
