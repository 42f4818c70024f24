"""``python -m kayles``: the ``kayles`` command (kayles.interface.kayles_cli)."""

import sys

from .interface.kayles_cli import main

sys.exit(main())
