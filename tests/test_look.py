"""Visual regression: every A4 and Letter page of the three kits looks as the committed record says (tests/look/).

A deliberate change of look is accepted with `make accept-look`, which writes the records again.
"""

import pytest

from conftest import KITS
from look.record import differences

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("game_id", KITS)
def test_every_page_of_the_kit_looks_as_recorded(kits, game_id):
    changed = differences(game_id, kits / game_id)
    assert not changed, (
        f"{game_id} looks different from tests/look/{game_id}.json (if that is intended, "
        "run `make accept-look`):\n  " + "\n  ".join(changed)
    )
