"""`python -m paddlelike SCRIPT|-c CODE|-m MODULE [ARGS...]`: paddle code run on paddlelike."""
import sys

from janusgrad.host.dropin import main

sys.exit(main(sys.argv, public="paddle", shim="paddlelike"))
