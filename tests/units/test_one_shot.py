"""One-shot launchers (issue 19; reference-classic-combat.md 10.3 "One-shot (OS) launchers:
fire once per game"; MegaMek ``F_ONESHOT``, ``Mounted.isOneShotAmmo``): the launcher carries
its one volley (no bin, no critical slot), so it fires exactly once per fight on every door:
the fire model (Monte Carlo and exact), the NumPy duel kernel, the compiled engine and the
scalar oracle. Synthetic text: a built-in unit's file, edited."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
from units_helpers import mtf_text

from sim import engine, testing
from sim.classic.damage_state.layout import LOC_INDEX, build_layout
from sim.classic.duel import kernel
from sim.classic.duel.scenario import build
from sim.classic.engine import sampler
from sim.classic.engine.compile import supported
from sim.classic.fire.model import MODEL
from sim.classic.fire.unit import fire_unit
from sim.classic.weapons import ONE_SHOT_ROUNDS, WEAPONS, one_shot_rounds
from sim.oracles.classic_duel import scalar
from sim.units import usable
from sim.units.catalog import get_classic
from sim.units.mtf import parse_mtf

_LT = "Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\n" + "-Empty-\n" * 10
_OS_LT = "Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\nISSRM6IOS\nISSRM6IOS\n" + "-Empty-\n" * 8

#: gunnery 4 at 3 hexes, both standing: TN 4, P = 33/36; an SRM 6 lands 4 missiles on
#: average (cluster table column 6: 144/36), 2 points each
P_HIT = Fraction(33, 36)
SRM6_VOLLEY = P_HIT * 4 * 2


def _mech():  # noqa: ANN202 - the edited Hunchback (an SRM 6 I-OS in the left torso)
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert _LT in text
    text = text.replace(_LT, _OS_LT, 1).replace(
        "Weapons:4\n", "Weapons:5\nSRM 6 (I-OS), Left Torso\n", 1)
    return parse_mtf(text, "hbk.mtf")


def _only_launcher():  # noqa: ANN202 - its one weapon is the one-shot launcher
    m = _mech()
    return replace(m, weapon_mounts=tuple(w for w in m.weapon_mounts
                                          if WEAPONS[w.weapon or ""].one_shot))


def test_one_shot_rows() -> None:
    """Every OS / I-OS launcher and rocket launcher is a one-shot row: no ammunition family,
    one shot a turn, simulated; an OS launcher weighs half a ton more than its standard
    launcher, an improved one half a ton less (MegaMek's classes)."""
    rows = [w for w in WEAPONS.values() if w.one_shot]
    assert {w.key for w in rows} == {w.key for w in WEAPONS.values()
                                     if w.key.endswith((" OS", " I-OS")) or "Rocket" in w.key}
    assert len(rows) >= 40
    for w in rows:
        assert w.ammo is None and w.rate == 1 and w.simulated == "" and w.fires, w.key
        base = WEAPONS.get(w.key.removesuffix(" I-OS").removesuffix(" OS"))
        if base is not None and base.key != w.key and base.key != "IS Streak SRM 2":
            assert w.tons == base.tons + (-0.5 if w.key.endswith("I-OS") else 0.5), w.key
            assert (w.damage, w.heat, w.long, w.cluster) == (
                base.damage, base.heat, base.long, base.cluster), w.key


def test_its_round_is_a_pool_and_a_bin_of_its_own() -> None:
    """One pool of one round for the launcher (not the SRM family's), in the fire model and
    in the damage state, the same key in both; it sits in no slot and cannot explode; the
    unit is complete."""
    mech = _mech()
    [(i, key, loc)] = one_shot_rounds(mech.weapon_mounts)
    assert mech.weapon_mounts[i].weapon == "IS SRM 6 I-OS" and loc == "LT"
    fu = fire_unit(mech)
    [pool] = [p for p in fu.pools if p.key == key]
    assert (pool.shots, pool.explosive, pool.damage_per_shot) == (ONE_SHOT_ROUNDS, False, 0)
    [m] = [m for m in fu.mounts if m.pool_key]
    assert m.weapon is not None and fu.pool_index(m.weapon, m) == fu.pools.index(pool)
    assert fu.pool_index(m.weapon) == -1         # no bin of the SRM family feeds it
    lay = build_layout(mech)
    b = lay.bin_keys.index(key)
    assert lay.bins[b] == (LOC_INDEX["LT"], ONE_SHOT_ROUNDS, 0, False)
    assert b not in set(lay.bin_slot.ravel().tolist())
    side = build({"unit_a": mech, "unit_b": "Wolverine WVR-6R", "range": 3}).a
    assert side.bin_pool[b] == fu.pools.index(pool)
    assert not [x for x in usable.not_simulated(mech) if x.kind in usable.INCOMPLETE_KINDS]


def test_fire_model_fires_it_once() -> None:
    """Turn 1 carries the launcher's volley, turn 2 does not (exact: 22/3 less), one round
    of ammunition less after turn 1; Monte Carlo within 4 SE of the exact chain."""
    mech = _mech()
    p = {"unit": fire_unit(mech), "range": 3, "turns": 3}
    frame = engine.simulate(MODEL, [p], trials=20_000, seed=3, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=["expected_damage", "expected_ammo_left"])
    frame = frame.sort_values("turn")               # one row per turn
    dmg = frame["expected_damage_exact"].to_numpy()
    left = frame["expected_ammo_left_exact"].to_numpy()
    assert abs(dmg[0] - dmg[1] - float(SRM6_VOLLEY)) < 1e-9
    assert abs(dmg[1] - dmg[2]) < 1e-9          # the other weapons fire alike each turn
    assert left.tolist() == [9.0, 8.0, 7.0]     # 10 AC/20 rounds + 1 one-shot round


def test_duel_fires_it_once_on_every_door() -> None:
    """A 'Mech whose one weapon is the launcher, three turns at 3 hexes: damage in turn 1
    only (the NumPy kernel and the compiled engine, per turn), its mean within 4 SE of
    22/3; the scalar oracle's weapon damage over the three turns is at most one volley
    (12) and its mean within 4 SE of 22/3."""
    p = {"unit_a": _only_launcher(), "unit_b": "Wolverine WVR-6R", "range": 3, "turns": 3,
         "tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}
    scn = build(p)
    assert supported(scn)[0]
    n = 4000
    want = float(SRM6_VOLLEY)
    for out in (kernel.run_block(scn, None, np.random.default_rng(1), n),
                sampler.run(scn, np.random.default_rng(2), n)):
        d = out["dealt"][0]
        assert (d[1:] == 0).all() and d[0].max() <= 12
        assert abs(d[0].mean() - want) <= 4 * d[0].std() / np.sqrt(n), d[0].mean()
    o = scalar(p, np.random.default_rng(3), 600)["weapon_damage"][0]
    assert o.max() <= 12
    assert abs(o.mean() - want) <= 4 * o.std() / np.sqrt(o.size), o.mean()
