"""Issue 19: per-shot ammunition choice. A launcher with several kinds of round on hand
(``sim/classic/data/munitions.csv``: MML LRM or SRM rounds; ATM standard, ER or HE rounds,
reference 10.2) fires, at each range, the kind with the highest exact expected damage
(:func:`sim.classic.fire.scenario.choose_rounds`); the others cannot fire there. Exact
values from the cluster table, and the Monte Carlo kernel against the exact chain."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sim import engine, testing
from sim.classic.fire import cluster as C
from sim.classic.fire.model import MODEL
from sim.classic.fire.scenario import build_scenario, expected_damage
from sim.classic.weapons import WEAPONS, rounds_for
from sim.units.catalog import read_unit_file

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
MATADOR, BOMBARDIER = CORPUS / "Matador 2.mtf", CORPUS / "Bombardier BMB-14K.mtf"
needs = pytest.mark.skipif(not MATADOR.is_file(), reason=f"corpus not found at {CORPUS}")


def test_rounds_table_matches_the_reference() -> None:
    """Reference 10.2: ATM standard 2/msl min 4 5/10/15; ER 1/msl min 4 9/18/27; HE 3/msl no
    minimum 3/6/9. MML (MegaMek ISMML*): LRM 1/msl min 6 7/14/21, SRM 2/msl 3/6/9."""
    got = {w.name: (w.damage, w.min_range, w.short, w.medium, w.long, w.group, w.ammo)
           for w in rounds_for(WEAPONS["Clan ATM 9"])}
    assert got == {"ATM 9": (2, 4, 5, 10, 15, 5, "Clan Ammo ATM-9"),
                   "ATM 9 (ER rounds)": (1, 4, 9, 18, 27, 5, "Clan Ammo ATM-9 ER"),
                   "ATM 9 (HE rounds)": (3, 0, 3, 6, 9, 5, "Clan Ammo ATM-9 HE")}
    lrm, srm = rounds_for(WEAPONS["IS MML 7"])
    assert (lrm.family, lrm.damage, lrm.min_range, lrm.long) == ("lrm", 1, 6, 21)
    assert (srm.family, srm.damage, srm.min_range, srm.long, srm.group) == ("srm", 2, 0, 9, 2)
    assert all(c.heat == lrm.heat and c.cluster == 7 for c in (lrm, srm))
    assert rounds_for(WEAPONS["IS Medium Laser"]) == (WEAPONS["IS Medium Laser"],)


def _atm_guns(r: int) -> list:
    scn = build_scenario({"unit": read_unit_file(MATADOR), "gunnery": 4, "range": r,
                          "turns": 1})
    return [g for g in scn.guns if g.key == "Clan ATM 9"]


@needs
@pytest.mark.parametrize("r,kind", [(2, "HE"), (7, ""), (16, "ER")])
def test_atm_fires_the_best_rounds_at_each_range(r: int, kind: str) -> None:
    """Gunnery 4, standing, range 2: HE (no minimum range; the standard rounds take +3 at
    2 hexes inside their minimum of 4); 7: standard (short for it, medium for HE); 16: ER
    (long 27; beyond the standard 15). Each expected damage is P(hit) x the missiles the
    cluster table lands (+2 built in) x damage per missile, computed here."""
    [gun] = _atm_guns(r)
    assert gun.name == "ATM 9" + (f" ({kind} rounds)" if kind else "")
    best = expected_damage(gun, int(gun.tn[0, 0]))
    per = {"HE": 3, "": 2, "ER": 1}[kind]
    tn = int(gun.tn[0, 0])
    p_hit = sum((p for t, p in enumerate(C.PMF_2D6) if t >= tn), Fraction(0))
    assert best == p_hit * C.expected_hits(9, 2) * per
    # every other kind of round would do less at that range
    scn = build_scenario({"unit": read_unit_file(MATADOR), "gunnery": 4, "range": r,
                          "turns": 1})
    assert scn.mount_rows[[row["key"] for row in scn.mount_rows].index("Clan ATM 9")][
        "rounds"][r].endswith(f"ATM-9 {kind}".strip())


@needs
def test_a_range_script_gets_one_gun_per_kind_with_complementary_steps() -> None:
    scn = build_scenario({"unit": read_unit_file(MATADOR), "gunnery": 4, "ranges": "2,7,16",
                          "turns": 3})
    atm = [g for g in scn.guns if g.key == "Clan ATM 9"]
    assert [g.name for g in atm] == ["ATM 9", "ATM 9 (ER rounds)", "ATM 9 (HE rounds)"]
    live = np.array([g.tn[:, 0] <= 12 for g in atm])
    assert live.sum(axis=0).tolist() == [1, 1, 1]  # one kind fires at each step
    assert [int(np.argmax(live[:, s])) for s in range(3)] == [2, 0, 1]


@needs
def test_mml_with_srm_rounds_close_and_lrm_rounds_far() -> None:
    mech = read_unit_file(BOMBARDIER)
    near = build_scenario({"unit": mech, "gunnery": 4, "range": 3, "turns": 1})
    far = build_scenario({"unit": mech, "gunnery": 4, "range": 12, "turns": 1})
    assert {g.name for g in near.guns if g.key == "IS MML 7"} == {"MML 7 (SRM rounds)"}
    assert {g.name for g in far.guns if g.key == "IS MML 7"} == {"MML 7"}
    [srm] = {g.max_damage() for g in near.guns if g.key == "IS MML 7"}
    assert srm == 14  # 7 missiles x 2


@needs
def test_mc_matches_exact_with_a_choice_of_rounds() -> None:
    params = {"unit": read_unit_file(MATADOR), "ranges": "16,7,2", "turns": 3,
              "policy": "all"}
    frame = engine.simulate(MODEL, [params], trials=8_000, seed=5, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=[m.name for m in MODEL.metrics
                                                    if m.kind != "hist"])
