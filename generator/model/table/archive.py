"""The zip archive of an XLSX or ODS file, read within bounds before anything else reads it.

A spreadsheet is a zip of XML parts, and a zip can claim anything: a few KB that unpack to gigabytes, sizes in
its directory that differ from what its data inflates to, a directory of a million entries. Here the archive's
end record is read first (how many entries, how large the directory), then each entry is inflated by zlib
itself, a chunk at a time, counted against one budget for the whole file: an entry must inflate to exactly
the size and checksum its directory declares, or the file is refused. Only then may a reader (the sheet scan,
then python-calamine) open it, and every entry it can read has been measured.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.errors import InputError, Problem

MAX_ENTRIES = 1_000  # an XLSX or ODS holds a few dozen parts
MAX_DIRECTORY_BYTES = 1 << 20
MAX_UNPACKED_BYTES = 100 << 20  # every entry inflated, together: a 500,000-cell sheet is 20 to 60 MB of XML
CHUNK = 1 << 16
END_RECORD = b"PK\x05\x06"
END_RECORD_SIZE = 22
ZIP64_LOCATOR = b"PK\x06\x07"
LOCAL_HEADER = struct.Struct("<4s5H3I2H")  # signature ... name length, extra length
RESAVE = "save it again from the spreadsheet program"


class Overflow(Exception):
    """The archive's parts unpacked to more than MAX_UNPACKED_BYTES, while inflating `part`."""

    message = f"its parts unpack to more than {MAX_UNPACKED_BYTES >> 20} MB"
    hint = "a card list is far smaller: is this the file you meant?"

    def __init__(self, part: str):
        super().__init__(part)
        self.part = part


@dataclass
class Budget:
    """Bytes still allowed to come out of the archive's entries."""

    left: int = MAX_UNPACKED_BYTES


class Archive:
    """An opened, bounded zip archive: its entries by name, each inflated on demand within the budget."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.budget = Budget()
        check_end_record(self.path)
        try:
            self.zip = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise self.error(f"not a readable spreadsheet archive ({error})") from None
        infos = self.zip.infolist()
        if len(infos) > MAX_ENTRIES:
            raise self.error(f"the archive holds {len(infos)} parts, more than {MAX_ENTRIES}")
        self.entries: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if info.filename in self.entries:
                raise self.error(f"the archive holds two parts named {info.filename}")
            self.entries[info.filename] = info

    def check_declared(self) -> None:
        """The sizes the archive's directory declares, added up: refused when over the budget (called once the
        sheets have been streamed, so that a sheet crossing a limit is reported at its cell first)."""
        declared = sum(info.file_size for info in self.entries.values())
        if declared > MAX_UNPACKED_BYTES:
            largest = max(self.entries.values(), key=lambda info: info.file_size)
            raise self.error(
                f"its parts unpack to {declared >> 20} MB ({largest.filename}: {largest.file_size >> 20} MB), "
                f"more than {MAX_UNPACKED_BYTES >> 20} MB",
                "a card list is far smaller: is this the file you meant?",
            )

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def error(self, message: str, hint: str = RESAVE, part: str | None = None) -> InputError:
        where = f"{part}: " if part else ""
        return InputError(Problem(self.path, None, where + message, hint=hint))

    def chunks(self, name: str) -> Iterator[bytes]:
        """The entry's bytes as it inflates, each chunk counted against the budget; the entry must end at the
        size and checksum its directory declares."""
        info = self.entries[name]
        if info.flag_bits & 0x1:
            raise self.error("the spreadsheet is password-protected", "save a copy without a password", name)
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise self.error(f"compressed in a way spreadsheets are not (method {info.compress_type})", part=name)
        inflater = zlib.decompressobj(-zlib.MAX_WBITS) if info.compress_type == zipfile.ZIP_DEFLATED else None
        size, crc = 0, 0
        for raw in self.raw_chunks(info):
            pending = raw
            while pending:
                if inflater is None:
                    out, pending = pending, b""
                else:
                    out = inflater.decompress(pending, CHUNK)
                    pending = inflater.unconsumed_tail
                size += len(out)
                self.spend(len(out), info, size)
                crc = zlib.crc32(out, crc)
                if out:
                    yield out
                if inflater is not None and inflater.eof:
                    pending = b""
        if inflater is not None and not inflater.eof:
            raise self.error("the part's compressed data ends early", part=name)
        if size != info.file_size or crc != info.CRC:
            raise self.error(
                f"the part's data ({size} bytes) does not match the size or checksum its archive declares "
                f"({info.file_size} bytes)",
                part=name,
            )

    def spend(self, amount: int, info: zipfile.ZipInfo, size: int) -> None:
        if size > info.file_size:
            raise self.error(
                f"the part unpacks to more than the {info.file_size} bytes its archive declares", part=info.filename
            )
        self.budget.left -= amount
        if self.budget.left < 0:
            raise Overflow(info.filename)

    def raw_chunks(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The entry's stored (compressed) bytes, found through its local header."""
        with self.path.open("rb") as file:
            file.seek(info.header_offset)
            header = file.read(LOCAL_HEADER.size)
            if len(header) != LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
                raise self.error("the part's header is damaged", part=info.filename)
            fields = LOCAL_HEADER.unpack(header)
            file.seek(fields[-2] + fields[-1], 1)
            left = info.compress_size
            while left > 0:
                data = file.read(min(CHUNK, left))
                if not data:
                    raise self.error("the file ends inside a part", part=info.filename)
                left -= len(data)
                yield data

    def measure(self, name: str) -> None:
        """An entry no reader of ours parses: inflated, and so counted and checked, all the same."""
        try:
            for _chunk in self.chunks(name):
                pass
        except Overflow:
            raise self.error(Overflow.message, Overflow.hint, name) from None


def check_end_record(path: Path) -> None:
    """The archive's end record, read before zipfile reads the directory it points to: a directory larger
    than MAX_DIRECTORY_BYTES (a million tiny entries) is refused before any of it is parsed."""
    with path.open("rb") as file:
        file.seek(0, 2)
        size = file.tell()
        file.seek(max(0, size - END_RECORD_SIZE - 0xFFFF))
        tail = file.read()
    at = tail.rfind(END_RECORD)
    if at < 0 or len(tail) - at < END_RECORD_SIZE:
        raise InputError(Problem(path, None, "not a spreadsheet: no zip archive inside", hint=RESAVE))
    entries, directory_bytes = struct.unpack("<HI", tail[at + 10 : at + 16])
    zip64 = at >= 20 and tail[at - 20 : at - 16] == ZIP64_LOCATOR
    if zip64 or entries == 0xFFFF or directory_bytes == 0xFFFFFFFF:
        raise InputError(Problem(path, None, "a zip64 archive: far larger than any card list", hint=RESAVE))
    if entries > MAX_ENTRIES or directory_bytes > MAX_DIRECTORY_BYTES:
        raise InputError(
            Problem(path, None, f"the archive lists {entries} parts in {directory_bytes} bytes", hint=RESAVE)
        )
