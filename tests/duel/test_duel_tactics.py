"""Alpha Strike duel tactics (issue 22): initiative, movement reach, the first mover's maximin
and the second mover's best reply on hand-worked tables, exact chain vs Monte Carlo vs the
scalar oracle under tactics, the recorded tactics, and the tactic matrix."""

from __future__ import annotations

import numpy as np
import pytest
from duel_helpers import card, exact

from sim import engine
from sim.alphastrike.duel import tactics as TT
from sim.alphastrike.duel.model import MODEL
from sim.alphastrike.duel.turn import initial_state
from sim.errors import ConfigError


def _view(value_by_band: list[float], d: int, reach: int, opp_reach: int,
          opp_mode: int | None = None) -> TT.View:
    """One decision key: the payoff depends on the band only; every mode but still reaches
    ``reach``."""
    v = np.broadcast_to(np.array(value_by_band, dtype=float), (1, 3, 3, 4)).copy()
    r = np.array([[reach, 0, reach]])
    o = np.array([[opp_reach, 0, opp_reach]])
    zero = np.zeros((1, 3, 3, 4))
    return TT.View(d=np.array([d]), first=opp_mode is None, reach=r, opp_reach=o, value=v,
                   dealt=zero, taken=zero, opp_mode=None if opp_mode is None
                   else np.array([opp_mode]), moved=0, fixed=False, dmax=60)


def test_first_mover_maximin_hand_worked() -> None:
    # Short +2, Medium -1, Long +1. From 24" with a 10" move the first mover reaches 14-34";
    # the second mover reaches 4" either way. Every d1 <= 28 lets it reply into Medium (-1);
    # d1 in 29..34 leaves it only Long (+1). Ties: nearest its fixed-band pick (Short: +2),
    # so 29", on the ground (first among equal modes).
    mode, d1 = TT.competent(_view([2, -1, 1, 0], d=24, reach=10, opp_reach=4))
    assert (int(mode[0]), int(d1[0])) == (TT.GROUND, 29)
    # a naive "best band reachable" mover would go to 14" (Medium reachable... or 24"): the
    # maximin value of 29" is +1 while every distance of 14-28" is worth -1
    # the second mover (payoff -V) from 29" with 4": only Long (25-33"); its own fixed-band
    # pick is Medium (+1 for it), so it ends nearest Medium: 25"
    mode2, d2 = TT.competent(_view([-2, 1, -1, 0], d=29, reach=4, opp_reach=10,
                                   opp_mode=TT.GROUND))
    assert (int(mode2[0]), int(d2[0])) == (TT.GROUND, 25)


def test_second_mover_best_reply_hand_worked() -> None:
    # from 10" with 6": bands Short (4-6") and Medium (7-16") reachable; Medium is best
    mode, d = TT.competent(_view([-1, 3, 0, 0], d=10, reach=6, opp_reach=6, opp_mode=0))
    assert int(d[0]) == 10 and int(mode[0]) == TT.GROUND   # already in Medium: no move
    mode, d = TT.competent(_view([5, 3, 0, 0], d=10, reach=6, opp_reach=6, opp_mode=0))
    assert int(d[0]) == 6                                  # Short, the shortest move there
    # the payoff can depend on the mode: standing still is best -> it does not move
    v = _view([1, 1, 1, 0], d=10, reach=6, opp_reach=6, opp_mode=0)
    v.value[0, TT.STILL] += 0.5
    mode, d = TT.competent(v)
    assert (int(mode[0]), int(d[0])) == (TT.STILL, 10)


@pytest.mark.parametrize("d", [3, 36])
def test_a_move_reaches_every_distance_within_its_move(d: int) -> None:
    """A move of h inches reaches every distance of [d - h, d + h] within [1, start]."""
    unit = card("Mover", armor=5, structure=5, damage=(1, 1, 1, 0), move=8, tmm=1)
    foe = card("Foe", armor=5, structure=5, damage=(1, 1, 1, 0), move=4, tmm=0)
    got = set()
    for target in sorted({-1, 0, 1, 39, 40, 41, 45, *range(d - 9, d + 10)}):
        def go(v: TT.View, target: int = target) -> tuple[np.ndarray, np.ndarray]:
            return np.full(v.d.shape, TT.GROUND), np.full(v.d.shape, target)

        scn = MODEL.scenario(dict(a=unit, b=foe, tactic_a=go, tactic_b="stand-and-fire",
                                  start_distance=40, turns=1))
        sa, sb = initial_state(scn.a.units[0], 1), initial_state(scn.b.units[0], 1)
        ch = TT.decisions(scn, np.array([d], dtype=np.int16), np.array([True]), sa, sb)
        got.add(int(ch["dist"][0]))
    assert got == set(range(max(d - 8, 1), min(d + 8, 40) + 1))


def test_initiative_order() -> None:
    rng = np.random.default_rng(4)
    first = TT.a_moves_first(rng, 20000, "roll")
    assert abs(first.mean() - 0.5) < 4 * np.sqrt(0.25 / 20000)
    # the dice themselves (2D6 a side, ties re-rolled) give the same fair coin
    assert abs(TT.roll_off(rng, 20000).mean() - 0.5) < 4 * np.sqrt(0.25 / 20000)
    assert not TT.a_moves_first(rng, 10, "a").any() and TT.a_moves_first(rng, 10, "b").all()
    assert TT.p_a_moves_first("roll") == 0.5
    # one turn: the rolled initiative is the even mixture of "A always wins" and "B always wins"
    # (the winner reacts: here the Commando, faster, picks the band when it moves last)
    base = dict(a="Commando COM-1B", b="Locust LCT-1V", start_distance=10, turns=1,
                crits=False, tactic_a="competent", tactic_b="competent")
    ex = {r: exact(**base, initiative=r) for r in ("roll", "a", "b")}
    for m in ("expected_damage_a", "expected_damage_b", "p_b_destroyed_at"):
        assert ex["roll"][m][0] == pytest.approx(0.5 * (ex["a"][m][0] + ex["b"][m][0]),
                                                 abs=1e-12)
    assert ex["a"]["expected_damage_a"][0] != pytest.approx(ex["b"]["expected_damage_a"][0])


CASES = [
    dict(a="Atlas AS7-D", b="Loki (Hellbringer) Prime", range="medium"),
    dict(a="Commando COM-1B", b="Griffin GRF-2N", tactic_a="kite", tactic_b="sniper",
         crits=False),
    dict(a="Catapult CPLT-C1", b="Locust LCT-1V", tactic_a="charge", tactic_b="brawler",
         start_distance=20, initiative="b"),
    dict(a="Catapult CPLT-C1", b="Locust LCT-1V", closing="close", tactic_a="competent",
         tactic_b="competent", crits=False),
]


@pytest.mark.parametrize("params", CASES, ids=lambda p: f"{p['a']}-{p['b']}"[:30])
def test_monte_carlo_within_4_se_of_exact(params: dict) -> None:
    n = 3000
    frame = engine.simulate(MODEL, [params], trials=n, seed=11, progress=False)
    r = frame.iloc[0]
    assert r["tactic_a"] == params.get("tactic_a", "competent")
    for m in ("p_win_a", "p_win_b", "expected_turns"):
        ex = r[m + "_exact"]
        se = max(r[m + "_se"], np.sqrt(max(ex * (1 - ex), 1e-4) / n) if m != "expected_turns"
                 else 1e-3)
        assert abs(r[m] - ex) <= 4 * se, (m, r[m], ex, se)


@pytest.mark.parametrize("params", [
    dict(a="Atlas AS7-D", b="Loki (Hellbringer) Prime", range="medium"),    # ties re-rolled
    dict(a="Loki (Hellbringer) Prime", b="Atlas AS7-D", range="short",
         initiative="a"),                                                   # no ties
], ids=["roll", "a-wins"])
def test_kernel_against_scalar_oracle_competent(params: dict) -> None:
    from sim.oracles.duel import scalar

    n_or, n_k = 250, 5000
    orc = scalar(params, np.random.default_rng(7), n_or)
    frame = engine.simulate(MODEL, [params], trials=n_k, seed=7, progress=False,
                            with_exact=False)
    for key, m in (("win_a", "p_win_a"), ("win_b", "p_win_b"), ("timeout", "p_timeout")):
        p_mc, p_or = frame[m].iloc[0], orc[key] / n_or
        p = 0.5 * (p_mc + p_or)
        se = np.sqrt(max(p * (1 - p), 1e-4) * (1 / n_or + 1 / n_k))
        assert abs(p_mc - p_or) <= 4 * se, (m, p_mc, p_or)


def test_defaults_and_recorded_tactics() -> None:
    scn = MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V"))
    assert scn.tactical and scn.free and scn.start_distance == 40
    p = MODEL.params(scn)
    assert (p["tactic_a"], p["tactic_b"], p["range"]) == ("competent", "competent", "free")
    assert p["moved_a"] == "tactic" and p["policy_b"] == "tactic"
    assert any("initiative is rolled" in n for n in scn.notes())
    # both stand-and-fire, no range: the old default (Short, fixed stance, no initiative)
    old = MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V", tactic_a="stand-and-fire",
                              tactic_b="stand-and-fire"))
    assert not old.tactical and old.range_label == "short"
    # a fixed stance or policy asks for the fixed duel
    assert not MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V", policy_b="max")).tactical
    with pytest.raises(ConfigError, match="policy_a"):
        MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V", tactic_a="competent",
                            policy_a="max"))
    with pytest.raises(ConfigError, match="tactic_a"):
        MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V", tactic_a="lurker"))
    # a force fight defaults to stand-and-fire; with a tactic and no range it plays at Short
    force = MODEL.scenario(dict(a="Atlas AS7-D,Locust LCT-1V", b="Locust LCT-1V"))
    assert not force.tactical
    force = MODEL.scenario(dict(a="Atlas AS7-D,Locust LCT-1V", b="Locust LCT-1V",
                                tactic_b="competent"))
    assert force.tactical and not force.free and force.range_label == "short"
    # under a closing policy a tactic fires (the policy moves); the default stays
    # stand-and-fire there
    scn = MODEL.scenario(dict(a="Atlas AS7-D", b="Locust LCT-1V", closing="close",
                              tactic_b="competent"))
    assert scn.tactical and not scn.free
    assert [t.name for t in scn.tactics] == ["stand-and-fire", "competent"]


def test_stand_and_fire_is_the_old_duel_bit_for_bit() -> None:
    """stand-and-fire draws no initiative and reads the fixed stance: the same numbers as a
    fixed duel (policy given, so both default to stand-and-fire)."""
    p = dict(a="Locust LCT-1V", b="Commando COM-1B", range="short", trials=2000, seed=3)
    f1 = engine.simulate(MODEL, [{**{k: v for k, v in p.items() if k not in ("trials", "seed")},
                                  "policy_a": "never"}], trials=2000, seed=3, progress=False,
                         with_exact=False)
    f2 = engine.simulate(MODEL, [dict(a="Locust LCT-1V", b="Commando COM-1B", range="short",
                                      tactic_a="stand-and-fire", tactic_b="stand-and-fire")],
                         trials=2000, seed=3, progress=False, with_exact=False)
    assert (f1["p_end"].to_numpy() == f2["p_end"].to_numpy()).all()


def test_competent_is_no_worse_than_the_other_tactics_against_competent() -> None:
    """A small exact version of the issue's check: competent A against competent B scores at
    least what every other named tactic scores against competent B."""
    from sim.alphastrike.duel.api import tactic_matrix

    m = tactic_matrix("Locust LCT-1V", "Commando COM-1B", ("competent", "kite", "brawler"),
                      crits=False, turns=8)
    s = m.score
    j = m.cols.index("competent")
    i = m.rows.index("competent")
    assert s[i, j] >= s[:, j].max() - 1e-9
    text = m.to_text()
    assert "maximin" in text and "value of the zero-sum game" in text


def test_cli_tactics_and_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    assert main(["duel", "Locust LCT-1V", "Commando COM-1B", "--tactic-a", "kite",
                 "--tactic-b", "stand-and-fire", "--rule", "crits=false", "--turns", "5"]) == 0
    out = capsys.readouterr().out
    assert "tactics: A kite, B stand-and-fire" in out
    assert main(["duel", "Locust LCT-1V", "Commando COM-1B", "--tactics", "matrix",
                 "--tactic-set", "competent,stand-and-fire", "--rule", "crits=false",
                 "--turns", "5"]) == 0
    out = capsys.readouterr().out
    assert "maximin: A plays" in out and "stand-and-fire" in out


def test_classic_cli_tactics_and_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    """``btsim duel --game classic`` takes the Classic tactics (issue 22): named in the text
    header and the JSON params; a bad name is one line naming the flag's field."""
    import json

    from sim.cli import main

    argv = ["duel", "--game", "classic", "Locust LCT-1V", "Commando COM-2D", "--range", "5",
            "--turns", "2", "--trials", "200"]
    assert main(argv + ["--tactic-a", "kite"]) == 0
    out = capsys.readouterr().out
    assert "tactic kite" in out and "tactic competent" in out
    assert main(argv + ["--tactic-b", "sniper", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)["params"]
    assert (p["tactic_a"], p["tactic_b"], p["movement"]) == ("competent", "sniper", "tactics")
    assert main(argv + ["--tactic-a", "rush"]) == 2
    assert "'tactic_a'" in capsys.readouterr().err
    assert main(argv + ["--tactics", "matrix", "--tactic-set", "competent,charge"]) == 0
    out = capsys.readouterr().out
    assert "maximin: A plays" in out and "charge" in out


@pytest.mark.parametrize("pair,rule", [(("Commando COM-1B", "Griffin GRF-2N"), "roll"),
                                       (("Loki (Hellbringer) Prime", "Catapult CPLT-C1"), "a")])
def test_oracle_decisions_match_the_table_with_lookahead(pair: tuple[str, str], rule: str) -> None:
    """Free movement: the scalar oracle's loops (value-to-go, maximin, best reply, fire) and
    the vectorized decision table agree on every distance and initiative order, fresh and
    hot."""
    from sim.oracles import duel as O

    start = 18
    scn = MODEL.scenario(dict(a=pair[0], b=pair[1], start_distance=start, initiative=rule))
    p_first = TT.p_a_moves_first(rule)
    for heat in ((0, 0), (1, 2)):
        O._PAY_MEMO.clear()
        O._FUT_MEMO.clear()
        sa, sb = initial_state(scn.a.units[0], 1), initial_state(scn.b.units[0], 1)
        sa["heat"][:], sb["heat"][:] = heat
        for d in range(1, start + 1):
            for a_first in (True, False):
                ch = TT.decisions(scn, np.array([d], dtype=np.int16), np.array([a_first]),
                                  sa, sb)
                ua = O._Unit(pair[0], 4, "ground", "never", "clear")
                ub = O._Unit(pair[1], 4, "ground", "never", "clear")
                ua.heat, ub.heat = heat
                dist, band = O._tactic_turn(ua, ub, ("competent", "competent"), None, d, start,
                                            a_first, p_first)
                got = (O.MODES.index(ua.mode), O.MODES.index(ub.mode), dist, ua.req, ub.req)
                want = (int(ch["mode_a"][0]), int(ch["mode_b"][0]), int(ch["dist"][0]),
                        int(ch["req_a"][0]), int(ch["req_b"][0]))
                assert got == want, (heat, d, a_first, got, want)


def test_competent_share_of_pairs_small_sample() -> None:
    """The issue's competence check on a small fixed-seed sample (exact chains, no crits,
    15 turns): competent A scores at least every other named tactic's score against a
    competent B in most pairs. tools/competence.py measures the full figure (the goal is 95%;
    the measured share and its exceptions are in docs/rules.md)."""
    from sim.alphastrike.duel.competence import check_pair, sample_pairs

    rows = [check_pair(a, b, {"crits": False, "turns": 15}) for a, b in sample_pairs(10, 7)]
    assert all(0.0 <= r["competent"] <= 1.0 for r in rows)
    assert sum(r["ok"] for r in rows) >= 7, [(r["a"], r["b"], r["margin"]) for r in rows]


def test_force_units_play_their_tactic_against_their_target() -> None:
    """A force fight with tactics: every unit's mode and OV request are the 1-vs-1 decision
    table's entry against the target its targeting policy picked (spread: unit i fires at
    enemy i), for both initiative orders; the run records the tactics."""
    from sim.alphastrike.duel import kernel as K

    p = dict(a="Catapult CPLT-C1,Locust LCT-1V", b="Commando COM-1B,Griffin GRF-2N",
             range="medium", tactic_a="competent", tactic_b="charge", targeting_a="spread",
             targeting_b="spread")
    scn = MODEL.scenario(p)
    assert scn.tactical and not scn.free and not scn.one_vs_one
    n = 6
    sa = [initial_state(u, n) for u in scn.a.units]
    sb = [initial_state(u, n) for u in scn.b.units]
    for s, h in zip(sa + sb, (0, 1, 2, 3), strict=True):
        s["heat"][:] = np.arange(n) % (h + 1)
    first = np.arange(n) % 2 == 0
    req_a, req_b = K._force_tactics(scn, sa, sb, 1, 1, first)
    assert req_a is not None and req_b is not None
    d0 = np.full(n, TT.band_distance(1), dtype=np.int16)
    for side, own, opp, reqs, fa in (("a", sa, sb, req_a, first), ("b", sb, sa, req_b, ~first)):
        for i in range(2):
            ch = TT.decisions(K._pair(scn, side, i, i), d0, fa, own[i], opp[i])
            assert (own[i]["mode"] == ch["mode_a"]).all()
            assert (reqs[i] == ch["req_a"]).all()
    frame = engine.simulate(MODEL, [p], trials=2000, seed=5, progress=False)
    r = frame.iloc[0]
    assert (r["tactic_a"], r["tactic_b"]) == ("competent", "charge")
    total = r["p_win_a"] + r["p_win_b"] + r["p_draw"] + r["p_timeout"]
    assert abs(total - 1.0) < 1e-9
