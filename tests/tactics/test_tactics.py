"""The game-agnostic tactic machinery (sim/tactics.py): maximin, the value of a zero-sum matrix
game on hand-worked 2x2 and 3x3 games, fictitious play, the matrix text and registry."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from sim import tactics as G
from sim.errors import ConfigError


@pytest.mark.parametrize(("a", "value", "x", "y"), [
    # matching pennies: 0, both mix 1/2
    ([[1, -1], [-1, 1]], F(0), (F(1, 2), F(1, 2)), (F(1, 2), F(1, 2))),
    # [[3, -1], [-2, 1]]: no saddle; x1 = (1 + 2) / 7, v = (3 - 2) / 7, y1 = (1 + 1) / 7
    ([[3, -1], [-2, 1]], F(1, 7), (F(3, 7), F(4, 7)), (F(2, 7), F(5, 7))),
    # a saddle point at (0, 1): row 0 guarantees 2, column 1 concedes 2
    ([[4, 2], [1, 0]], F(2), (F(1), F(0)), (F(0), F(1))),
    # rock-paper-scissors: 0, uniform
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], F(0), (F(1, 3),) * 3, (F(1, 3),) * 3),
    # a dominated third row and column: reduces to the 2x2 [[3, -1], [-2, 1]]
    ([[3, -1, 5], [-2, 1, 4], [-3, -2, 6]], F(1, 7), (F(3, 7), F(4, 7), F(0)),
     (F(2, 7), F(5, 7), F(0))),
])
def test_zero_sum_value_hand_worked(a: list, value: F, x: tuple, y: tuple) -> None:
    v, xs, ys = G.solve_zero_sum(np.array(a, dtype=float))
    assert v == pytest.approx(float(value), abs=1e-12)
    assert xs == pytest.approx([float(t) for t in x], abs=1e-12)
    assert ys == pytest.approx([float(t) for t in y], abs=1e-12)
    lo, hi, _, _ = G.fictitious_play(np.array(a, dtype=float), iterations=4000)
    assert lo - 1e-9 <= float(value) <= hi + 1e-9 and hi - lo < 0.05


def test_value_agrees_with_a_linear_program_on_random_games() -> None:
    linprog = pytest.importorskip("scipy.optimize").linprog
    rng = np.random.default_rng(3)
    for m, n in ((2, 3), (3, 3), (4, 5), (6, 6)):
        a = rng.uniform(0, 1, (m, n))
        # maximize v: x a >= v, sum x = 1, x >= 0  (variables x, v)
        c = np.zeros(m + 1)
        c[-1] = -1.0
        res = linprog(c, A_ub=np.hstack([-a.T, np.ones((n, 1))]), b_ub=np.zeros(n),
                      A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]), b_eq=[1.0],
                      bounds=[(0, None)] * m + [(None, None)])
        v, x, y = G.solve_zero_sum(a)
        assert v == pytest.approx(-res.fun, abs=1e-9)
        assert (x @ a).min() == pytest.approx(v, abs=1e-9)      # x guarantees the value
        assert (a @ y).max() == pytest.approx(v, abs=1e-9)      # y concedes no more


def test_maximin_pure() -> None:
    a = np.array([[0.2, 0.9], [0.4, 0.5], [0.1, 1.0]])
    i, guarantee, j, concede = G.maximin(a)
    assert (i, guarantee) == (1, 0.4)      # row 1's worst 0.4 beats 0.2 and 0.1
    assert (j, concede) == (0, 0.4)        # column 0 holds the rows to 0.4


def test_matrix_text_and_dict() -> None:
    scores = {("x", "x"): (0.5, 0.5), ("x", "y"): (0.8, 0.1), ("y", "x"): (0.3, 0.6),
              ("y", "y"): (0.4, 0.4)}

    def play(r: str, c: str) -> G.Cell:
        pa, pb = scores[r, c]
        return G.cell(pa, pb, 3.0, 0.01, 0.01, 0.1)

    m = G.play_matrix(play, ["x", "y"])
    s = m.score
    assert s[0, 1] == pytest.approx(0.8 + 0.05)
    mm = m.maximin()
    assert mm["a"] == "x" and mm["b"] == "x"           # x dominates for both
    text = m.to_text()
    assert "maximin: A plays x" in text and "value of the zero-sum game" in text
    assert "0.800 (0.780–0.820)" in text               # 95% interval of P(A wins)
    d = m.to_dict()
    assert d["game"]["value"] == pytest.approx(0.5) and d["cells"][0][1]["exact"] is False


def test_registry_and_resolve() -> None:
    t = G.register("testgame", G.Tactic("alpha", "first"))
    G.register("testgame", G.Tactic("beta", "second"))
    assert G.named("testgame") == ("alpha", "beta")
    assert G.get("testgame", "alpha") is t
    with pytest.raises(ConfigError, match="alpha, beta"):
        G.resolve("testgame", "gamma", "tactic_a", lambda f: G.Tactic("f", "", f))
    got = G.resolve("testgame", len, "tactic_a", lambda f: G.Tactic("fn", "callable", f))
    assert got.decide is len


def test_cell_of_reads_the_engines_intervals() -> None:
    """A Monte Carlo cell from a summary row keeps the row's (Wilson) intervals, inside [0, 1]
    and not empty when every duel ended alike; A's score gets its own SE (the two wins are
    exclusive), and the two Wilson intervals when that SE is 0."""
    from sim.summary import proportion_interval

    n = 400
    row = {"p_win_a": 0.0, "p_win_b": 1.0, "expected_turns": 3.0, "expected_turns_se": 0.1,
           "p_win_a_se": 0.0, "p_win_b_se": 0.0, "p_win_a_n": n}
    lo_a, hi_a = proportion_interval(0.0, n)
    lo_b, hi_b = proportion_interval(1.0, n)
    row.update(p_win_a_ci_low=lo_a, p_win_a_ci_high=hi_a, p_win_b_ci_low=lo_b,
               p_win_b_ci_high=hi_b, expected_turns_ci_low=2.8, expected_turns_ci_high=3.2)
    c = G.cell_of(row)
    assert not c.exact and c.p_win_a.lo == 0.0 and 0 < c.p_win_a.hi < 0.02
    assert c.p_win_b.hi == 1.0 and c.p_win_b.lo == pytest.approx(lo_b)
    assert c.score_a.value == 0.0 and c.score_a.lo == pytest.approx(0.5 * (1 + lo_a - hi_b))
    assert c.score_a.hi == pytest.approx(0.5 * (1 + hi_a - lo_b)) and c.score_a.hi > 0
    pa, pb = 0.3, 0.5
    row.update(p_win_a=pa, p_win_b=pb)
    c = G.cell_of(row)
    se = np.sqrt((pa * (1 - pa) + pb * (1 - pb) + 2 * pa * pb) / (4 * n))
    assert c.score_a.value == pytest.approx(0.4)
    assert c.score_a.hi - c.score_a.value == pytest.approx(1.959963984540054 * se)
    assert (c.turns.lo, c.turns.hi) == (2.8, 3.2)


def test_names_of() -> None:
    G.register("test-names", G.Tactic("x", "x"))
    G.register("test-names", G.Tactic("y", "y"))
    assert G.names_of("test-names", None, "f") == ("x", "y")
    assert G.names_of("test-names", "y, x", "f") == ("y", "x")
    assert G.names_of("test-names", ["x"], "f") == ("x",)
    for bad in ("x,x", "z", [], 3):
        with pytest.raises(ConfigError, match="'f'"):
            G.names_of("test-names", bad, "f")
