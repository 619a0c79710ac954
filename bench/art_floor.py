"""The floor of what pictures cost a build: one plain Python process opens each of the benchmark's pictures with
Pillow and resizes it to its printed size at 350 dpi (nothing else: no layout, no PDF).

    python bench/art_floor.py ART_FOLDER
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from art import printed_px


def main(folder: Path) -> None:
    size = printed_px()
    for path in sorted(folder.glob("*.jpg")):
        with Image.open(path) as picture:
            picture.resize(size, Image.Resampling.LANCZOS)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
