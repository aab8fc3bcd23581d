"""Issue 19: claws (MegaMek ``PunchAttackAction``): the arm that carries them punches at +1
(in the missing hand's place) for ceil(W/7), with the punch's halvings, TSM and table;
destroyed claws punch as a hand-less arm. Synthetic unit: a built-in 'Mech's file, its left
hand replaced by claws (no MegaMek text copied)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from sim.classic import damage as D
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import v2
from sim.classic.engine.physical import H_PDMG, H_PTN, N_H, choose
from sim.classic.physical_weapons import PHYSICAL_WEAPONS, physical_weapon_damage
from sim.classic.rules import ClassicRules
from sim.units.catalog import get_classic
from sim.units.mtf import parse_mtf
from sim.units.usable import completeness, not_simulated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "units"))
from units_helpers import mtf_text  # noqa: E402

_LA = ("Left Arm:\nShoulder\nUpper Arm Actuator\nLower Arm Actuator\nHand Actuator\n"
       "Medium Laser\n" + "-Empty-\n" * 7)
_CLAWED = ("Left Arm:\nShoulder\nUpper Arm Actuator\nLower Arm Actuator\n" + "ISClaw\n" * 4
           + "Medium Laser\n" + "-Empty-\n" * 3)


def _clawed(tmp_path: Path) -> Path:
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert _LA in text
    path = tmp_path / "clawed.mtf"
    path.write_text(text.replace(_LA, _CLAWED, 1))
    return path


def test_claw_declaration_and_damage() -> None:
    """ceil(W/7): 50 t -> 8 (a punch: 5); halved per bad arm actuator; x2 with TSM."""
    r = ClassicRules()
    assert PHYSICAL_WEAPONS["claws"].base_mod == 1
    assert physical_weapon_damage("claws", 50) == 8 == D.claw_punch(50, 0, False, r)
    assert [D.claw_punch(75, h, False, r) for h in (0, 1, 2)] == [11, 5, 2]
    assert D.claw_punch(50, 0, True, r) == 16 and D.punch(50, 0, False, r) == 5


def test_a_clawed_arm_punches_harder(tmp_path: Path) -> None:
    path = _clawed(tmp_path)
    mech = parse_mtf(path.read_text(), path.name)
    assert mech.physical_weapons == (("claws", "LA"),)
    assert completeness(mech) == "complete"
    assert not any("claw" in i.name for i in not_simulated(mech))
    scn = build({"unit_a": str(path), "unit_b": "Locust LCT-1V", "turns": 1, "range": 1})
    assert scn.a.claws[0] >= 0 and scn.a.claws[1] == -1
    comp = C.compile_scenario(scn)
    up = v2(comp.M, L.M_UP)
    assert (up[0, C.P_CLAW_LA], up[0, C.P_CLAW_RA]) == scn.a.claws
    assert up[1, C.P_CLAW_LA] == up[1, C.P_CLAW_RA] == -1
    SS = np.stack([v2(comp.M, L.M_S0)[u].copy() for u in range(2)])
    X = np.zeros((2, L.N_X), np.int64)
    X[0, L.X_TARGET], X[1, L.X_TARGET] = 1, 0
    PH, PV = np.zeros((2, N_H), np.int64), np.zeros((2, 8))
    choose(SS, X, comp.M, 0, True, 0, False, -1, 0.0, PH, PV)
    # left (claws): +1 for the claws; right: a whole arm, no modifier; 50 t
    assert PH[0, H_PTN] - PH[0, H_PTN + 1] == 1
    assert (PH[0, H_PDMG], PH[0, H_PDMG + 1]) == (8, 5)
