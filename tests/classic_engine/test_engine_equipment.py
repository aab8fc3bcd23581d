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



def FALLBACK_POLICY(heat, turn, state):  # noqa: N802 - a callable firing policy: the NumPy fallback
    return state["avail"]

@needs
def test_the_numpy_fallback_says_it_ignores_tsm() -> None:
    from sim.models import get_model

    model = get_model("classic-duel")
    scn = model.scenario({"unit_a": str(HAMMERHANDS), "unit_b": "Locust LCT-1V",
                          "policy_a": FALLBACK_POLICY, "turns": 1})
    assert any("triple-strength myomer is simulated by the compiled engine only" in n
               for n in model.notes(scn))


HITMAN = CORPUS / "Hitman HM-1.mtf"


def _tape(*values: int) -> np.ndarray:
    D = np.zeros(L.D_TAPE + len(values) + 8, np.uint64)
    D[L.D_MODE] = 1
    D[L.D_TAPE:L.D_TAPE + len(values)] = values
    return D


@pytest.mark.skipif(not HITMAN.is_file(), reason=f"{HITMAN} not found")
def test_masc_sprint_and_failure_from_the_rule_functions() -> None:
    from sim.classic.engine.move import RUN, move

    scn = build({"unit_a": str(HITMAN), "unit_b": "Locust LCT-1V", "turns": 4})
    comp = C.compile_scenario(scn)
    walk = scn.a.walk
    assert v2(comp.M, L.M_UP)[0, C.P_MASC_ITEM] >= 0
    assert v2(comp.M, L.M_UP)[1, C.P_MASC_ITEM] == -1
    mt = v2(comp.M, L.M_MASC_T)
    assert list(mt[0, :5]) == list(ER.MASC_FAILURE_TARGET)
    S0 = v2(comp.M, L.M_S0)
    # a 2D6 of 12 (tape value 35): MASC holds, the 'Mech sprints walk x 2; level 1
    S, X = S0.copy(), np.zeros((2, L.N_X), np.int64)
    move(S[0], X, comp.M, 0, RUN, True, _tape(35))
    assert X[0, L.X_HEX] == ER.sprint_mp(walk, True, False) == 2 * walk
    assert X[0, L.X_MOD] == 2 and X[0, L.X_MASC_LEVEL] == 1
    # a second turn of use: the failure target rises to 5; a 2D6 of 4 (tape 2) fails: MASC
    # and both hips are destroyed, and the 'Mech has no MP left to run with
    move(S[0], X, comp.M, 0, RUN, True, _tape(2))
    assert ER.masc_failure_target(1) == 5 and X[0, L.X_MASC_GONE] == 1
    assert X[0, L.X_HEX] == 0
    S2, X2 = S0.copy(), np.zeros((2, L.N_X), np.int64)
    move(S2[0], X2, comp.M, 0, 1, True, _tape(35))          # walking: MASC unused
    assert X2[0, L.X_HEX] == walk and X2[0, L.X_MASC_LEVEL] == 0
    off = C.compile_scenario(build({"unit_a": str(HITMAN), "unit_b": "Locust LCT-1V",
                                    "turns": 4, "masc": "off"}))
    S3, X3 = S0.copy(), np.zeros((2, L.N_X), np.int64)
    move(S3[0], X3, off.M, 0, RUN, True, _tape(35))
    assert X3[0, L.X_HEX] == (3 * walk + 1) // 2
    assert completeness(read_mtf(HITMAN)) == "complete"


CUIRASS = CORPUS / "Cuirass CDR-1X.mtf"


@pytest.mark.skipif(not CUIRASS.is_file(), reason=f"{CUIRASS} not found")
def test_a_sword_swings_in_the_hatchets_place() -> None:
    from sim.classic.duel import physical as ph
    from sim.classic.physical_weapons import PHYSICAL_WEAPONS, physical_weapon_damage
    from sim.models import get_model

    scn = build({"unit_a": str(CUIRASS), "unit_b": "Locust LCT-1V", "turns": 1})
    assert scn.a.sword[0] >= 0 and scn.a.hatchet == (-1, -1)
    up = v2(C.compile_scenario(scn).M, L.M_UP)
    assert up[0, C.P_HATCH_ITEM] == scn.a.sword[0]
    assert up[0, C.P_CLUB_MOD] + ph.BASE[ph.HATCHET] == PHYSICAL_WEAPONS["sword"].base_mod
    assert up[0, C.P_HATCH_DMG] == physical_weapon_damage("sword", scn.a.tons) == 5  # 40 t
    assert up[1, C.P_CLUB_MOD] == 0  # no sword: the hatchet's numbers stay
    assert completeness(read_mtf(CUIRASS)) == "complete"
    model = get_model("classic-duel")
    p = {"unit_a": str(CUIRASS), "unit_b": "Locust LCT-1V", "range": 1, "turns": 2}
    agg = model.sample(model.scenario(p), np.random.default_rng(5), 32)
    assert agg.n == 32
    fb = model.scenario({**p, "policy_a": FALLBACK_POLICY})
    assert any("the sword is simulated by the compiled engine only" in n
               for n in model.notes(fb))


DEVA = CORPUS / "Deva C-DVA-O Invictus.mtf"


@pytest.mark.skipif(not DEVA.is_file(), reason=f"{DEVA} not found")
def test_a_small_cockpit_adds_one_to_every_piloting_roll() -> None:
    from sim.classic.engine.psr import pre_psr
    from sim.units.usable import not_simulated

    scn = build({"unit_a": str(DEVA), "unit_b": "Locust LCT-1V", "turns": 1})
    comp = C.compile_scenario(scn)
    S0 = v2(comp.M, L.M_S0)
    assert v2(comp.M, L.M_UP)[0, C.P_COCKPIT_PSR] == ER.cockpit_psr_mod("Small Cockpit") == 1
    assert pre_psr(S0[0].copy(), comp.M, 0) == 1 and pre_psr(S0[1].copy(), comp.M, 1) == 0
    names = {i.name for i in not_simulated(read_mtf(DEVA))}
    assert not any("cockpit" in n.lower() for n in names)
    assert not any("gyro" in n.lower() for n in names)  # the heavy-duty gyro is read (issue 19)
    assert v2(comp.M, L.M_UP)[0, C.P_GYRO_DEAD] == 3
