"""``python -m tgfake``: the same as the ``tgfake`` command."""

from __future__ import annotations

import sys

from tgfake.cli import main

sys.exit(main())
