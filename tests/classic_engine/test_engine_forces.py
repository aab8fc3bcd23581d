"""N 'Mechs a side on the compiled Classic engine (issue 21, model ``classic-force``): the
force syntax and its errors, the targeting policies on hand-made states (engine and oracle
agree), engine outcomes against the scalar oracle extended to N units (2 v 2, 2 v 1, by
distribution), and bit identity whatever the block size or ``--jobs``."""

from __future__ import annotations

import numpy as np
import pytest

from sim.classic.duel.forces import TARGETING, build_force, parse_force
from sim.classic.engine import layout as L
from sim.classic.engine import sampler
from sim.errors import ConfigError
from sim.oracles import classic_duel as O

LIGHT2 = "Locust LCT-1V,Commando COM-2D"


def test_force_syntax() -> None:
    got = parse_force("Atlas AS7-D@3/4, Locust LCT-1V@2,Commando COM-2D", "unit_a", 4, 6)
    assert got == [("Atlas AS7-D", 3, 4), ("Locust LCT-1V", 2, 6), ("Commando COM-2D", 4, 6)]
    assert parse_force([("Atlas AS7-D", 1, 2)], "unit_b") == [("Atlas AS7-D", 1, 2)]


@pytest.mark.parametrize("params, field", [
    ({"unit_a": "Locust LCT-1V," * 4 + "Locust LCT-1V"}, "unit_a"),
    ({"unit_a": "Locust LCT-1V@9/4"}, "unit_a"),
    ({"unit_a": "Locust LCT-1V,,Commando COM-2D"}, "unit_a"),
    ({"targeting_b": "nearest"}, "targeting_b"),
    ({"closing": True}, "closing"),
    ({"bv_a": 900}, "bv_a"),
])
def test_bad_force_input_names_the_option(params: dict, field: str) -> None:
    p = {"unit_a": LIGHT2, "unit_b": LIGHT2, **params}
    with pytest.raises(ConfigError) as e:
        build_force(p)
    assert e.value.field == field


def _state(scn):  # type: ignore[no-untyped-def]
    from sim.classic.engine.compile import compile_scenario

    comp = compile_scenario(scn)
    from sim.classic.damage_state import state as st

    U = len(scn.units)
    ncol = max(st.n_columns(u.layout) for u in scn.units)
    SS = np.zeros((U, ncol), np.int64)
    for u, s in enumerate(scn.units):
        row = st.fresh(s.layout, 1)[0]
        SS[u, :row.size] = row
    X = np.zeros((U, L.N_X), np.int64)
    X[:, L.X_ACT] = 1
    return comp, SS, X


def _oracle_targets(scn, SS, X):  # type: ignore[no-untyped-def]
    """The oracle's choice on the same state (armor and structure copied over)."""
    from sim.classic.damage_state import state as st

    ms = [O.Mech(s, scn.duel_rules) for s in scn.units]
    for u, m in enumerate(ms):
        m.armor = [int(v) for v in SS[u, :st.N_ARMOR]]
        m.IS = [int(v) for v in SS[u, st.IS0:st.IS0 + 8]]
    key = (scn.ranges[0], scn.moves[0][0], scn.moves[0][1])
    fss = [s.fire[key] for s in scn.units]
    dead = [int(X[u, L.X_DEAD]) for u in range(len(ms))]
    tg = [-1] * len(ms)
    O._targets(scn, ms, fss, [True] * len(ms), dead, tg)
    return tg


@pytest.mark.parametrize("policy", list(TARGETING))
def test_targeting_policies(policy: str) -> None:
    from sim.classic.damage_state import state as st
    from sim.classic.engine import target as TG
    from sim.classic.engine.compile import situations

    scn = build_force({"unit_a": "Locust LCT-1V,Hunchback HBK-4G",
                       "unit_b": "Atlas AS7-D,Locust LCT-1V,Commando COM-2D", "range": 3,
                       "targeting_a": policy, "targeting_b": policy})
    comp, SS, X = _state(scn)
    sit = int(situations(scn)[1][0])

    def targets() -> list[int]:
        TG.retarget(SS, X, comp.M, sit)
        got = [int(X[u, L.X_TARGET]) for u in range(5) if not X[u, L.X_DEAD]]
        assert got == [t for u, t in enumerate(_oracle_targets(scn, SS, X))
                       if not X[u, L.X_DEAD]]
        return got

    fresh = targets()
    if policy == "focus-weakest":       # the Locust (unit 3) has the least left
        assert fresh == [3, 3, 0, 0, 0]
    elif policy == "focus-threat":      # the Atlas and the Hunchback
        assert fresh == [2, 2, 1, 1, 1]
    elif policy == "spread":            # unit i of a side at the (i mod k)-th enemy
        assert fresh == [2, 3, 0, 1, 0]
    else:                               # nothing in reach: the highest threat
        assert fresh == [2, 2, 1, 1, 1]
    # the Atlas nearly gone: the weakest now, and in the finishing side's reach
    SS[2, :st.N_ARMOR] = 0
    SS[2, st.IS0:st.IS0 + 8] = 1
    after = targets()
    if policy in ("focus-weakest", "finish"):
        assert after[:2] == [2, 2]
    # a unit down is nobody's target and picks none: side A retargets
    X[2, L.X_DEAD] = 1
    later = targets()
    assert 2 not in later[:2]


def _bins(dead: np.ndarray, sides: tuple[int, ...], T: int) -> np.ndarray:
    """Joint bin of (outcome, end turn) of force engagements: 0 timeout, 1 A, 2 B, 3 draw."""
    s = np.asarray(sides)
    down = [np.where((dead[s == k] > 0).all(axis=0), dead[s == k].max(axis=0), 0)
            for k in (0, 1)]
    a, b = down
    out = np.where((a == 0) & (b == 0), 0,
                   np.where((b > 0) & ((a == 0) | (b < a)), 1,
                            np.where((a > 0) & ((b == 0) | (a < b)), 2, 3)))
    end = np.where(out == 0, T + 1, np.where(out == 1, b, a))
    return out * (T + 2) + end


@pytest.mark.parametrize("params", [
    {"unit_a": LIGHT2, "unit_b": "Hatchetman HCT-3F,Locust LCT-1V", "range": 1,
     "targeting_a": "spread", "targeting_b": "focus-threat", "moved_a": "walk"},
    {"unit_a": LIGHT2, "unit_b": "Hunchback HBK-4G", "range": 3, "targeting_a": "finish"},
], ids=["2v2-range1", "2v1-range3"])
def test_force_engine_agrees_with_the_oracle(params: dict) -> None:
    T = 6
    p = {**params, "turns": T}
    n_o, n_k = 1000, 12000
    scn = build_force(p)
    o = O.scalar(p, np.random.default_rng(11), n_o)
    k = sampler.run(scn, np.random.default_rng(12), n_k)
    m = 4 * (T + 2)
    ho = np.bincount(_bins(o["dead_turn"], scn.unit_sides, T), minlength=m) / n_o
    hk = np.bincount(_bins(k["dead_turn"], scn.unit_sides, T), minlength=m) / n_k
    pool = (ho * n_o + hk * n_k) / (n_o + n_k)
    se = np.sqrt(pool * (1 - pool) * (1 / n_o + 1 / n_k))
    z = np.abs(ho - hk) / np.maximum(se, 1e-12)
    big = pool * n_o >= 5
    assert big.sum() >= 3
    assert z[big].max() < 4.5, (np.round(ho, 3), np.round(hk, 3))
    # each unit's survival and its weapon damage
    for u in range(len(scn.units)):
        po, pk = (o["dead_turn"][u] == 0).mean(), (k["dead_turn"][u] == 0).mean()
        sp = np.sqrt(max(po * (1 - po), 1e-4) * (1 / n_o + 1 / n_k))
        assert abs(po - pk) < 4.5 * sp, (u, po, pk)


def test_force_bits_do_not_depend_on_block_or_jobs() -> None:
    from sim import engine
    from sim.models import get_model

    p = {"unit_a": LIGHT2, "unit_b": "Hatchetman HCT-3F,Locust LCT-1V", "range": 1, "turns": 6,
         "targeting_b": "spread"}
    scn = build_force(p)
    a = sampler.run(scn, np.random.default_rng(5), 300)
    b = sampler.run(scn, np.random.default_rng(5), 300, block=7)
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    model = get_model("classic-force")
    one = engine.simulate(model, [p], 600, 3, n_jobs=1, backend="sequential",
                          chunk_size=256, progress="never", with_exact=False)
    two = engine.simulate(model, [p], 600, 3, n_jobs=2, backend="loky", chunk_size=256,
                          progress="never", with_exact=False)
    assert one.equals(two)


def test_one_against_one_is_the_duel() -> None:
    """A force engagement of one 'Mech a side plays the duel's duels bit for bit."""
    from sim.classic.duel.scenario import build

    p = {"unit_a": "Hunchback HBK-4G", "unit_b": "Wolverine WVR-6R", "range": 1, "turns": 6}
    a = sampler.run(build(p), np.random.default_rng(3), 400)
    b = sampler.run(build_force({**p, "targeting_a": "spread"}), np.random.default_rng(3), 400)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def _cli(argv: list[str]) -> tuple[int, str, str]:
    import contextlib
    import io

    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_cli_force_text_and_json() -> None:
    import json

    base = ["duel", "--game", "classic", "Locust LCT-1V@3/4,Commando COM-2D",
            "Hatchetman HCT-3F", "--range", "3", "--turns", "4", "--trials", "200"]
    code, out, _ = _cli(base + ["--targeting-a", "spread", "--json"])
    assert code == 0
    doc = json.loads(out)
    assert doc["model"] == "classic-force" and doc["params"]["targeting_a"] == "spread"
    assert [(u["name"], u["gunnery"], u["piloting"]) for u in doc["units"]] == [
        ("Locust LCT-1V", 3, 4), ("Commando COM-2D", 4, 5), ("Hatchetman HCT-3F", 4, 5)]
    assert doc["p_win_a_ci_low"] <= doc["p_win_a"] <= doc["p_win_a_ci_high"]
    assert all(u["p_survives_ci_low"] <= u["p_survives"] <= u["p_survives_ci_high"]
               for u in doc["units"])
    code, text, _ = _cli(base)
    assert code == 0 and "units surviving" in text and "Locust LCT-1V@3/4" in text


@pytest.mark.parametrize("extra, name", [
    (["--targeting-b", "nearest-to-death"], "targeting_b"),
    (["--closing", "close"], "closing"),
    (["--edit", "heat_sinks=+1"], "edit"),
])
def test_cli_force_bad_input(extra: list[str], name: str) -> None:
    code, out, err = _cli(["duel", "--game", "classic", LIGHT2, "Hatchetman HCT-3F",
                           "--trials", "50", *extra])
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and name in lines[0], err


def test_an_unknown_parameter_is_named() -> None:
    with pytest.raises(ConfigError) as e:
        build_force({"unit_a": LIGHT2, "unit_b": LIGHT2, "targetting_a": "spread"})
    assert e.value.field == "parameter" and "targeting_a" in e.value.allowed
