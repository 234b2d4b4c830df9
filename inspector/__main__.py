"""`python -m inspector` runs the command line."""

import sys

from inspector.cli import main

sys.exit(main())
