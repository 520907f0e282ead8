"""``python -m mockpolicy``."""

import sys

from mockpolicy.cli import main

sys.exit(main())
