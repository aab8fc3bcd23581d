"""Forces, targeting, range scripts and the notes for unsimulated specials."""

from __future__ import annotations

import numpy as np
import pytest
from duel_helpers import card

from sim import engine
from sim.alphastrike.duel.api import duel
from sim.alphastrike.duel.model import MODEL
from sim.alphastrike.duel.rules import TARGETING
from sim.alphastrike.duel.sides import parse_side
from sim.errors import ConfigError


def test_parse_side_forms() -> None:
    assert parse_side("Atlas AS7-D", 4) == [("Atlas AS7-D", 4)]
    assert parse_side("Atlas AS7-D@2, Locust LCT-1V", 5) == [("Atlas AS7-D", 2),
                                                             ("Locust LCT-1V", 5)]
    for bad in ("", "A,,B", "A@9", "A,B,C,D,E"):
        with pytest.raises(ConfigError):
            parse_side(bad, 4)


def test_force_pv_is_the_sum() -> None:
    scn = MODEL.scenario({"a": "Atlas AS7-D@3,Catapult CPLT-C1,Locust LCT-1V@5,Commando COM-1B",
                          "b": "Locust LCT-1V"})
    assert scn.a.pv == 127            # E4


@pytest.mark.parametrize("targeting", TARGETING)
def test_two_beat_one(targeting: str) -> None:
    # two Commandos against one: the pair wins far more often than one Commando does
    one = duel("Commando COM-1B", "Locust LCT-1V", trials=4000, seed=1)
    two = duel("Commando COM-1B,Commando COM-1B", "Locust LCT-1V", trials=4000, seed=1,
               targeting_a=targeting)
    assert two["p_win_a"] > one["p_win_a"] + 0.05
    assert abs(two["p_win_a"] + two["p_win_b"] + two["p_draw"] + two["p_timeout"] - 1) < 1e-12


def test_targeting_matters_against_a_force() -> None:
    # the Atlas kills either enemy with one hit: shooting the Commando (2 points) first
    # (most-dangerous) leaves the Locust (1 point) shooting back, and the reverse for spread
    # (which takes the first living enemy: the Locust)
    res = {t: duel("Atlas AS7-D", "Locust LCT-1V,Commando COM-1B", trials=6000, seed=4,
                   targeting_a=t) for t in ("most-dangerous", "spread")}
    taken = {t: sum(row["expected_damage_b"] for row in r["turns"]) for t, r in res.items()}
    assert taken["most-dangerous"] < taken["spread"] - 0.3


def test_single_unit_force_equals_duel() -> None:
    saf = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}
    ex = duel("Locust LCT-1V", "Commando COM-1B", **saf)
    mc = duel("Locust LCT-1V", "Commando COM-1B", trials=20000, seed=9, **saf)
    assert abs(mc["p_win_a"] - ex["p_win_a"]) < 4 * mc["p_win_a_se"]


def test_range_script_last_entry_repeats() -> None:
    scn = MODEL.scenario({"a": "Atlas AS7-D", "b": "Locust LCT-1V", "ranges": "long,medium",
                          "turns": 5})
    assert scn.bands == (2, 1, 1, 1, 1)
    with pytest.raises(ConfigError):
        MODEL.scenario({"a": "Atlas AS7-D", "b": "Locust LCT-1V", "ranges": "long",
                        "closing": "close"})


def test_notes_list_unsimulated_specials() -> None:
    notes = " ".join(MODEL.scenario({"a": "Catapult CPLT-C3", "b": "Atlas AS7-D"}).notes())
    assert "ARTAIS-1: not simulated" in notes and "A15" in notes
    assert "REAR1/1/-: not simulated" in notes
    odd = card("Odd", damage=(2, 2, 2, 0), specials="MTAS2,CASEP,BHJ2,ZZZ")
    notes = MODEL.scenario({"a": odd, "b": "Locust LCT-1V"}).notes()
    assert any("MTAS2" in n and "NOT simulated" in n for n in notes)
    assert not any("CASEP" in n for n in notes)                # simulated
    assert not any("BHJ2" in n for n in notes)                # simulated
    hull = MODEL.scenario({"a": card("H", damage=(2, 2, 2, 0), specials="BHJ"),
                           "b": "Locust LCT-1V"}).notes()
    assert any("BHJ:" in n and "hull breaches" in n for n in hull)
    assert any("ZZZ" in n and "unknown" in n for n in notes)
    # simulated specials give no note
    notes = " ".join(MODEL.scenario({"a": "Loki (Hellbringer) Prime",
                                     "b": "Locust LCT-1L"}).notes())
    assert "AMS" not in notes and "TSM" not in notes and "CASE" not in notes


def test_specials_change_results() -> None:
    # AMS (vs an IF user), STL (+1 TN at Medium) and SHLD (-1 point) each cut the points an
    # attacker deals in turn 1; SHLD also makes the shield unit's own attacks harder
    gun = card("Gun", damage=(3, 3, 3, 0), armor=6, structure=4, specials="IF1")
    plain = card("T", damage=(2, 2, 2, 0), armor=3, structure=3)
    base = duel(gun, plain, range="medium", crits=False, turns=1)["turns"][0]
    for spec in ("AMS", "STL", "SHLD"):
        tgt = card("T", damage=(2, 2, 2, 0), armor=3, structure=3, specials=spec)
        row = duel(gun, tgt, range="medium", crits=False, turns=1)["turns"][0]
        assert row["expected_damage_a"] < base["expected_damage_a"], spec
        if spec == "SHLD":
            assert row["expected_damage_b"] < base["expected_damage_b"]


def test_tsm_and_jmpw_are_simulated() -> None:
    # JMPW1: the Assassin's jump TMM is one lower (A13): Atlas hits it more often
    jump = duel("Atlas AS7-D", "Assassin ASN-101", moved_b="jump", range="medium", turns=1)
    # Assassin jump 10" -> TMM 2, -1 (JMPW1), +1 jumped = 2: TN 4 + 2 + 2 = 8
    assert abs(jump["turns"][0]["expected_damage_a"] - 15 / 36 * 5) < 1e-12
    # TSM: Locust LCT-1L at heat 3 (Move 16 - 6 + 2 = 12") keeps moving; checked on the table
    scn = MODEL.scenario({"a": "Locust LCT-1L", "b": "Atlas AS7-D"})
    u = scn.a.units[0]
    assert u.move[3] == 12 and MODEL.scenario(
        {"a": "Locust LCT-1V", "b": "Atlas AS7-D"}).a.units[0].move[3] == 10


def test_mc_runs_with_engine_chunks() -> None:
    frame = engine.simulate(MODEL, [{"a": "Atlas AS7-D,Locust LCT-1V", "b": "Mad Cat (Timber "
                                     "Wolf) S", "ranges": "long,medium,short"}],
                            trials=3000, seed=1, chunk_size=500, progress=False)
    assert len(frame) == 30
    assert np.all(np.diff(frame["p_end_by"].to_numpy()) >= 0)


def _turn1_damage(gun: object, tgt: object, **kw: object) -> float:
    # skill 0 at Short vs a target that moved (TMM 2): TN 2, every attack hits
    r = duel(gun, tgt, skill_a=0, range="short", turns=1, policy_b="hold", crits=False, **kw)
    return r["turns"][0]["expected_damage_a"]


@pytest.mark.parametrize(("gun_specials", "dmg", "tgt_specials", "want", "rules"), [
    ("LRM1/1/1,IF1", 5, "BRA", 2, {}),             # BRA: loss rounded up (5 -> 2)
    ("LRM1/1/1,IF1", 1, "BRA", 0, {}),             # A21: no floor
    ("LRM1/1/1,IF1", 1, "BRA", 1, {"bra_floor": 1}),
    ("SRM2/2", 4, "RCA", 3, {}),                   # RCA: 4 with SRM2/2 -> 3 (21.2)
    ("IF1", 4, "RCA", 4, {}),                      # A23: IF only -> no reduction
    ("IF1", 4, "RCA", 3, {"rca_if_only": "half_if"}),
    ("ENE", 5, "RFA", 2, {}),                      # A10: halved, round down
    ("ENE", 5, "RFA", 3, {"rfa_rounding": "up"}),
    ("", 5, "RFA", 4, {}),                         # other attacks -1
    ("", 1, "RFA", 1, {}),                         # min 1
    ("IF1", 5, "AMS,SHLD", 3, {}),                 # AMS then SHLD
])
def test_damage_modifiers_21_3(gun_specials: str, dmg: int, tgt_specials: str, want: int,
                               rules: dict) -> None:
    gun = card("Gun", damage=(dmg, dmg, dmg, 0), armor=9, structure=9, specials=gun_specials)
    tgt = card("T", damage=(1, 1, 1, 0), armor=9, structure=9, specials=tgt_specials)
    assert abs(_turn1_damage(gun, tgt, **rules) - want) < 1e-12


def test_mas_and_bhj() -> None:
    gun = card("Gun", damage=(2, 2, 2, 0), armor=9, structure=9)
    # MAS: +3 against a target that stood still: TN 0 + 0 + 0 + 3 = 3 -> 35/36
    tgt = card("T", damage=(1, 1, 1, 0), armor=9, structure=9, specials="MAS")
    assert abs(_turn1_damage(gun, tgt, moved_b="still") - 2 * 35 / 36) < 1e-12
    assert abs(_turn1_damage(gun, tgt) - 2) < 1e-12                    # moved: no MAS
    # BHJ2: a sure 1-point hit per turn is repaired every End Phase: never destroyed
    one = card("Gun", damage=(1, 1, 1, 0), armor=9, structure=9)
    hull = card("T", damage=(1, 1, 1, 0), armor=4, structure=4, specials="BHJ2")
    r = duel(one, hull, skill_a=0, policy_b="hold", turns=10)
    assert r["p_timeout"] == 1
    r = duel(gun, hull, skill_a=0, policy_b="hold", turns=10, crits=False)
    # 2 a turn, 1 back while armor is left: armor 4 -> 3 -> 2 -> 0, then 4 structure: turn 5
    assert r["turns"][4]["p_end"] == 1
