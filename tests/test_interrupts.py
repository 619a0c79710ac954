"""generator.interrupts: a Ctrl-C that Python swallows (raised inside a finalizer or an at-fork hook) still
stops the command at the next check."""

from __future__ import annotations

import signal

import pytest

from generator import interrupts


class RaisesSigintWhenCollected:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)  # Python prints "Exception ignored in ..." and carries on


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_swallowed_ctrl_c_is_raised_at_the_next_check():
    previous = signal.getsignal(signal.SIGINT)
    with interrupts.recorded():
        RaisesSigintWhenCollected()
        with pytest.raises(KeyboardInterrupt):
            interrupts.raise_if_pending()
    assert signal.getsignal(signal.SIGINT) is previous


def test_nothing_is_raised_without_a_ctrl_c():
    with interrupts.recorded():
        interrupts.raise_if_pending()
