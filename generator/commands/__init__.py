"""One module per `pnpgen` sub-command; each has `register(subparsers)` and `run(args) -> exit code`."""
