"""``python -m msgviewer``: the same as the ``msgviewer`` command."""

from .cli import main

raise SystemExit(main())
