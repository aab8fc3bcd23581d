"""How competent is ``competent``? (issue 22) -- for an ordered pair of catalog Alpha Strike
cards, whether ``competent`` A against ``competent`` B scores at least what every other named
tactic scores for A against a competent B.

A's score is P(A wins) + 1/2 P(draw or timeout). Every cell is the exact chain's answer
(Monte Carlo with ``trials`` where the chain does not fit, with a 2-SE allowance), so the
comparison is exact: ``competent`` passes a pair when its score is at least the best other
tactic's minus ``tol``. The pairs are a fixed-seed sample of the ordered pairs of distinct
catalog cards (:func:`sample_pairs`). ``tools/competence.py`` prints the share.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def sample_pairs(n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` ordered pairs of distinct catalog cards, drawn without replacement (fixed seed)."""
    from sim.units import catalog

    names = sorted(e.name for e in catalog.entries() if e.card is not None)
    pairs = [(a, b) for a in names for b in names if a != b]
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(pairs), size=min(n, len(pairs)), replace=False)
    return [pairs[i] for i in sorted(idx)]


def score(a: str, b: str, ta: str, tb: str, params: dict[str, Any],
          trials: int, exact: bool = True) -> tuple[float, float]:
    """(A's score, its standard error) of one pairing: exact where the chain fits (and
    ``exact``), else Monte Carlo with ``trials`` (seed 0 for every cell: common dice)."""
    from sim.alphastrike.duel.model import MODEL
    from sim.api import run_scenario

    p = {"a": a, "b": b, "tactic_a": ta, "tactic_b": tb, **params}
    ex = MODEL.exact(MODEL.scenario(p)) if exact else None
    if ex is not None:
        pa, pb = float(ex["p_win_a"][0]), float(ex["p_win_b"][0])
        return pa + 0.5 * (1.0 - pa - pb), 0.0
    r = run_scenario(MODEL, p, trials=trials, seed=0, n_jobs=1, progress=False,
                     with_exact=False).frame.iloc[0]
    pa, pb = float(r["p_win_a"]), float(r["p_win_b"])
    return pa + 0.5 * (1.0 - pa - pb), max(float(r["p_win_a_se"]), float(r["p_win_b_se"]))


def check_pair(a: str, b: str, params: dict[str, Any], tol: float = 1e-6,
               trials: int = 4000, exact: bool = True) -> dict[str, Any]:
    """Every named tactic for A against competent B; whether competent is best."""
    from sim.alphastrike.duel.tactics import NAMES

    scores = {t: score(a, b, t, "competent", params, trials, exact) for t in NAMES}
    comp, comp_se = scores["competent"]
    best = max((t for t in NAMES if t != "competent"), key=lambda t: scores[t][0])
    b_val, b_se = scores[best]
    allow = tol + 2.0 * float(np.hypot(comp_se, b_se))
    return {"a": a, "b": b, "competent": comp, "best_other": best, "best_other_score": b_val,
            "margin": comp - b_val, "ok": comp >= b_val - allow,
            "scores": {t: s for t, (s, _) in scores.items()}}
