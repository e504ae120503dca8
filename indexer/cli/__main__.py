"""`python -m indexer.cli`: the command line without the installed script."""

if __name__ == "__main__":  # not when a scanner process started by `spawn` imports this module
    try:
        from indexer.cli.main import main
    except KeyboardInterrupt:  # Ctrl-C while Python loads the command line
        raise SystemExit(130) from None
    raise SystemExit(main())
