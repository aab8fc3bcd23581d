"""The tactic matrices of a round-robin's most and least surprising pairings (issue 22), for
both games: the Alpha Strike round-robin (model ``duel``, the PV fairness curve) and the
Classic one (model ``classic-duel``, the BV fairness curve).

*Surprise* of a duel (a pairing at one range): ``|score - expected|``, where ``score`` is A's
observed score in the round-robin (P(win) + 1/2 P(draw or timeout),
:func:`sim.alphastrike.duel.analysis.duels`) and ``expected`` the score the round-robin's own
fairness curve of its cost (PV or BV) predicts for A from the cost ratio
(:func:`sim.alphastrike.duel.analysis.fair_score`, slope fitted over every duel between
different units at every range). The most surprising pairings are those the price explains
worst; the least, those it explains best (:func:`picks`). For each, :func:`matrices` plays
every named tactic of A against every one of B from that pairing's scenario (its range and
every other parameter) with the game's matrix runner (:data:`GAMES`: Alpha Strike
:func:`sim.alphastrike.duel.api.tactic_matrix`, Classic
:func:`sim.classic.duel.api.tactic_matrix`, the function behind ``btsim duel --tactics
matrix``), Monte Carlo with the table's ``trials``: does the verdict depend on the tactic?

The round-robin experiment computes them once, after its grid (experiment key
``tactic_matrices``: ``pairings``, ``trials``, ``tactics``, ``ranges``), and records them in
its metadata; the report section only reads them
(:func:`sim.report.tactic_tables.add_tactic_matrices`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import ConfigError, check_int


@dataclass(frozen=True)
class Game:
    """How one duel model's round-robin plays its tactic matrices."""

    #: the fairness curve's cost (:data:`sim.alphastrike.duel.analysis.COSTS`)
    cost: str
    #: the scenario parameters naming side A's and side B's unit
    sides: tuple[str, str]
    #: ``module:function`` of the matrix runner, ``f(a, b, tactics, *, trials, seed,
    #: **params) -> sim.tactics.TacticMatrix``
    runner: str
    #: the module that registers the game's named tactics, and its :mod:`sim.tactics` game
    tactics_module: str
    game: str
    #: Monte Carlo duels a cell when the table does not say
    trials: int

    def run(self) -> Callable[..., Any]:
        mod, fn = self.runner.split(":")
        return getattr(importlib.import_module(mod), fn)

    def names(self, value: Any) -> list[str]:
        """The tactic set ``value`` (None: every named tactic), checked."""
        from sim import tactics as G

        importlib.import_module(self.tactics_module)
        return list(G.names_of(self.game, value, "tactic_matrices.tactics"))


#: the experiment models with tactic matrices, and how each plays them
GAMES: dict[str, Game] = {
    "duel": Game("pv", ("a", "b"), "sim.alphastrike.duel.api:tactic_matrix",
                 "sim.alphastrike.duel.tactics", "alphastrike", 2000),
    "classic-duel": Game("bv", ("unit_a", "unit_b"), "sim.classic.duel.api:tactic_matrix",
                         "sim.classic.duel.tactics", "classic", 100),
}

#: the keys of an experiment's ``tactic_matrices`` table and their defaults (``trials``
#: None: the game's :attr:`Game.trials`; ``tactics`` None: every named tactic; ``ranges``
#: None: the pairings at every range of the round-robin)
DEFAULTS: dict[str, Any] = {"pairings": 3, "trials": None, "tactics": None, "ranges": None}


def check(cfg: Any, model: str, ranges: Sequence[Any] = ()) -> dict[str, Any]:
    """Validate an experiment's ``tactic_matrices`` table (ConfigError naming the key);
    ``ranges``: the range values of the experiment's scenarios (what ``ranges`` may pick)."""
    if not isinstance(cfg, Mapping):
        raise ConfigError("tactic_matrices", cfg, "a table: " + ", ".join(DEFAULTS))
    if model not in GAMES:
        raise ConfigError("tactic_matrices", model, "only with model = "
                          + " or ".join(f'"{m}"' for m in GAMES))
    game = GAMES[model]
    bad = [k for k in cfg if k not in DEFAULTS]
    if bad:
        raise ConfigError(f"tactic_matrices.{bad[0]}", cfg[bad[0]],
                          "one of " + ", ".join(DEFAULTS))
    out = {**DEFAULTS, **cfg}
    out["pairings"] = check_int("tactic_matrices.pairings", out["pairings"], 1, 10)
    out["trials"] = check_int("tactic_matrices.trials",
                              game.trials if out["trials"] is None else out["trials"],
                              100, 10**6)
    if out["tactics"] is not None:
        out["tactics"] = game.names(out["tactics"])
    if out["ranges"] is not None:
        known = list(dict.fromkeys(str(r) for r in ranges))
        got = out["ranges"]
        if (not isinstance(got, list) or not got
                or any(isinstance(r, bool) or str(r) not in known for r in got)):
            raise ConfigError("tactic_matrices.ranges", got, "a non-empty list of the "
                              "experiment's ranges: " + ", ".join(known))
        out["ranges"] = [str(r) for r in got]
    return out


def surprise(frame: pd.DataFrame, cost: str = "pv") -> pd.DataFrame:
    """Every duel between different units with a known ``cost`` (``pv`` or ``bv``; none
    when the frame lacks it), by surprise (most first): ``a``, ``b``, ``range``, ``score``,
    ``expected``, ``surprise``, the units the side labels name (``unit_a``, ``unit_b``), then
    the duel's other key columns (:func:`sim.alphastrike.duel.analysis.duels`)."""
    from sim.alphastrike.duel import analysis as DA

    d = DA.duels(frame)
    ca, cb = f"{cost}_a", f"{cost}_b"
    for c in (ca, cb):     # a round-robin without the cost: no duel to measure
        if c not in d.columns:
            d[c] = np.nan
    d = d[(d["unit_a"] != d["unit_b"]) & (d[ca] > 0) & (d[cb] > 0)].copy()
    x = np.log(d[ca].to_numpy(float) / d[cb].to_numpy(float))
    beta = DA.logistic_slope(x, d["score_a"].to_numpy(float),
                             d["trials"].fillna(1).to_numpy(float))
    d["expected"] = 1 / (1 + np.exp(-beta * x))
    d["surprise"] = (d["score_a"] - d["expected"]).abs()
    d = d.rename(columns={"score_a": "score"})
    cols = ["a", "b", "range", "score", "expected", "surprise"]
    keys = [c for c in _KEYS if c in d.columns and c not in cols]
    return d.sort_values(["surprise", "a", "b", "range"], ascending=[False, True, True, True],
                         kind="stable")[cols + ["unit_a", "unit_b"] + keys
                                        ].reset_index(drop=True)


#: the scenario parameters a duel row of :func:`sim.alphastrike.duel.analysis.duels` keeps
_KEYS = ("a", "b", "range", "policy_a", "policy_b", "moved_a", "moved_b", "terrain_a",
         "terrain_b", "gunnery_a", "gunnery_b", "piloting_a", "piloting_b", "physical_a",
         "physical_b", "turns", "rule_overrides")


def picks(frame: pd.DataFrame, pairings: int, cost: str = "pv",
          ranges: Sequence[str] | None = None) -> list[tuple[str, pd.Series]]:
    """The ``pairings`` most surprising duels (``("most", row)``, most first) and as many
    least surprising (``("least", row)``, least first) of :func:`surprise`, among the duels
    at ``ranges`` (their string values; None: every range). The surprise is measured
    against the curve fitted over every range either way; fewer when the round-robin has
    fewer than twice as many duels there."""
    s = surprise(frame, cost)
    if ranges is not None:
        s = s[s["range"].astype(str).isin([str(r) for r in ranges])].reset_index(drop=True)
    n = min(int(pairings), len(s) // 2)
    return ([("most", s.iloc[i]) for i in range(n)]
            + [("least", s.iloc[len(s) - 1 - i]) for i in range(n)])


def scenario_of(row: pd.Series, scenarios: Sequence[Mapping[str, Any]],
                sides: tuple[str, str]) -> dict[str, Any]:
    """The round-robin scenario of a duel row of :func:`surprise`: the one whose units (the
    side label, e.g. ``"Atlas AS7-D@4"``, or the unit it names), range and every other key
    column the row has match (as text). ValueError when none or
    several do."""
    want = {k: row[k] for k in _KEYS if k not in ("a", "b") and k in row.index}

    def side(p: Mapping[str, Any], i: int) -> bool:   # the label, or the unit it names
        s, lab = sides[i], "ab"[i]
        return s in p and str(p[s]) in (str(row[lab]), str(row.get(f"unit_{lab}", row[lab])))

    hits = [dict(p) for p in scenarios
            if side(p, 0) and side(p, 1) and "range" in p
            and all(str(p.get(k)) == str(v) for k, v in want.items() if k in p)]
    if len(hits) != 1:
        raise ValueError(f"{len(hits)} scenarios match the duel {row['a']} vs {row['b']} at "
                         f"range {row['range']}")
    return hits[0]


def matrices(frame: pd.DataFrame, cfg: Mapping[str, Any], seed: int,
             scenarios: Sequence[Mapping[str, Any]], model: str = "duel"
             ) -> list[dict[str, Any]]:
    """The tactic matrix of the ``cfg['pairings']`` most and as many least surprising duels
    (:func:`picks`) of a round-robin of ``model`` (summary ``frame``, its ``scenarios``),
    each played from its own scenario's parameters by the game's runner (:data:`GAMES`).
    Each entry: ``kind`` (``most`` / ``least``), the pairing, ``cost`` (``pv``/``bv``), its
    score, expected score and surprise, the trials and the matrix
    (:meth:`sim.tactics.TacticMatrix.to_dict`)."""
    game = GAMES[model]
    run = game.run()
    out = []
    for kind, r in picks(frame, int(cfg["pairings"]), game.cost, cfg.get("ranges")):
        p = scenario_of(r, scenarios, game.sides)
        a, b = p.pop(game.sides[0]), p.pop(game.sides[1])
        for k in ("tactic_a", "tactic_b"):
            p.pop(k, None)
        trials = int(cfg.get("trials") or game.trials)
        m = run(a, b, cfg.get("tactics"), trials=trials, seed=seed, **p)
        out.append({"kind": kind, "a": r["a"], "b": r["b"], "range": r["range"],
                    "cost": game.cost, "score": float(r["score"]),
                    "expected": float(r["expected"]), "surprise": float(r["surprise"]),
                    "trials": trials, "matrix": m.to_dict()})
    return out


__all__ = ["DEFAULTS", "GAMES", "Game", "check", "matrices", "picks", "scenario_of",
           "surprise"]
