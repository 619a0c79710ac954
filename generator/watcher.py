"""Noticing changed files by polling their modification times (no inotify: works on every file system)."""

from __future__ import annotations

from pathlib import Path

from generator.paths import GAME_TEMPLATES_DIR, TEMPLATES_DIR

POLL_SECONDS = 0.3


def game_roots(game_dir: Path) -> list[Path]:
    """What a game's output depends on: its own folder, its templates under the project's templates/, pnpgen's."""
    return [game_dir, GAME_TEMPLATES_DIR / game_dir.name, TEMPLATES_DIR / "base"]


def is_scratch(path: Path) -> bool:
    """Editor backups and the half-written files of write_atomic: not changes to the game."""
    return path.name.startswith((".", "#")) or path.name.endswith(("~", ".tmp", ".swp"))


class FileWatcher:
    """The files under some folders; `changed()` says which were added, modified or removed since last asked."""

    def __init__(self, roots: list[Path]):
        self.roots = roots
        self.seen = self.scan()

    def scan(self) -> dict[Path, tuple[int, int]]:
        found = {}
        for root in self.roots:
            if not root.is_dir():
                continue
            for path in root.rglob("*"):
                if is_scratch(path):
                    continue
                try:
                    stat = path.stat()
                except FileNotFoundError:  # removed while scanning
                    continue
                if path.is_file():
                    found[path] = (stat.st_mtime_ns, stat.st_size)
        return found

    def changed(self) -> list[Path]:
        now = self.scan()
        paths = sorted(path for path in now.keys() | self.seen.keys() if now.get(path) != self.seen.get(path))
        self.seen = now
        return paths
