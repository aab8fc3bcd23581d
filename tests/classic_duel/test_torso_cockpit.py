"""The torso-mounted cockpit (issue 19; MegaMek facts, sim.classic.equipment_rules): head
hits do not hurt the MechWarrior, a destroyed head does not destroy the 'Mech, its sensors
blind it at three hits (+4 at two), and a hit life support costs one more point at any
heat. Worked examples, the ``hit`` model, and the compiled duel against the scalar oracle
(the Great Turtle: a quad with hardened armor and a torso-mounted cockpit)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR
from test_classic_duel_oracle import _compare

from sim.classic import equipment_rules as ER
from sim.classic import hit_api
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.units.catalog import get_classic
from sim.units.mtf import read_mtf

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "units" / "corpus"


def _turtle():
    path = CORPUS / "Great Turtle GTR-1.mtf"
    if not path.is_file():
        pytest.skip(f"{path} not here")
    return read_mtf(path)


def test_torso_cockpit_rule_worked_examples() -> None:
    assert ER.torso_cockpit("Torso-Mounted Cockpit") and not ER.torso_cockpit("Standard Cockpit")
    assert (ER.head_hit_pilot_damage(False), ER.head_hit_pilot_damage(True)) == (1, 0)
    assert ER.head_destruction_kills(False) and not ER.head_destruction_kills(True)
    assert ER.SENSORS_BLIND_AT == {False: 2, True: 3}
    assert [ER.sensor_to_hit(h, True) for h in (0, 1, 2)] == [0, 2, 4]
    assert [ER.sensor_to_hit(h, False) for h in (0, 1)] == [0, 2]
    # C1 default steps 15 / 25: a torso cockpit one more at any heat above 0
    assert [ER.life_support_pilot_damage(h, 15, 25, True) for h in (0, 1, 15, 25)] == [0, 1, 2, 3]
    assert [ER.life_support_pilot_damage(h, 15, 25, False) for h in (0, 1, 15, 25)] == [0, 0, 1, 2]


def test_hit_model_head_is_not_vital() -> None:
    t = _turtle()
    r = hit_api.hit(t, damage=200, location="HD")
    assert r["p_destroyed"] == 0 and r["expected_pilot_damage"] == 0
    assert r["p_location_destroyed"]["HD"] == 1
    std = hit_api.hit(get_classic(HBK), damage=200, location="HD")
    assert std["p_destroyed"] == 1
    # the cockpit slot in the center torso kills when hit
    r = hit_api.hit(t, damage=1, location="CT", state={"hit_slots": ["CT:9 Cockpit"]})
    assert r["p_destroyed"] == 1


def test_compiled_engine_reads_the_torso_cockpit() -> None:
    scn = build({"unit_a": _turtle(), "unit_b": WVR, "range": 3})
    keys = C.situations(scn)[0]
    assert C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)["UP"][C.P_TORSO_CP] == 1
    assert C._unit(scn.b, scn.a, scn, keys, 1, 0, 0)["UP"][C.P_TORSO_CP] == 0
    assert any("torso-mounted cockpit" in x for x in C.engine_only_equipment(_turtle()))


def test_engine_matches_oracle_torso_cockpit_biped() -> None:
    """A Hunchback whose file says torso-mounted cockpit (its head slots as they are: the
    rules read the cockpit type) against the Wolverine at 1 hex: head hits and a destroyed
    head spare it, in both the engine and the oracle alike."""
    hbk = replace(get_classic(HBK), cockpit="Torso-Mounted Cockpit")
    p = {"unit_a": hbk, "unit_b": WVR, "range": 1, "moved_a": "walk", "moved_b": "walk"}
    _compare(p, 1200, 12000)


def test_engine_matches_oracle_great_turtle() -> None:
    """The Great Turtle (quad, hardened armor, torso-mounted cockpit) against the
    Wolverine at 3 hexes, engine and oracle by distribution."""
    p = {"unit_a": _turtle(), "unit_b": WVR, "range": 3}
    _compare(p, 1000, 10000)
    from sim.oracles.classic_duel import scalar
    o = scalar({**p, "turns": 10}, np.random.default_rng(3), 400)
    assert not np.any((o["cause"][0] == "head") & (o["dead_turn"][0] > 0))
