"""Coolant pods in the Classic duel (issue 19; MegaMek's heat phase): the compiled engine
reads the pods and the heat sinks they sink, spends them by option ``coolant_pod``, and
agrees with the scalar oracle by distribution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_classic_duel_oracle import _compare, _sampled

from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.units.usable import completeness

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
BH = CORPUS / "Black Hawk-KU BHKU-OX.mtf"
needs = pytest.mark.skipif(not BH.is_file(), reason=f"{BH} not found")


@needs
def test_pods_are_compiled_and_the_unit_is_complete() -> None:
    scn = build({"unit_a": str(BH), "unit_b": "Atlas AS7-D", "range": 3, "turns": 1})
    up = C._unit(scn.a, scn.b, scn, C.situations(scn)[0], 0, 0, 0)["UP"]
    assert (up[C.P_NPOD], up[C.P_POD_SINKS], up[C.P_POD_SAFE]) == (2, 14, 13)
    assert [scn.a.layout.items[i].name for i in C.pod_items(scn.a)] == [
        "Coolant Pod (OMNIPOD)"] * 2
    assert completeness(scn.a.mech) == "complete"
    assert "coolant pods" in C.engine_only_equipment(scn.a.mech)   # the NumPy fallback's note


@needs
def test_safe_pods_cut_shutdowns() -> None:
    """Firing everything at 3 hexes the Black Hawk-KU overheats: spending its pods above 13
    heat shuts it down less often than never using them (same seed)."""
    shut = {}
    for mode in ("safe", "never"):
        p = {"unit_a": str(BH), "unit_b": "Atlas AS7-D", "range": 3, "turns": 6,
             "coolant_pod": mode}
        out = _sampled(build(p), np.random.default_rng(3), 3000)
        shut[mode] = float(np.mean(out["shut_turn"][0] > 0))
    se = np.sqrt(sum(v * (1 - v) for v in shut.values()) / 3000)
    assert shut["never"] - shut["safe"] > 6 * se, shut


@needs
def test_engine_matches_oracle_with_pods() -> None:
    _compare({"unit_a": str(BH), "unit_b": "Atlas AS7-D", "range": 3, "coolant_pod": "safe"},
             800, 8000)
