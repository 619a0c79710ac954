"""pnpgen: print-and-play component generator for board games."""

__version__ = "0.1.0"
