"""Accept the current look of the three kits: build them on A4 and Letter and write tests/look/<game>.json again.

Run it (`make accept-look`) after a deliberate change to how pages look; the tests then compare every
later build with these records (tests/test_look.py). The records depend only on the PDFs, so running it
twice on the same code writes the same files.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("PNPGEN_DAEMON", "0")

from look.record import GAMES, record_path, write_record  # noqa: E402

from generator.cli import main  # noqa: E402


def accept() -> int:
    with tempfile.TemporaryDirectory(prefix="pnpgen-look-") as folder:
        out = Path(folder)  # a fresh folder: no file of an earlier build is recorded
        code = main(["build", *GAMES, "--out", str(out), "--quiet"])
        if code != 0:
            print(f"error: the kits did not build (exit {code}); nothing accepted", file=sys.stderr)
            return code
        for game_id in GAMES:
            write_record(game_id, out / game_id)
            print(f"wrote {record_path(game_id).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(accept())
