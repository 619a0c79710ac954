import sys

if not (sys.flags.safe_path or sys.flags.isolated):
    del sys.path[0]  # the current folder, which `python -m` puts first: nothing more is imported from it

from generator.cli import main  # after the import path is made safe

sys.exit(main())
