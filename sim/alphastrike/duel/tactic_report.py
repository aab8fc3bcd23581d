"""The tactic matrices of a round-robin's most and least surprising pairings (issue 22).

*Surprise* of a duel (a pairing at one range): ``|score - expected|``, where ``score`` is A's
observed score in the round-robin (P(win) + 1/2 P(draw or timeout),
:func:`sim.alphastrike.duel.analysis.duels`) and ``expected`` the score the round-robin's own
PV fairness curve predicts for A from the PV ratio
(:func:`sim.alphastrike.duel.analysis.fair_score`, slope fitted over every duel between
different cards). The most surprising pairings are those the price explains worst; the least,
those it explains best. For each, :func:`matrices` plays every named tactic of A against
every one of B at that range (:func:`sim.alphastrike.duel.api.tactic_matrix`, Monte Carlo
with the experiment's ``trials``): does the verdict depend on the tactic?

The round-robin experiment computes them once, after its grid (experiment key
``tactic_matrices``), and records them in its metadata; the report section only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import ConfigError, check_int

#: the keys of an experiment's ``tactic_matrices`` table and their defaults
DEFAULTS: dict[str, Any] = {"pairings": 3, "trials": 2000, "tactics": None}


def check(cfg: Any, model: str) -> dict[str, Any]:
    """Validate an experiment's ``tactic_matrices`` table (ConfigError naming the key)."""
    if not isinstance(cfg, Mapping):
        raise ConfigError("tactic_matrices", cfg, "a table: pairings, trials, tactics")
    if model != "duel":
        raise ConfigError("tactic_matrices", model, "only with model = \"duel\"")
    bad = [k for k in cfg if k not in DEFAULTS]
    if bad:
        raise ConfigError(f"tactic_matrices.{bad[0]}", cfg[bad[0]],
                          "one of " + ", ".join(DEFAULTS))
    out = {**DEFAULTS, **cfg}
    out["pairings"] = check_int("tactic_matrices.pairings", out["pairings"], 1, 10)
    out["trials"] = check_int("tactic_matrices.trials", out["trials"], 100, 10**6)
    if out["tactics"] is not None:
        from sim.alphastrike.duel.api import _tactic_names

        out["tactics"] = list(_tactic_names(out["tactics"]))
    return out


def surprise(frame: pd.DataFrame) -> pd.DataFrame:
    """Every duel between different cards with a known PV, by surprise (most first):
    ``a``, ``b``, ``range``, ``score``, ``expected``, ``surprise``."""
    from sim.alphastrike.duel import analysis as DA

    d = DA.duels(frame)
    d = d[(d["unit_a"] != d["unit_b"]) & (d["pv_a"] > 0) & (d["pv_b"] > 0)].copy()
    x = np.log(d["pv_a"].to_numpy(float) / d["pv_b"].to_numpy(float))
    beta = DA.logistic_slope(x, d["score_a"].to_numpy(float),
                             d["trials"].fillna(1).to_numpy(float))
    d["expected"] = 1 / (1 + np.exp(-beta * x))
    d["surprise"] = (d["score_a"] - d["expected"]).abs()
    d = d.rename(columns={"score_a": "score"})
    cols = ["a", "b", "range", "score", "expected", "surprise"]
    return d.sort_values(["surprise", "a", "b", "range"], ascending=[False, True, True, True],
                         kind="stable")[cols].reset_index(drop=True)


def matrices(frame: pd.DataFrame, cfg: Mapping[str, Any], seed: int = 0,
             base: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The tactic matrix of the ``cfg['pairings']`` most and as many least surprising duels
    of a round-robin summary ``frame`` (``base``: the scenarios' other parameters, e.g. rule
    overrides). Each entry: ``kind`` (``most`` / ``least``), the pairing, its surprise and the
    matrix (:meth:`sim.tactics.TacticMatrix.to_dict`)."""
    from sim.alphastrike.duel.api import tactic_matrix

    s = surprise(frame)
    n = min(int(cfg["pairings"]), len(s) // 2)
    picks = [("most", s.iloc[i]) for i in range(n)]
    picks += [("least", s.iloc[len(s) - 1 - i]) for i in range(n)]
    out = []
    for kind, r in picks:
        m = tactic_matrix(r["a"], r["b"], cfg.get("tactics"), trials=int(cfg["trials"]),
                          seed=seed, range=r["range"], **dict(base or {}))
        out.append({"kind": kind, "a": r["a"], "b": r["b"], "range": r["range"],
                    "score": float(r["score"]), "expected": float(r["expected"]),
                    "surprise": float(r["surprise"]), "trials": int(cfg["trials"]),
                    "matrix": m.to_dict()})
    return out


__all__ = ["DEFAULTS", "check", "matrices", "surprise"]
