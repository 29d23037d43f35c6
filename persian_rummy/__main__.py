"""``python -m persian_rummy``: the command line."""

from persian_rummy.cli import main

raise SystemExit(main())
