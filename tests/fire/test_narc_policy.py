"""Issue 19: the named firing policies value a Narc launcher (no damage) at the extra damage
its beacon would add over one turn: P(launcher hits) x the sum of P(hit) x the gain of +2 on
the cluster roll of each Narc-fed weapon available (sim/classic/fire/policies.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sim.classic.fire.policies import Decider, narc_gains, narc_value
from sim.classic.fire.scenario import build_scenario
from sim.dice import P_2D6_AT_LEAST, PMF_2D6
from sim.units.catalog import read_unit_file

RAVEN = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
         / "Raven RVN-3L.mtf")
needs = pytest.mark.skipif(not RAVEN.is_file(), reason=f"{RAVEN} not found")


def _scn(mech, policy: str = "max-expected"):
    return build_scenario({"unit": mech, "gunnery": 4, "range": 3, "turns": 1,
                           "policy": policy})


@needs
@pytest.mark.parametrize("policy", ["max-expected", "neutral", "below:30"])
def test_named_policies_fire_the_narc_launcher(policy: str) -> None:
    scn = _scn(read_unit_file(RAVEN), policy)
    narc = next(g for g, gun in enumerate(scn.guns) if gun.weapon.family == "narc")
    srm = next(g for g, gun in enumerate(scn.guns) if gun.weapon.family == "srm")
    gains = narc_gains(scn)
    assert gains is not None and gains[srm] > 0 and gains[narc] == 0
    # the SRM-6's hits by cluster roll, 2 damage a missile: +2 on the roll, capped at 12
    g = scn.guns[srm]
    want = sum(float(PMF_2D6[t]) * 2 * (int(g.hits[g.rate][min(t + 2, 12)]) - int(g.hits[g.rate][t]))
               for t in range(2, 13))
    assert abs(gains[srm] - want) < 1e-12
    d = Decider(scn)
    full = (1 << len(scn.guns)) - 1
    p = [float(P_2D6_AT_LEAST[int(gun.tn[0, 0])]) for gun in scn.guns]
    assert abs(narc_value(d, narc, 0, 0, full) - p[narc] * p[srm] * gains[srm]) < 1e-12
    assert narc_value(d, narc, 0, 0, full & ~(1 << srm)) == 0.0   # nothing it helps
    assert (d.mask(0, 0, full) >> narc) & 1                        # fired (it costs no heat)


@needs
def test_narc_without_narc_capable_rounds_is_worth_nothing() -> None:
    mech = read_unit_file(RAVEN)
    plain = replace(mech, ammo_bins=tuple(replace(b, munition="") for b in mech.ammo_bins))
    scn = _scn(plain)
    assert narc_gains(scn) is None
    narc = next(g for g, gun in enumerate(scn.guns) if gun.weapon.family == "narc")
    assert not (Decider(scn).mask(0, 0, (1 << len(scn.guns)) - 1) >> narc) & 1
