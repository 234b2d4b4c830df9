import sys

from inspector.worker.server import main

sys.exit(main())
