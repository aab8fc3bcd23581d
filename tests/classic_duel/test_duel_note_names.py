"""The Classic duel's notes name a unit once: a fire-model note that already starts with the
unit's name (the incomplete note, issue 19) is not prefixed with it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.classic.duel.scenario import build

HITMAN = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
          / "Hitman HM-1.mtf")


@pytest.mark.skipif(not HITMAN.is_file(), reason=f"{HITMAN} not found")
def test_incomplete_note_names_the_unit_once() -> None:
    scn = build({"unit_a": str(HITMAN), "unit_b": "Locust LCT-1V", "turns": 1})
    inc = [n for n in scn.notes if "is incomplete" in n]
    assert inc and all(n.startswith("Hitman HM-1 is incomplete: ") for n in inc)
    assert not any(n.startswith("Hitman HM-1: Hitman HM-1") for n in scn.notes)
    # other fire-model notes keep their unit prefix
    assert any(n.startswith("Hitman HM-1: LRM 5 (LT)") for n in scn.notes)
