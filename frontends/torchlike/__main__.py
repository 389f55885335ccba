"""`python -m torchlike SCRIPT|-c CODE|-m MODULE [ARGS...]`: torch code run on torchlike
(and `import torchvision` served by torchlike.vision, the subset D2L's scripts use)."""
import sys

from janusgrad.host.dropin import main

sys.exit(main(sys.argv, public="torch", shim="torchlike",
              companions=(("torchvision", "torchlike.vision"),)))
