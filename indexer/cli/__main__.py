"""`python -m indexer.cli`: the command line without the installed script."""

from indexer.cli.main import main

if __name__ == "__main__":  # not when a scanner process started by `spawn` imports this module
    raise SystemExit(main())
