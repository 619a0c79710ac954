"""Phases that make a large game's long-lived objects run without the cyclic garbage collector.

A 20,000-card game is millions of Python objects (its YAML with positions, the model, every face's key).
Each full collection walks all of them again while they are being made: that doubled the time to load such
a game. The objects a phase makes are kept for the whole command, so it pauses the collector and then
freezes them (gc.freeze): later collections, and those of render workers forked afterwards, leave them
alone, which also keeps the workers from copying the parent's memory page by page. The entry points that
run such phases (build(), render_game(), a command) thaw them when they end, so that a process that goes on
(watch, serve, the tests) can collect them once they are garbage.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


_frozen = False  # objects were frozen through this module and not thawed since (see frozen_heap)


def freeze() -> None:
    """Leave the objects alive now out of garbage collection until thaw() (gc.freeze, noted here)."""
    global _frozen
    gc.freeze()
    _frozen = True


@contextmanager
def long_lived() -> Iterator[None]:
    """Run the block without the cyclic collector, then freeze what exists (see the module's doc)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        freeze()
        if enabled:
            gc.enable()


def thaw() -> None:
    """Make what long_lived froze collectable again (at the end of the work that needed it)."""
    global _frozen
    gc.unfreeze()
    _frozen = False


@contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects alive now are left out of garbage collection until the end of the block (inside an outer
    frozen_heap, nothing changes). A build of 20,000 cards allocates a copy, a place and a face reference per
    card while the game and its faces (millions of objects, alive to the end) sit in the heap: every full
    collection would walk them all again, and a forked worker's would copy them. (Unlike long_lived, the
    collector keeps running, on what the block makes.)"""
    if _frozen or gc.get_freeze_count():  # the count walks every frozen object: 10 ms in a server's fork
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def release_free_memory() -> None:
    """Give the heap pages freed since to the system: glibc keeps them otherwise (a render worker after a long
    document, a command after writing a volume)."""
    import ctypes

    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


MADV_POPULATE_WRITE = 23  # Linux 5.14: fault the range in for writing, as a write would


def copy_private_pages() -> int:
    """Make this forked process' own copy of every private writable page now (bytes copied; 0 where the kernel
    cannot). A fork shares its parent's memory until either writes to it; a forked command would then copy a
    page on its first write to it, about 30 ms for a pnpgen server's 70 MB, while its caller waits. A process
    forked ahead of its work pays that before the work arrives."""
    import ctypes

    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
        madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        with open("/proc/self/maps", encoding="ascii") as maps:
            regions = [line.split() for line in maps]
    except (OSError, AttributeError):
        return 0
    copied = 0
    for region in regions:
        start, end = (int(address, 16) for address in region[0].split("-"))
        name = region[5] if len(region) > 5 else ""
        if region[1][1] != "w" or region[1][3] != "p" or name in ("[stack]", "[vvar]", "[vsyscall]"):
            continue
        if madvise(start, end - start, MADV_POPULATE_WRITE) == 0:
            copied += end - start
    return copied
