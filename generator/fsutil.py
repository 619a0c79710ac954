"""Writing files so that a reader never sees a half-written one: write beside, then rename.

A command that writes a set of files (a build: card sheets, boards, rule sheets and build.json; `i18n import`,
`table import` and the editor's saves: YAML files and the translation lock) opens an OutputSet over the folder
they are in. While it is open, every `write_atomic` below that folder is staged: written to a temporary file
beside its final place and renamed only when the whole set is committed, build.json last. A failure before the
commit removes the staged files, so the previous set stays as it was, whole. The set also refuses any path that
does not resolve inside its folder (an id like `x/../../escaped`).

A process killed while it renames (kill -9, a power cut) would leave some files new and some old: so before the
first rename the commit writes a journal naming every rename (`.pnpgen-commit.PID.json` in the set's folder),
and removes it after the last. The next command that opens a set there or loads the game (finish_interrupted)
makes the renames a killed process left undone, and removes the temporary files (`.NAME.PID-N.tmp`) of
processes that no longer run: the files are then all new, or, killed before its journal was whole, all old.

Cache entries (rendered faces, previews, the compiled ffi module) are no output: write_cache_entry writes
each whole at once, never staged nor refused by an open set, wherever the cache is (the user's cache directory
for a game outside the project).

A cache entry that Python turns back into objects or code (a pickle, marshal data, compiled code) is sealed:
write_sealed_entry stores it with a MAC made with a key kept in the user's own cache folder, and
read_sealed_entry gives back only what that user's pnpgen sealed. An output folder's cache can be written by
others (a team share, a CI cache restored from another job): an entry planted there, or sealed with another
key, is not read, but made again, never run.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import hmac
import itertools
import json
import os
import re
import secrets
import stat
from pathlib import Path

from generator.errors import InputError, Problem
from generator.paths import user_cache_dir

REPORT_NAME = "build.json"  # committed last: it describes the other files


def write_atomic(path: Path, data: bytes | str, durable: bool = True) -> None:
    """Replace path with data, whole. durable=False leaves out the wait for the disk (fsync): for entries of a
    cache, which are checked when read and made again when damaged, and which a build writes by the hundred."""
    path = Path(path)
    outputs = _open_set.get()
    if outputs is not None and outputs.owns(path):
        outputs.stage(path, data)
        return
    os.replace(_write_beside(path, data, durable), path)


def written_path(path: Path) -> Path:
    """Where the file a command wrote to `path` can be read now: its staged copy while the command's OutputSet is
    open (a build that combines files it wrote reads them there), else the path itself."""
    outputs = _open_set.get()
    if outputs is not None and os.getpid() == outputs._pid:
        staged = outputs.staged.get(Path(os.path.realpath(path)))
        if staged is not None:
            return Path(staged)
    return Path(path)


def write_cache_entry(path: Path, data: bytes | str) -> None:
    """Write a cache entry whole (see the module's doc): a reader sees the old entry, the new one or none. Not
    flushed to disk first: a damaged entry is rendered again, never trusted."""
    os.replace(_write_beside(Path(path), data, durable=False), path)


SEALED = b"pnpgen sealed cache entry 1\n"  # what a sealed entry starts with, before its MAC
MAC_BYTES = 32  # HMAC-SHA256
KEY_NAME = "cache-key"  # in the user's cache folder


def write_sealed_entry(path: Path, data: bytes) -> None:
    """Write a cache entry that only this user's pnpgen can have written (see the module's doc): the data with
    its MAC, which names the entry's file too (an entry copied under another name is not read)."""
    path = Path(path)
    write_cache_entry(path, b"".join((SEALED, _mac(path.name, data), data)))


def read_sealed_entry(path: Path) -> memoryview | None:
    """The data write_sealed_entry stored at path; None when there is none, or what is there was not sealed
    with this user's key (planted, damaged, older, another user's): the caller makes it again."""
    path = Path(path)
    try:
        stored = path.read_bytes()
    except OSError:
        return None
    start = len(SEALED) + MAC_BYTES
    if len(stored) < start or not stored.startswith(SEALED):
        return None
    data = memoryview(stored)[start:]
    if not hmac.compare_digest(stored[len(SEALED) : start], _mac(path.name, data)):
        return None
    return data


def _mac(name: str, data: bytes | memoryview) -> bytes:
    digest = hmac.new(sealing_key(), name.encode("utf-8", "surrogateescape") + b"\0", "sha256")
    digest.update(data)
    return digest.digest()


_keys: dict[Path, bytes] = {}  # the user's cache folder -> its key, read once per process


def sealing_key() -> bytes:
    """The key of this user's sealed cache entries, kept in the user's cache folder (made there, mode 0600, on
    first use). When that folder is not the user's alone (another owner, writable by others) or the key cannot
    be kept, a key for this process only: its entries are read by no other process, which makes them again."""
    folder = user_cache_dir()
    key = _keys.get(folder)
    if key is None:
        key = _keys[folder] = _stored_key(folder) or secrets.token_bytes(MAC_BYTES)
    return key


def _stored_key(folder: Path) -> bytes | None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_folder(os.lstat(folder)):
            return None
        path = folder / KEY_NAME
        if not os.path.lexists(path):
            _make_key(path)
        return _read_key(path)
    except OSError:
        return None


def _make_key(path: Path) -> None:
    """Put a new key at path, whole and readable by this user only, unless another process has put one there
    first (the first one stays: entries already sealed with it stay readable)."""
    fd, tmp = _create_beside(path, mode=0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(MAC_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)  # never replaces: unlike a rename, it fails when the name is taken
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def _read_key(path: Path) -> bytes | None:
    """The key at path, when it is a file of this user's that no one else can read or write."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
            return None
        key = os.read(fd, MAC_BYTES + 1)
    finally:
        os.close(fd)
    return key if len(key) == MAC_BYTES else None


def _private_folder(found: os.stat_result) -> bool:
    """Whether a folder is this user's and no one else can add or replace files in it."""
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o022


def remove_output(path: Path) -> None:
    """Remove a file the command no longer writes (a volume a smaller deck no longer has): in an open
    OutputSet, when the set is committed, so a failed command leaves it as it was."""
    path = Path(path)
    outputs = _open_set.get()
    if outputs is not None and outputs.owns(path):
        outputs.removed.add(Path(os.path.realpath(path)))
        return
    path.unlink(missing_ok=True)


def _write_beside(path: Path, data: bytes | str, durable: bool = True) -> str:
    """A complete temporary copy of the file beside its final place (on disk when durable); its name.

    A build writes one per face (a cold build of the benchmark deck: 100, the last ones while both cores wait),
    so the copy is named by this process and a counter and created with the mode open() gives (the umask
    applies), its folder made only when missing: a tenth of the cost of mkstemp, fchmod and mkdir each time."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _create_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _create_beside(path: Path, mode: int = 0o666) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    folder_made = False
    while True:
        tmp = f"{path.parent}{os.sep}.{path.name}.{os.getpid()}-{next(_temporary_numbers)}.tmp"
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:  # left by a process of the same id that died: the next number
            continue
        except FileNotFoundError:
            if folder_made:
                raise
            path.parent.mkdir(parents=True, exist_ok=True)
            folder_made = True


_temporary_numbers = itertools.count()


class OutsideOutput(InputError):
    """A file would be written outside the output folder (a name made from an id or a language code)."""

    def __init__(self, path: Path, root: Path):
        super().__init__(
            Problem(
                None,
                None,
                f"refusing to write {path}: it is outside the output folder {root}",
                hint="ids and language codes hold letters, digits, '-' and '_' only",
            )
        )
        self.path, self.root = path, root


def inside(path: Path, root: Path) -> bool:
    """Whether path, with `..` and symbolic links resolved, is root or below it."""
    resolved = Path(os.path.realpath(path))
    root = Path(os.path.realpath(root))
    return resolved == root or root in resolved.parents


_open_set: contextvars.ContextVar[OutputSet | None] = contextvars.ContextVar("open_output_set", default=None)


class OutputSet:
    """The files one command writes under `root`, replaced together or not at all (see the module's doc).

    Folders whose name starts with a dot (the face cache, `.cache/`) are not part of the set: they are
    written at once, as before.
    """

    def __init__(self, root: Path):
        self.root = Path(os.path.realpath(root))
        self.staged: dict[Path, str] = {}  # final path -> temporary file beside it
        self.removed: set[Path] = set()  # files to remove on commit
        self._token: contextvars.Token[OutputSet | None] | None = None  # while it is open (__enter__)
        self._pid = os.getpid()

    def owns(self, path: Path) -> bool:
        if os.getpid() != self._pid:
            return False  # a forked render worker writes only the face cache, at once
        if not inside(path, self.root):
            raise OutsideOutput(path, self.root)
        relative = Path(os.path.realpath(path)).relative_to(self.root)
        return not any(part.startswith(".") for part in relative.parts[:-1])

    def stage(self, path: Path, data: bytes | str) -> None:
        final = Path(os.path.realpath(path))
        self.removed.discard(final)
        tmp = _write_beside(final, data)
        previous = self.staged.pop(final, None)
        if previous:
            Path(previous).unlink(missing_ok=True)
        self.staged[final] = tmp

    def commit(self) -> None:
        """Rename every staged file into place and remove those no longer written, each folder's build.json
        after its other files; with a journal when there is more than one change (see the module's doc)."""
        renames = [(tmp, str(final)) for final, tmp in self.staged.items()]
        removed = [str(final) for final in self.removed]
        journal = _write_journal(self.root, renames, removed) if len(renames) + len(removed) > 1 else None
        _apply(renames, removed)
        if journal is not None:
            os.unlink(journal)
        self.staged.clear()
        self.removed.clear()

    def discard(self) -> None:
        for tmp in self.staged.values():
            Path(tmp).unlink(missing_ok=True)
        self.staged.clear()
        self.removed.clear()

    def __enter__(self) -> OutputSet:
        finish_interrupted(self.root)
        self._token = _open_set.set(self)
        return self

    def __exit__(self, kind, error, traceback) -> None:
        assert self._token is not None, "an OutputSet is left only after it was entered"
        _open_set.reset(self._token)
        if kind is None:
            self.commit()
        else:
            self.discard()


def _apply(renames: list[tuple[str, str]], removed: list[str]) -> None:
    """Make a commit's changes: the renames (build.json last) and removals; those already made are skipped."""
    for tmp, final in renames:
        if os.path.basename(final) != REPORT_NAME and os.path.lexists(tmp):
            os.replace(tmp, final)
    for final in removed:
        Path(final).unlink(missing_ok=True)
    for tmp, final in renames:
        if os.path.basename(final) == REPORT_NAME and os.path.lexists(tmp):
            os.replace(tmp, final)


JOURNAL = re.compile(r"^\.pnpgen-commit\.(\d+)\.json$")
TEMPORARY = re.compile(r"^\..+\.(\d+)-\d+\.tmp$")  # what _create_beside names


def _write_journal(root: Path, renames: list[tuple[str, str]], removed: list[str]) -> str:
    """Write, whole and on disk, what a commit is about to do (paths relative to root, which may move)."""
    relative = functools.partial(os.path.relpath, start=root)
    journal = {
        "process": _process_identity(os.getpid()),
        "renames": [[relative(tmp), relative(final)] for tmp, final in renames],
        "removed": [relative(final) for final in removed],
    }
    path = root / f".pnpgen-commit.{os.getpid()}.json"
    os.replace(_write_beside(path, json.dumps(journal)), path)
    _sync_folder(root)
    return str(path)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def finish_interrupted(root: Path) -> list[Path]:
    """Make the changes of every commit under root whose process was killed in it (its journal), and remove
    the temporary files of processes that no longer run, in root and its folders but those named with a dot
    (caches); the files the commits changed. A commit of a running process is left to it."""
    root = Path(os.path.realpath(root))
    done: list[Path] = []
    try:
        names = os.listdir(root)
    except OSError:
        return done
    for name in names:
        found = JOURNAL.match(name)
        if not found:
            continue
        path = root / name
        try:
            journal = json.loads(path.read_text(encoding="utf-8"))
            if _runs(int(found[1]), journal["process"]):
                continue
            renames = [(str(root / tmp), str(root / final)) for tmp, final in journal["renames"]]
            removed = [str(root / final) for final in journal["removed"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a journal that is not whole was never acted on: nothing was renamed
        if all(inside(Path(p), root) for pair in renames for p in pair) and all(inside(Path(p), root) for p in removed):
            _apply(renames, removed)
            done += [Path(final) for tmp, final in renames] + [Path(final) for final in removed]
        path.unlink(missing_ok=True)
    _remove_strays(root)
    return done


def _remove_strays(root: Path) -> None:
    """Remove the temporary files (`.NAME.PID-N.tmp`) that processes no longer running left under root."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        for name in names:
            found = TEMPORARY.match(name)
            if found and not _runs(int(found[1])):
                path = os.path.join(folder, name)
                try:
                    if stat.S_ISREG(os.lstat(path).st_mode):
                        os.unlink(path)
                except OSError:
                    pass  # gone meanwhile, or not ours to remove


def _process_identity(pid: int) -> str | None:
    """What tells this process from another given the same id later: its start time (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
    except OSError:
        return None
    return None if fields[0] in (b"Z", b"X") else fields[19].decode()  # ended, not yet reaped: gone


def _runs(pid: int, identity: str | None = None) -> bool:
    """Whether process pid runs (and is the one with that identity, when given)."""
    if pid == os.getpid():
        return True
    if os.path.isdir("/proc"):
        current = _process_identity(pid)
        return current is not None and (identity is None or current == identity)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def content_digest(path: Path) -> bytes:
    """The SHA-256 of a file's content, read once per process for each version of the file (its modification
    time and size): the face memo and the image checks both ask it of every picture of a game."""
    version = os.stat(path)
    return _content_digest(Path(path), version.st_mtime_ns, version.st_size)


@functools.lru_cache(maxsize=4096)
def _content_digest(path: Path, mtime_ns: int, size: int) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()
