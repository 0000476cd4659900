"""Run the grading command line: `python -m grading check ...`."""

import sys

from .cli import main

sys.exit(main())
