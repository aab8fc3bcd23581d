"""Quads and the heavy-duty gyro in the Classic duel (issue 19): the rules' worked examples
(:mod:`sim.classic.quad`, :mod:`sim.classic.equipment_rules`), what the compiled engine
reads, the refusals, and the engine against the scalar oracle by distribution."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR
from test_classic_duel_oracle import T, _compare, _sampled

from sim.classic import equipment_rules as ER
from sim.classic import quad as Q
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.errors import ConfigError, UserError
from sim.units.catalog import get_classic
from sim.units.mtf import read_mtf
from sim.units.usable import not_simulated

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "units" / "corpus"
#: both sides stand and fire (the duel before issue 22's tactics; policy all)
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}
QUADS = ("Scorpion SCP-1N", "Goliath GOL-1H", "Bishamon BSN-3K", "Fire Scorpion")


def _quad(name: str):
    path = CORPUS / f"{name}.mtf"
    if not path.is_file():
        pytest.skip(f"{path} not here")
    return read_mtf(path)


def _unarmed(m):
    return replace(m, weapon_mounts=(), weapons=(), ammo_bins=())


def test_quad_walking_mp_worked_examples() -> None:
    """QuadMek.getWalkMP: legs first (one -1, two 1, three 0), then hips halve (rounded up by
    default) and the other leg actuators cost 1 each."""
    assert [Q.walk_mp(4, g, 0, 0) for g in range(5)] == [4, 3, 1, 0, 0]
    assert Q.walk_mp(5, 0, 1, 0) == 3 and Q.walk_mp(5, 0, 1, 0, hip_ceil=False) == 2
    assert Q.walk_mp(5, 0, 2, 0) == 2 and Q.walk_mp(6, 0, 4, 0) == 1
    assert Q.walk_mp(5, 0, 0, 3) == 2 and Q.walk_mp(5, 1, 1, 1) == 1
    assert Q.walk_mp(4, 3, 1, 1) == 0
    assert (Q.run_mp(4, 0), Q.run_mp(3, 1), Q.run_mp(1, 2)) == (6, 5, 1)


def test_quad_psr_and_standing_worked_examples() -> None:
    """-2 on four legs (reference.md 4.2), +5 once for two gone, automatic failure for
    three; stand without a roll on four legs, never on one."""
    assert [Q.legs_psr(g) for g in range(5)] == [-2, 0, 5, 13, 13]
    assert [Q.stand(g) for g in range(4)] == ["free", "roll", "roll", "never"]


def test_heavy_duty_gyro_worked_examples() -> None:
    assert [ER.gyro_psr_mod("Heavy Duty Gyro", h) for h in range(4)] == [0, 1, 3, None]
    assert [ER.gyro_psr_mod("Standard Gyro", h) for h in range(3)] == [0, 3, None]
    assert ER.gyro_quiet_hits("Heavy Duty Gyro") == 1 and ER.gyro_quiet_hits("") == 0
    assert [C.gyro_psr("Heavy Duty Gyro", h) for h in range(5)] == [0, 1, 3, 6, 6]
    assert [C.gyro_psr("Standard", h) for h in range(4)] == [0, 3, 6, 6]


def test_compiled_quad_and_gyro_facts() -> None:
    """A quad compiles with four legs, no punch, its own punch / kick tables as a target;
    a heavy-duty gyro with its own destruction and PSR values."""
    hd = replace(get_classic(HBK), gyro="Heavy Duty Gyro")
    scn = build({"unit_a": _quad("Goliath GOL-1H"), "unit_b": hd, "range": 1})
    a, b = (C._unit(s, o, scn, C.situations(scn)[0], i, 0, 0)
            for i, (s, o) in enumerate(((scn.a, scn.b), (scn.b, scn.a))))
    assert a["UP"][C.P_QUAD] == 1 and a["UP"][C.P_NOPUNCH] == 1 and b["UP"][C.P_QUAD] == 0
    assert (a["UP"][C.P_GYRO_DEAD], b["UP"][C.P_GYRO_DEAD]) == (2, 3)
    assert (a["UP"][C.P_GYRO_QUIET], b["UP"][C.P_GYRO_QUIET]) == (0, 1)
    assert list(b["GYRO_PSR"][:4]) == [0, 1, 3, 6]
    g = C.global_tables(scn)
    lay_ = scn.a.layout
    assert [lay_.loc_names[x] for x in g["KICK_FRONT"][1][1:]] == ["FLL"] * 3 + ["FRL"] * 3
    assert list(g["PUNCH_FRONT"][0]) == list(g["PUNCH_FRONT"][1])   # LA LT CT RT RA HD
    assert list(g["LEG_PSR"][3:6]) == [Q.ALL_LEGS_PSR, Q.TWO_LEGS_GONE_PSR,
                                       Q.LEGS_GONE_FAIL_PSR]


def test_quads_refuse_the_numpy_kernel_and_callable_policies() -> None:
    q = _quad("Scorpion SCP-1N")
    with pytest.raises(ConfigError, match="policy_a.*NumPy duel kernel"):
        build({"unit_a": q, "unit_b": HBK, "policy_a": lambda *a: 0})
    from sim.classic.duel import kernel

    with pytest.raises(UserError, match="compiled Classic engine only"):
        kernel.run_block(build({"unit_a": HBK, "unit_b": q, **SAF}), None,
                         np.random.default_rng(0), 10)


def test_corpus_quads_and_the_deva_are_complete() -> None:
    for name in (*QUADS, "Deva C-DVA-O Invictus", "Emperor EMP-7L"):
        items = [i for i in not_simulated(_quad(name)) if i.kind != "quirk"]
        assert items == [], (name, items)


def _falls(params: dict, n_oracle: int, n_engine: int, numpy_kernel: bool = False
           ) -> tuple[np.ndarray, np.ndarray]:
    """The share of duels each side fell in, oracle and engine, asserted equal within 4.5
    standard errors of their difference; returns both."""
    from sim.oracles.classic_duel import scalar

    p = {**params, "turns": T}
    o = scalar(p, np.random.default_rng(21), n_oracle)["fell"].mean(axis=1)
    scn, rng = build(p), np.random.default_rng(22)
    if numpy_kernel:
        from sim.classic.duel import kernel

        k = kernel.run_block(scn, None, rng, n_engine)["fell"].mean(axis=1)
    else:
        k = _sampled(scn, rng, n_engine)["fell"].mean(axis=1)
    q = (o * n_oracle + k * n_engine) / (n_oracle + n_engine)
    se = np.sqrt(q * (1 - q) * (1 / n_oracle + 1 / n_engine))
    assert np.all(np.abs(o - k) <= 4.5 * se + 1e-12), (o, k)
    return o, k


def test_engine_matches_oracle_quad_weapons_at_range() -> None:
    _compare({"unit_a": _quad("Goliath GOL-1H"), "unit_b": WVR, "range": 5,
              "moved_a": "walk"}, 1200, 12000)


def test_engine_matches_oracle_quad_kicks_and_falls() -> None:
    """Unarmed at range 1: a quad's front-leg kicks and a biped's, the quad's -2 PSR, its
    leg losses (MP, PSRs, free standing) and its own kick table as a target."""
    p = {"unit_a": _unarmed(_quad("Goliath GOL-1H")), "unit_b": _unarmed(get_classic(WVR)),
         "range": 1, "out_of_fight": "immobile_unarmed"}
    _compare(p, 1200, 12000)
    _falls(p, 1500, 15000)


def test_engine_matches_oracle_quad_brawl() -> None:
    p = {"unit_a": _quad("Scorpion SCP-1N"), "unit_b": _quad("Goliath GOL-1H"),
         "range": 1, "moved_a": "walk", "moved_b": "walk"}
    _compare(p, 1200, 12000)
    _falls(p, 1200, 12000)


def test_engine_matches_oracle_heavy_duty_gyro() -> None:
    hd = replace(get_classic(HBK), gyro="Heavy Duty Gyro")
    p = {"unit_a": hd, "unit_b": WVR, "range": 1, "moved_a": "walk",
         "out_of_fight": "immobile_unarmed"}
    _compare(p, 1200, 12000)
    o, _ = _falls(p, 1000, 10000)
    std, _ = _falls({**p, "unit_a": HBK}, 1000, 10000)
    assert o[0] < std[0]        # the heavy-duty gyro keeps it up more often


def test_compiled_stealth_armor_facts() -> None:
    """Stealth armor (MegaMek ``Mek.getStealthModifier``): +1 at medium, +2 at long range
    on each enemy gun; on where it hampers one, with its ECM suite."""
    emp = _quad("Emperor EMP-7L")
    scn = build({"unit_a": get_classic(WVR), "unit_b": emp, "range": 7, **SAF})
    keys = C.situations(scn)[0]      # stand and fire: the one situation, 7 hexes
    mods = C.stealth_mods(scn.a, scn.b, keys)
    guns = next(iter(scn.a.fire.values())).guns
    by = {g.weapon.key: int(mods[0, i]) for i, g in enumerate(guns)}
    assert by["IS SRM 6"] == 2 and by["IS Medium Laser"] == 2 and by["IS AC/5"] == 1
    b = C._unit(scn.b, scn.a, scn, keys, 1, 0, 0)
    assert b["UP"][C.P_ECM_ITEM] >= 0 and b["UP"][C.P_STEALTH_HEAT] == ER.STEALTH_HEAT
    assert list(b["STEALTH_ON"]) == [1]
    assert not C.stealth_mods(scn.b, scn.a, keys).any()     # the Wolverine has none


def test_engine_matches_oracle_stealth_armor() -> None:
    """The Emperor (TSM removed: the oracle does not play it) at 7 hexes: the Wolverine's
    SRM and lasers at long range +2, its AC/5 at medium +1, the Emperor 10 heat a turn
    hotter."""
    emp = replace(_quad("Emperor EMP-7L"), tsm=False)
    p = {"unit_a": emp, "unit_b": WVR, "range": 7}
    _compare(p, 1200, 12000)


def test_plasma_cannon_heats_its_target() -> None:
    """MegaMek ``PlasmaCannonHandler``: 2D6 heat on a 'Mech hit, no damage (at most 15
    external heat a turn); the fire model fires it for its own heat and no damage."""
    wolf = _quad("Night Wolf")
    scn = build({"unit_a": wolf, "unit_b": HBK, "range": 3})
    keys = C.situations(scn)[0]
    guns = next(iter(scn.a.fire.values())).guns
    gi = C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)["GI"]
    dice = {g.weapon.key: int(gi[i, C.G_PLASMA]) for i, g in enumerate(guns)}
    assert dice["Clan Plasma Cannon"] == 2 and dice.get("Clan ER Medium Laser", 0) == 0
    assert C.global_tables(scn)["HEAT_CONST"][9] == ER.EXTERNAL_HEAT_CAP == 15
    assert [i for i in not_simulated(wolf) if i.kind != "quirk"] == []


def test_engine_matches_oracle_plasma_heat() -> None:
    """The Night Wolf with its plasma cannon only, against the hot-running Hunchback: the
    cannon's heat shuts the Hunchback down and slows its kill."""
    wolf = _quad("Night Wolf")
    keep = tuple(w for w in wolf.weapon_mounts if w.weapon == "Clan Plasma Cannon")
    only = replace(wolf, weapon_mounts=keep, weapons=tuple((w.name, w.location) for w in keep))
    _compare({"unit_a": only, "unit_b": HBK, "range": 3}, 1500, 15000)


def test_compiled_narc_facts() -> None:
    """The Raven's Narc launcher marks a target; its SRM 6 fed Narc-capable rounds gets +2
    on the cluster roll against a marked target (reference-classic-combat.md 11)."""
    raven = _quad("Raven RVN-3L")
    scn = build({"unit_a": raven, "unit_b": HBK, "range": 3})
    keys = C.situations(scn)[0]
    guns = next(iter(scn.a.fire.values())).guns
    gi = C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)["GI"]
    by = {g.weapon.key: (int(gi[i, C.G_NARC]), int(gi[i, C.G_NARC_BONUS]))
          for i, g in enumerate(guns)}
    assert by["IS Narc"] == (1, 0) and by["IS SRM 6"] == (0, ER.NARC_BONUS)
    assert by["IS Medium Laser"] == (0, 0)
    assert [i for i in not_simulated(raven) if i.kind != "quirk"] == []


def _dealt(params: dict, n_oracle: int, n_engine: int) -> float:
    """Mean damage side A deals over the duel (weapons and physical attacks: the engine's
    ``dealt``, the oracle's ``damage``), oracle and engine within 4.5 standard errors of
    their difference; returns the engine's."""
    from sim.oracles.classic_duel import scalar

    p = {**params, "turns": T}
    o = scalar(p, np.random.default_rng(31), n_oracle)["damage"][0].astype(float)
    k = _sampled(build(p), np.random.default_rng(32), n_engine)["dealt"][0].sum(axis=0)
    se = np.sqrt(o.var() / n_oracle + k.var() / n_engine)
    assert abs(o.mean() - k.mean()) <= 4.5 * se, (o.mean(), k.mean(), se)
    return float(k.mean())


def test_engine_matches_oracle_narc() -> None:
    """The Raven's beacon, then its SRM 6 at +2: against a Hunchback at 3 hexes, and with
    only its launcher and SRM against an unarmed one (the damage it deals in the duel,
    standing and firing all: competent's max-expected firing never fires the launcher,
    which deals no damage)."""
    raven = _quad("Raven RVN-3L")
    _compare({"unit_a": raven, "unit_b": HBK, "range": 3}, 1200, 12000)
    keep = tuple(w for w in raven.weapon_mounts if w.weapon in ("IS Narc", "IS SRM 6"))
    pair = replace(raven, weapon_mounts=keep, weapons=tuple((w.name, w.location) for w in keep))
    p = {"unit_a": pair, "unit_b": _unarmed(get_classic(HBK)), "range": 3, **SAF}
    with_narc = _dealt(p, 1500, 15000)
    srm = tuple(w for w in keep if w.weapon == "IS SRM 6")
    alone = replace(raven, weapon_mounts=srm, weapons=tuple((w.name, w.location) for w in srm))
    assert with_narc > _dealt({**p, "unit_a": alone}, 1500, 15000)


def test_numpy_kernel_reads_the_heavy_duty_gyro() -> None:
    """The NumPy duel kernel (the fallback) and the compiled engine read the same per-unit
    gyro values: +1 / +3 / +6 by hits for a heavy-duty gyro, +3 / +6 for a standard one;
    and the kernel against the oracle by distribution."""
    from sim.classic.damage_state import state as st
    from sim.classic.duel import kernel
    from sim.classic.engine import layout as L
    from sim.classic.engine.arrays import v2
    from sim.classic.engine.psr import pre_psr

    hd = replace(get_classic(HBK), gyro="Heavy Duty Gyro")
    scn = build({"unit_a": hd, "unit_b": HBK, "range": 1})
    comp = C.compile_scenario(scn)
    S0 = v2(comp.M, L.M_S0)
    for u, side, want in ((0, scn.a, [0, 1, 3, 6]), (1, scn.b, [0, 3, 6, 6])):
        S = np.repeat(st.fresh(side.layout, 1), 4, axis=0)
        S[:, st.GYRO] = np.arange(4)
        assert list(kernel.pre_psr(side, S)) == want
        got = []
        for h in range(4):
            row = S0[u].copy()
            row[st.GYRO] = h
            got.append(int(pre_psr(row, comp.M, u)))
        assert got == want
    _compare({"unit_a": hd, "unit_b": WVR, "range": 1, "moved_a": "walk",
              "out_of_fight": "immobile_unarmed"}, 1200, 12000, numpy_kernel=True)
