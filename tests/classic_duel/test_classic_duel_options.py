"""The duel's rule options (:mod:`sim.classic.duel.rules`): C1, C2, C7, C12, C14, C21, C22 and
the consciousness rolls. Each test puts one side in a chosen state, runs the phase the option
acts in under both readings and checks the documented difference (exactly where the phase is
deterministic, against the exact dice probability otherwise)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR, only_weapon, unarmed

from sim import options
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.duel import kernel
from sim.classic.duel.rules import OUT_REASONS, ClassicDuelRules, duel_rules
from sim.classic.duel.scenario import build as _build
from sim.errors import ConfigError

N = 64

#: these tests check the duel with imposed movement (issue 22: the default tactic became
#: competent at a fixed range): both sides pinned to stand-and-fire unless a test says
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def build(params: dict):  # noqa: ANN201 - the scenario builder, stand-and-fire pinned
    return _build({**SAF, **params})


def _side(rules: dict[str, Any], unit: Any = None, n: int = N
          ) -> tuple[Any, kernel._Compiled, kernel._State]:
    """Side A of an HBK (unarmed unless ``unit``) duel under ``rules``: scenario, compiled
    side and a fresh state of ``n`` rows."""
    scn = build({"unit_a": unit if unit is not None else unarmed(HBK), "unit_b": WVR,
                 "range": 6, **rules})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    ng = len(next(iter(scn.a.fire.values())).guns)
    return scn, c, kernel._State.fresh(scn.a, n, ng)


def _heat(scn: Any, c: kernel._Compiled, x: kernel._State, build_: int = 0, seed: int = 0
          ) -> None:
    fs = next(iter(scn.a.fire.values()))
    n = len(x.S)
    kernel._heat_phase(np.random.default_rng(seed), scn.a, c, fs, x, np.full(n, build_),
                       np.ones(n, bool), kernel.SampleChooser(np.random.default_rng(seed)))


def _diss(scn: Any) -> int:
    return int(next(iter(scn.a.fire.values())).dissipation)


def test_group_is_registered_validated_and_recorded() -> None:
    names = options.model_names("classic-duel")
    for name in ("life_support_heat", "restart_phase", "ac_first_crit", "unconscious_restart",
                 "stand_heat", "out_of_fight", "engine_heat_while_shutdown",
                 "consciousness_rolls"):
        assert name in names
        assert name in options.names("classic")
    listed = {o.name: o for o in options.options("classic")}
    assert listed["out_of_fight"].ref == "C21" and listed["life_support_heat"].ref == "C1"
    assert listed["consciousness_rolls"].default == "each_point"
    with pytest.raises(ConfigError, match="out_of_fight.*destroyed"):
        build({"unit_a": HBK, "unit_b": WVR, "out_of_fight": "bored"})
    with pytest.raises(ConfigError, match="life_support_heat"):
        duel_rules(life_support_heat="tw")
    from sim.classic.duel.model import MODEL

    scn = build({"unit_a": HBK, "unit_b": WVR, "stand_heat": "core"})
    ro = MODEL.facts(scn)["rule_options"]
    assert ro["stand_heat"] == "core" and ro["out_of_fight"] == "destroyed"
    assert "stand_heat=core" in MODEL.params(scn)["rule_overrides"]
    meta = options.rule_sets(MODEL, [{"unit_a": HBK, "unit_b": WVR, "stand_heat": "core"}])
    duel_set = [s for s in meta["sets"] if s["group"] == "ClassicDuelRules"]
    assert duel_set and duel_set[0]["overrides"] == {"stand_heat": "core"}


def test_cli_bad_option_value_exits_2_with_one_line() -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "classic-duel", HBK, WVR, "--rule",
                        "restart_phase=never", "--trials", "10"], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "restart_phase" in lines[0] and "heat" in lines[0]


@pytest.mark.parametrize(("reading", "table"), [
    ("megamek", {9: 0, 10: 0, 14: 0, 15: 1, 20: 1, 24: 1, 25: 2, 26: 2, 30: 2}),
    ("makamek", {9: 0, 10: 0, 14: 0, 15: 1, 20: 1, 24: 1, 25: 1, 26: 2, 30: 2}),
    ("core", {9: 0, 10: 1, 14: 1, 15: 1, 19: 1, 20: 2, 25: 2, 30: 2}),
])
def test_c1_life_support_table(reading: str, table: dict[int, int]) -> None:
    r = duel_rules(life_support_heat=reading)
    heats = np.array(list(table))
    assert r.life_support_damage(heats).tolist() == list(table.values())


@pytest.mark.parametrize(("reading", "heat", "pilot"), [
    ("megamek", 25, 2), ("makamek", 25, 1), ("core", 25, 2),
    ("megamek", 12, 0), ("core", 12, 1), ("megamek", 20, 1), ("core", 20, 2)])
def test_c1_heat_phase_pilot_damage(reading: str, heat: int, pilot: int) -> None:
    """A shut-down, prone, unarmed (no ammunition) HBK with a destroyed life-support slot
    ends the heat phase at ``heat``: the pilot takes the reading's damage, nothing else."""
    scn, c, x = _side({"life_support_heat": reading})
    x.S[:, st.LIFE] = 1
    x.shut[:] = x.prone[:] = True
    x.heat[:] = heat + _diss(scn)
    _heat(scn, c, x)
    assert (x.heat == heat).all()
    assert (x.S[:, st.PILOT] == pilot).all()


def test_c22_engine_heat_while_shut_down() -> None:
    for on, expect in ((False, 20), (True, 25)):
        scn, c, x = _side({"engine_heat_while_shutdown": on})
        x.S[:, st.ENGINE] = 1
        x.shut[:] = x.prone[:] = True
        x.heat[:] = 20 + _diss(scn)
        _heat(scn, c, x)
        assert (x.heat == expect).all(), (on, x.heat[:3])


def test_c2_restart_in_heat_or_end_phase() -> None:
    """Below 14 a shut-down 'Mech restarts: in the heat phase (heat) or only in the end phase
    (end); one that shut down in this heat phase (30+) does not restart in the end phase."""
    for phase in ("heat", "end"):
        scn, c, x = _side({"restart_phase": phase})
        x.shut[:] = x.prone[:] = True
        x.heat[:] = 5 + _diss(scn)
        _heat(scn, c, x)
        assert (x.shut == (phase == "end")).all()
        kernel._end_phase(np.random.default_rng(1), scn.a, c, x, np.ones(N, bool), 0)
        assert not x.shut.any()
        # automatic shutdown at 30+: shut now, no restart in this turn's end phase
        x.heat[:] = 32 + _diss(scn)
        _heat(scn, c, x)
        assert x.shut.all() and x.shut_now.all()
        kernel._end_phase(np.random.default_rng(1), scn.a, c, x, np.ones(N, bool), 0)
        assert x.shut.all()


def test_c12_unconscious_pilot_restart() -> None:
    for reading, shut_after in (("megamek", False), ("never", True)):
        scn, c, x = _side({"unconscious_restart": reading})
        x.shut[:] = x.prone[:] = x.uncon[:] = True
        x.heat[:] = 10 + _diss(scn)
        _heat(scn, c, x)
        assert (x.shut == shut_after).all(), reading
    # above 13 an unconscious pilot never restarts under either reading
    for reading in ("megamek", "never"):
        scn, c, x = _side({"unconscious_restart": reading})
        x.shut[:] = x.prone[:] = x.uncon[:] = True
        x.heat[:] = 14 + _diss(scn)
        _heat(scn, c, x)
        assert x.shut.all()


def test_c14_stand_heat_reaches_the_heat_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """A prone side that tries to stand adds 1 heat (tw) or 0 (core) to its build-up."""
    seen: list[np.ndarray] = []
    real_fresh, real_heat = kernel._State.fresh, kernel._heat_phase

    def fresh(side: Any, n: int, ng: int) -> kernel._State:
        x = real_fresh(side, n, ng)
        x.prone[:] = True
        return x

    def heat(rng: Any, side: Any, c: Any, fs: Any, x: Any, build_: np.ndarray, *a: Any
             ) -> None:
        seen.append(build_.copy())
        real_heat(rng, side, c, fs, x, build_, *a)

    monkeypatch.setattr(kernel._State, "fresh", staticmethod(fresh))
    monkeypatch.setattr(kernel, "_heat_phase", heat)
    for reading, h in (("tw", 1), ("core", 0)):
        seen.clear()
        scn = build({"unit_a": unarmed(HBK), "unit_b": unarmed(HBK), "range": 6,
                     "stand_heat": reading, "turns": 1})
        kernel.run_block(scn, None, np.random.default_rng(0), 32)
        assert len(seen) == 2 and all((b == h).all() for b in seen), reading


def test_c7_autocannon_first_critical() -> None:
    """One critical on an AC/20 slot: lost under TW, still available under Core; a second
    critical on another of its slots loses it under both."""
    for reading in ("destroyed", "damaged"):
        scn, c, x = _side({"ac_first_crit": reading}, only_weapon(HBK, "IS AC/20"), n=4)
        it = scn.a.gun_item[0]
        assert it >= 0 and c.second_crit == (reading == "damaged",)
        loc = scn.a.layout.items[it].location
        mask = int(scn.a.layout.item_masks[it, loc])
        bits = [1 << s for s in range(12) if (mask >> s) & 1]
        x.S[1, st.HIT0 + loc] |= bits[0]
        x.S[2:, st.HIT0 + loc] |= bits[0] | bits[1]
        lost = kernel.items_lost(x.S, scn.a.layout, scn.a.gun_item, c.second_crit)[:, 0]
        assert lost.tolist() == [False, reading == "destroyed", True, True]
        no_gun = kernel._no_weapon(scn.a, c, x)
        assert no_gun.tolist() == lost.tolist()
    # a medium laser is not an autocannon: never flagged
    scn, c, _ = _side({"ac_first_crit": "damaged"}, only_weapon(HBK, "IS Medium Laser"))
    assert c.second_crit == (False,)


def test_consciousness_each_point_vs_once_per_turn() -> None:
    """Three points of pilot damage in one phase: each_point rolls at 3, 5 and 7 (stay
    conscious with P(3+)P(5+)P(7+)); once_per_turn rolls once at 7 (P(7+))."""
    p = {k: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= k) / 36
         for k in (3, 5, 7)}
    n = 20000
    for reading, exact in (("each_point", p[3] * p[5] * p[7]), ("once_per_turn", p[7])):
        scn, c, x = _side({"consciousness_rolls": reading}, n=n)
        x.S[:, st.PILOT] = 3
        kernel._consciousness(np.random.default_rng(4), x, reading == "each_point")
        got = 1 - x.uncon.mean()
        se = np.sqrt(exact * (1 - exact) / n)
        assert abs(got - exact) < 4 * se, (reading, got, exact)
        assert (x.pilot_seen == 3).all()


def test_consciousness_rolls_at_the_end_of_each_phase() -> None:
    """each_point: the heat phase's life-support damage is rolled for in the heat phase;
    once_per_turn: not before the end phase."""
    for reading, rolled in (("each_point", True), ("once_per_turn", False)):
        scn, c, x = _side({"consciousness_rolls": reading})
        x.S[:, st.LIFE] = 1
        x.shut[:] = x.prone[:] = True
        x.heat[:] = 25 + _diss(scn)
        _heat(scn, c, x)
        assert (x.pilot_seen == 2).all() == rolled


@pytest.mark.parametrize("reading", OUT_REASONS[1:])
def test_c21_out_of_fight_states(reading: str) -> None:
    code = OUT_REASONS.index(reading)
    scn, c, x = _side({"out_of_fight": reading}, only_weapon(HBK, "IS Medium Laser"), n=6)
    S = x.S
    x.uncon[0] = True                                   # unconscious
    S[1, st.IS0 + lay.LL] = S[1, st.IS0 + lay.RL] = 0   # immobile, laser still works
    S[2, st.GYRO] = 2                                    # immobile and no weapon
    S[2, st.SENSORS] = 2
    S[3, st.PILOT] = 4                                   # crippled: pilot damage
    S[4, st.GYRO], S[4, st.ENGINE] = 1, 1                # crippled: gyro + engine
    S[5, st.CAUSE] = st.C_CT                             # destroyed: never "out"
    got = kernel.out_of_fight(scn.a, c, x)
    want = {"unconscious": [1, 0, 0, 0, 0, 0], "immobile_unarmed": [0, 0, 1, 0, 0, 0],
            "crippled": [0, 0, 1, 1, 1, 0]}[reading]
    assert got.tolist() == [code * w for w in want]
    # the default: nobody is out
    scn, c, x2 = _side({}, only_weapon(HBK, "IS Medium Laser"), n=6)
    x2.S[:], x2.uncon[:] = S, x.uncon
    assert not kernel.out_of_fight(scn.a, c, x2).any()
    assert ClassicDuelRules().out_code == 0


def _mean(agg: Any, name: str) -> float:
    c, total, _ = agg.stats[name][0]
    return float(total / c)


def test_c21_changes_who_wins() -> None:
    """HBK vs WVR at 6 hexes for 10 turns: 'crippled' ends duels sooner, a side that is out
    loses (not destroyed, its duel over that turn), and nobody is out under the default."""
    base = {"unit_a": HBK, "unit_b": WVR, "range": 6, "turns": 10}
    res, aggs = {}, {}
    for reading in ("destroyed", "crippled"):
        scn = build({**base, "out_of_fight": reading})
        res[reading] = kernel.run_block(scn, None, np.random.default_rng(9), 600)
        aggs[reading] = kernel.summarize(scn, res[reading])
    d, cr = aggs["destroyed"], aggs["crippled"]
    assert (res["destroyed"]["out"] == 0).all()
    assert _mean(d, "p_a_out_by_crippled") == _mean(d, "p_b_out_by_crippled") == 0
    assert _mean(cr, "p_a_out_by_crippled") > 0.03 and _mean(cr, "p_b_out_by_crippled") > 0.03
    assert _mean(cr, "p_a_out_by_unconscious") == 0
    o = res["crippled"]
    m = o["out"][0] == OUT_REASONS.index("crippled")
    assert (o["cause"][0][m] == st.C_NONE).all() and (o["dead_turn"][0][m] > 0).all()
    assert _mean(cr, "p_timeout") < _mean(d, "p_timeout")
    assert _mean(cr, "expected_turns") < _mean(d, "expected_turns") - 0.25
    total = sum(_mean(cr, k) for k in ("p_win_a", "p_win_b", "p_draw", "p_timeout"))
    assert abs(total - 1) < 1e-9


def test_the_firing_policy_plans_with_the_sides_own_piloting() -> None:
    """C3 TacOps shutdown rolls on Piloting: the fire scenarios the policies plan with carry
    each side's own Piloting (the kernel's shutdown roll already does)."""
    from sim.classic.duel.scenario import build
    scn = build({"unit_a": "Hunchback HBK-4G", "unit_b": "Wolverine WVR-6R", "range": 6,
                 "piloting_a": 2, "piloting_b": 7, "tacops_shutdown": True,
                 "policy_a": "max-expected"})
    assert {fs.rules.piloting for fs in scn.a.fire.values()} == {2}
    assert {fs.rules.piloting for fs in scn.b.fire.values()} == {7}
