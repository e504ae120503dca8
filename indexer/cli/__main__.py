"""`python -m indexer.cli`: the command line without the installed script."""

from indexer.cli.main import main

raise SystemExit(main())
