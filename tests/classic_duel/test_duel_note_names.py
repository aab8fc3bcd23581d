"""The Classic duel's notes name a unit once: a fire-model note that already starts with the
unit's name (the incomplete note, issue 19) is not prefixed with it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.classic.duel.scenario import build

HELEPOLIS = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units"
             / "corpus" / "Helepolis HEP-2H.mtf")


@pytest.mark.skipif(not HELEPOLIS.is_file(), reason=f"{HELEPOLIS} not found")
def test_incomplete_note_names_the_unit_once() -> None:
    scn = build({"unit_a": str(HELEPOLIS), "unit_b": "Locust LCT-1V", "turns": 1})
    inc = [n for n in scn.notes if "is incomplete" in n]
    assert inc and all(n.startswith("Helepolis HEP-2H is incomplete: ") for n in inc)
    assert not any(n.startswith("Helepolis HEP-2H: Helepolis HEP-2H") for n in scn.notes)
    # other fire-model notes keep their unit prefix
    assert any(n.startswith("Helepolis HEP-2H: ISSniper is split") for n in scn.notes)
