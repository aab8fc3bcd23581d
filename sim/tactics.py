"""Tactics, game-agnostic: declared tactics, the tactic matrix of a pairing, maximin and the
value of the zero-sum game (issue 22).

A :class:`Tactic` is data: a name, a one-line description and a decision function from the
game's state (its signature is the game's: :mod:`sim.alphastrike.duel.tactics` for Alpha
Strike). Each game registers its named tactics here (:func:`register`) and resolves a
parameter value -- a name or a Python callable -- with :func:`resolve`.

The **tactic matrix** of a pairing plays every tactic of side A against every tactic of side B
(:func:`play_matrix`, given the game's function that plays one pair) and reads it as a
constant-sum game whose payoff to A is A's *score*, P(A wins) + 1/2 P(draw) + 1/2 P(timeout)
(B's is one minus it):

* **maximin** (:func:`maximin`): A's pure tactic whose worst score over B's replies is best,
  and B's pure tactic whose worst (for B) over A's replies is best;
* **value in mixed strategies** (:func:`solve_zero_sum`): the exact solution of the matrix
  game by enumerating square supports (each a small linear system; an optimal strategy of a
  matrix game is a basic solution of its linear program, so one of these systems gives it),
  for up to :data:`MAX_EXACT` tactics a side; :func:`fictitious_play` (Brown-Robinson
  iteration: bounds that close on the value) beyond that and as a cross-check.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import ConfigError

#: Most tactics a side for which :func:`solve_zero_sum` enumerates supports.
MAX_EXACT = 8


@dataclass(frozen=True)
class Tactic:
    """A declared tactic: ``name``, ``description`` and the decision function ``decide``
    (from the game's state to the unit's choice; the game defines its signature)."""

    name: str
    description: str
    decide: Callable[..., Any] | None = None

    @property
    def label(self) -> str:
        return self.name


_REGISTRY: dict[str, dict[str, Tactic]] = {}


def register(game: str, tactic: Tactic) -> Tactic:
    """Declare a named tactic of ``game``; returns it."""
    _REGISTRY.setdefault(game, {})[tactic.name] = tactic
    return tactic


def named(game: str) -> tuple[str, ...]:
    """The named tactics of ``game``, in declaration order."""
    return tuple(_REGISTRY.get(game, {}))


def get(game: str, name: str) -> Tactic:
    """The named tactic ``name`` of ``game`` (ConfigError naming the choices)."""
    tactics = _REGISTRY.get(game, {})
    if name not in tactics:
        raise ConfigError("tactic", name, "one of " + ", ".join(tactics) + " or a callable")
    return tactics[name]


def resolve(game: str, value: Any, field_name: str,
            wrap: Callable[[Callable[..., Any]], Tactic]) -> Tactic:
    """A tactic from a parameter value: a :class:`Tactic`, a name of ``game``'s tactics, or a
    Python callable (``wrap`` turns it into the game's tactic). ConfigError names
    ``field_name``, the value and the choices."""
    if isinstance(value, Tactic):
        return value
    if isinstance(value, str):
        tactics = _REGISTRY.get(game, {})
        if value.strip() in tactics:
            return tactics[value.strip()]
        raise ConfigError(field_name, value, "one of " + ", ".join(tactics) + " or a callable")
    if callable(value):
        return wrap(value)
    raise ConfigError(field_name, value, "a tactic name (" + ", ".join(named(game))
                      + ") or a callable")


def names_of(game: str, value: Any, field_name: str) -> tuple[str, ...]:
    """A set of ``game``'s named tactics from a parameter value: None (every named tactic, in
    declaration order), a comma-separated string or a list of names, distinct. ConfigError
    names ``field_name``, the value and the choices."""
    choices = named(game)
    if value is None:
        return choices
    items = ([t.strip() for t in value.split(",")] if isinstance(value, str)
             else list(value) if isinstance(value, list | tuple) else None)
    if (not items or any(not isinstance(t, str) or t not in choices for t in items)
            or len(set(items)) != len(items)):
        raise ConfigError(field_name, value, "a comma-separated list of distinct tactics "
                          "among " + ", ".join(choices))
    return tuple(items)


@dataclass(frozen=True)
class Estimate:
    """A number with its 95% interval (``lo == hi == value`` when exact)."""

    value: float
    lo: float
    hi: float

    def text(self, digits: int = 3) -> str:
        if self.lo == self.value == self.hi:
            return f"{self.value:.{digits}f}"
        return f"{self.value:.{digits}f} ({self.lo:.{digits}f}–{self.hi:.{digits}f})"


@dataclass(frozen=True)
class Cell:
    """One pair of tactics: P(A wins), P(B wins), E[turns] and A's score, each with its 95%
    interval; ``exact`` when the numbers are exact."""

    p_win_a: Estimate
    p_win_b: Estimate
    turns: Estimate
    score_a: Estimate
    exact: bool


def cell(p_a: float, p_b: float, turns: float, se_a: float = 0.0, se_b: float = 0.0,
         se_turns: float = 0.0, se_score: float | None = None) -> Cell:
    """A :class:`Cell` from estimates and standard errors (all 0: exact). A's score is
    P(A wins) + (1 - P(A wins) - P(B wins)) / 2; its SE, when not given, is bounded by the
    larger of the two SEs."""
    z = 1.959963984540054

    def est(v: float, se: float) -> Estimate:
        return Estimate(v, v - z * se, v + z * se)

    score = p_a + 0.5 * (1.0 - p_a - p_b)
    s_se = se_score if se_score is not None else max(se_a, se_b)
    exact = se_a == se_b == se_turns == 0.0 and s_se == 0.0
    return Cell(est(p_a, se_a), est(p_b, se_b), est(turns, se_turns), est(score, s_se), exact)


def cell_of(row: Any) -> Cell:
    """A Monte Carlo :class:`Cell` from one row of an engine summary (``p_win_a``,
    ``p_win_b``, ``expected_turns``, each with ``_se`` and, where the row has them, its 95%
    interval ``_ci_low``/``_ci_high``: Wilson for the probabilities, so never outside [0, 1]
    and not empty when every duel ended alike). A's score = (1 + P(A wins) - P(B wins)) / 2
    has the normal interval of its own SE, sqrt((pA (1 - pA) + pB (1 - pB) + 2 pA pB) / 4n)
    (the two outcomes of one duel are exclusive), clipped to [0, 1]; when that is empty (every
    duel ended alike) the interval the two Wilson intervals give it,
    [(1 + lo_A - hi_B) / 2, (1 + hi_A - lo_B) / 2]."""
    z = 1.959963984540054

    def est(name: str) -> Estimate:
        v, se = float(row[name]), float(row.get(f"{name}_se", 0.0) or 0.0)
        lo, hi = row.get(f"{name}_ci_low"), row.get(f"{name}_ci_high")
        if lo is None or hi is None or not (np.isfinite(lo) and np.isfinite(hi)):
            return Estimate(v, v - z * se, v + z * se)
        return Estimate(v, float(lo), float(hi))

    def prob(e: Estimate) -> Estimate:   # rounding dust at 0 and 1 (e.g. 1e-18) snapped
        def snap(x: float) -> float:
            return 0.0 if x < 1e-12 else 1.0 if x > 1 - 1e-12 else x

        return Estimate(snap(e.value), snap(e.lo), snap(e.hi))

    a, b, t = prob(est("p_win_a")), prob(est("p_win_b")), est("expected_turns")
    n = float(row.get("p_win_a_n", row.get("trials", 0)) or 0)
    pa, pb = a.value, b.value
    se = (np.sqrt(max(pa * (1 - pa) + pb * (1 - pb) + 2 * pa * pb, 0.0) / (4 * n)) if n > 0
          else max(a.value - a.lo, b.value - b.lo) / z)
    s = 0.5 * (1.0 + pa - pb)
    lo, hi = max(s - z * se, 0.0), min(s + z * se, 1.0)
    if hi - lo <= 0:
        lo, hi = 0.5 * (1.0 + a.lo - b.hi), 0.5 * (1.0 + a.hi - b.lo)
    return Cell(a, b, t, Estimate(s, lo, hi), False)


@dataclass(frozen=True)
class TacticMatrix:
    """Every tactic of A against every tactic of B (``cells[i][j]``: A plays ``rows[i]``, B
    ``cols[j]``), with the pure maximin of each side and the mixed value of the game."""

    rows: tuple[str, ...]
    cols: tuple[str, ...]
    cells: tuple[tuple[Cell, ...], ...]

    @property
    def score(self) -> np.ndarray:
        """A's score per pair (the payoff matrix)."""
        return np.array([[c.score_a.value for c in r] for r in self.cells])

    def maximin(self) -> dict[str, Any]:
        """Each side's pure maximin tactic and the score it guarantees (B's as A's score,
        which B keeps at most at that level)."""
        i, v_a, j, v_b = maximin(self.score)
        return {"a": self.rows[i], "a_guarantee": v_a, "b": self.cols[j], "b_holds_a_to": v_b}

    def value(self) -> dict[str, Any]:
        """The mixed-strategy value (A's score) and both optimal mixes."""
        v, x, y = solve_zero_sum(self.score)
        return {"value": v, "mix_a": dict(zip(self.rows, x.tolist(), strict=True)),
                "mix_b": dict(zip(self.cols, y.tolist(), strict=True))}

    def to_dict(self) -> dict[str, Any]:
        def e(x: Estimate) -> dict[str, float]:
            return {"value": x.value, "lo": x.lo, "hi": x.hi}

        return {"rows": list(self.rows), "cols": list(self.cols),
                "cells": [[{"p_win_a": e(c.p_win_a), "p_win_b": e(c.p_win_b),
                            "expected_turns": e(c.turns), "score_a": e(c.score_a),
                            "exact": c.exact} for c in r] for r in self.cells],
                "maximin": self.maximin(), "game": self.value()}

    def to_text(self) -> str:
        w = max(len(t) for t in self.rows + self.cols) + 2
        lines = []
        for title, pick in (("P(A wins)", lambda c: c.p_win_a),
                            ("P(B wins)", lambda c: c.p_win_b),
                            ("E[turns]", lambda c: c.turns)):
            lines.append(f"{title} (rows: A's tactic, columns: B's; 95% intervals where "
                         "Monte Carlo)")
            lines.append(" " * w + "".join(f"{c:>24}" for c in self.cols))
            for r, row in zip(self.rows, self.cells, strict=True):
                lines.append(f"{r:<{w}}" + "".join(f"{pick(c).text():>24}" for c in row))
            lines.append("")
        mm = self.maximin()
        exact = all(c.exact for row in self.cells for c in row)
        i, j = self.rows.index(mm["a"]), self.cols.index(mm["b"])
        # each guarantee is one cell's score: that cell's interval (Monte Carlo)
        worst_j = min(range(len(self.cols)), key=lambda k: self.cells[i][k].score_a.value)
        worst_i = max(range(len(self.rows)), key=lambda k: self.cells[k][j].score_a.value)
        lines.append(f"maximin: A plays {mm['a']} (score >= "
                     f"{self.cells[i][worst_j].score_a.text(4)} against B's best reply); B "
                     f"plays {mm['b']} (holds A to <= {self.cells[worst_i][j].score_a.text(4)})")
        g = self.value()
        # the value of a matrix game moves at most as far as any one payoff: the widest
        # cell interval bounds it
        half = max(max(c.score_a.value - c.score_a.lo, c.score_a.hi - c.score_a.value)
                   for row in self.cells for c in row)
        value = Estimate(g["value"], g["value"] - half, g["value"] + half).text(4)

        def mix(m: dict[str, float]) -> str:
            return ", ".join(f"{k} {v:.3f}" for k, v in m.items() if v > 5e-4)

        lines.append(f"value of the zero-sum game (A's score, mixed strategies): "
                     f"{value}" + ("" if exact else " (within the widest cell interval)")
                     + f"; A mixes {mix(g['mix_a'])}; B mixes {mix(g['mix_b'])}")
        return "\n".join(lines)


def play_matrix(play: Callable[[str, str], Cell], rows: Sequence[str],
                cols: Sequence[str] | None = None) -> TacticMatrix:
    """Play every pair (``play(tactic_a, tactic_b) -> Cell``)."""
    cols = tuple(rows if cols is None else cols)
    cells = tuple(tuple(play(r, c) for c in cols) for r in rows)
    return TacticMatrix(tuple(rows), cols, cells)


def maximin(a: np.ndarray) -> tuple[int, float, int, float]:
    """Pure maximin of a payoff matrix ``a`` (payoff to the row player, who maximizes):
    ``(row, its guaranteed payoff, column, the most it concedes)``. Ties go to the first."""
    a = np.asarray(a, dtype=float)
    worst = a.min(axis=1)
    i = int(np.argmax(worst))
    best = a.max(axis=0)
    j = int(np.argmin(best))
    return i, float(worst[i]), j, float(best[j])


def _row_optimum(a: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's optimal mix and guaranteed payoff, by enumerating square supports:
    on rows I and columns J (|I| = |J| = k) solve x A[I, J] = v, sum x = 1; keep the feasible
    x (x >= 0) with the best guarantee min_j (x A)_j."""
    m, n = a.shape
    best_v, best_x = -np.inf, np.zeros(m)
    tol = 1e-12
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            sub_r = a[list(rows)]
            for cols in itertools.combinations(range(n), k):
                sub = sub_r[:, list(cols)]                       # (k, k)
                lhs = np.zeros((k + 1, k + 1))
                lhs[:k, :k] = sub.T
                lhs[:k, k] = -1.0
                lhs[k, :k] = 1.0
                rhs = np.zeros(k + 1)
                rhs[k] = 1.0
                try:
                    sol = np.linalg.solve(lhs, rhs)
                except np.linalg.LinAlgError:
                    continue
                xs = sol[:k]
                if xs.min() < -1e-9:
                    continue
                x = np.zeros(m)
                x[list(rows)] = np.maximum(xs, 0.0)
                x /= x.sum()
                v = float((x @ a).min())
                if v > best_v + tol:
                    best_v, best_x = v, x
    return best_v, best_x


def solve_zero_sum(a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Value of the zero-sum matrix game ``a`` (payoff to the row player) and optimal mixed
    strategies ``(value, x, y)``: exact support enumeration up to :data:`MAX_EXACT` strategies a
    side, :func:`fictitious_play` beyond."""
    a = np.asarray(a, dtype=float)
    if max(a.shape) > MAX_EXACT:
        lo, hi, x, y = fictitious_play(a)
        return 0.5 * (lo + hi), x, y
    v, x = _row_optimum(a)
    w, y = _row_optimum(-a.T)
    # v is what the rows guarantee, -w what the columns concede: equal at the solution
    return 0.5 * (v - w), x, y


def fictitious_play(a: np.ndarray, iterations: int = 20000
                    ) -> tuple[float, float, np.ndarray, np.ndarray]:
    """Brown-Robinson fictitious play on ``a``: each player best-responds to the other's
    empirical mix. Returns ``(lower, upper, x, y)``: the rows' empirical mix guarantees at
    least ``lower``, the columns' concedes at most ``upper``, and the value lies between."""
    a = np.asarray(a, dtype=float)
    m, n = a.shape
    rows_sum = np.zeros(n)        # sum over the rows played of a[i, :]
    cols_sum = np.zeros(m)        # sum over the columns played of a[:, j]
    cx, cy = np.zeros(m), np.zeros(n)
    i = 0
    lo, hi = -np.inf, np.inf
    for t in range(1, iterations + 1):
        cx[i] += 1
        rows_sum += a[i]
        j = int(np.argmin(rows_sum))
        cy[j] += 1
        cols_sum += a[:, j]
        i = int(np.argmax(cols_sum))
        lo = max(lo, float(rows_sum.min()) / t)
        hi = min(hi, float(cols_sum.max()) / t)
        if hi - lo < 1e-9:
            break
    return lo, hi, cx / cx.sum(), cy / cy.sum()
