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
