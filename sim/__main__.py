"""``python -m sim`` is the same as ``btsim``."""

import sys

from sim.cli import main

sys.exit(main())
