"""Equipment the compiled Classic engine simulates (issue 19): triple-strength myomer's heat
window (+2 walking MP, doubled punch / kick / hatchet damage from heat 9), with the numbers
taken from :mod:`sim.classic.equipment_rules` and :mod:`sim.classic.damage` through
:mod:`sim.classic.engine.compile`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.classic import damage as D
from sim.classic import equipment_rules as ER
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import v2
from sim.units.mtf import read_mtf
from sim.units.usable import completeness

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
HAMMERHANDS = CORPUS / "Hammerhands HMH-6D.mtf"
needs = pytest.mark.skipif(not HAMMERHANDS.is_file(), reason=f"{HAMMERHANDS} not found")


@needs
def test_tsm_tables_come_from_the_rule_functions() -> None:
    scn = build({"unit_a": str(HAMMERHANDS), "unit_b": "Locust LCT-1V", "turns": 1})
    comp = C.compile_scenario(scn)
    up = v2(comp.M, L.M_UP)
    tons, cr = scn.a.tons, scn.a.classic
    assert up[0, C.P_TSM_HEAT] == ER.TSM_HEAT and up[0, C.P_TSM_MP] == 2
    assert up[1, C.P_TSM_HEAT] == C.NO_TSM_HEAT and up[1, C.P_TSM_MP] == 0  # the Locust
    punch = v2(comp.M, L.M_PUNCH_DMG)[0]
    kick = v2(comp.M, L.M_KICK_DMG)[0]
    assert list(punch[3:6]) == [D.punch(tons, h, True, cr) for h in range(3)]
    assert punch[3] == 2 * punch[0] and kick[3] == 2 * kick[0]
    assert up[0, C.P_HATCH_DMG_TSM] == D.club(tons, True, cr)
    lp = v2(comp.M, L.M_PUNCH_DMG)[1]
    assert list(lp[:3]) == list(lp[3:6])  # no TSM: both halves the same


@needs
def test_tsm_walking_mp_in_its_heat_window() -> None:
    from sim.classic.engine.move import current_mp, tsm_acting

    scn = build({"unit_a": str(HAMMERHANDS), "unit_b": "Locust LCT-1V", "turns": 1})
    comp = C.compile_scenario(scn)
    S0 = v2(comp.M, L.M_S0)
    X = np.zeros((2, L.N_X), np.int64)
    walk = scn.a.walk
    from sim.classic.fire import heat as H

    for heat in (0, 8, 9, 12):
        X[0, L.X_HEAT] = heat
        w, r, _ = current_mp(S0[0].copy(), X, comp.M, 0)
        bonus = ER.tsm_walk_bonus(heat)
        assert tsm_acting(X, comp.M, 0) == ER.tsm_active(heat)
        assert w == walk + bonus - H.MP_LOSS[heat], heat
        assert r == (3 * w + 1) // 2


@needs
def test_tsm_unit_is_complete_and_duels() -> None:
    assert completeness(read_mtf(HAMMERHANDS)) == "complete"
    from sim.models import get_model

    model = get_model("classic-duel")
    scn = model.scenario({"unit_a": str(HAMMERHANDS), "unit_b": "Locust LCT-1V",
                          "range": 1, "turns": 3})
    assert not any("incomplete" in n for n in scn.notes)
    agg = model.sample(scn, np.random.default_rng(3), 32)
    assert agg.n == 32


@needs
def test_the_numpy_fallback_says_it_ignores_tsm() -> None:
    from sim.models import get_model

    model = get_model("classic-duel")
    scn = model.scenario({"unit_a": str(HAMMERHANDS), "unit_b": "Locust LCT-1V",
                          "policy_a": "neutral", "turns": 1})
    assert any("triple-strength myomer is simulated by the compiled engine only" in n
               for n in model.notes(scn))
