"""``python -m cli``: the ``diffvoice`` command."""

import sys

from cli.main import main

sys.exit(main())
