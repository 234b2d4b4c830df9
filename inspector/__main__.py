"""`python -m inspector` is the same as the graphdef-inspector command."""

import sys

from inspector.launcher import main

sys.exit(main())
