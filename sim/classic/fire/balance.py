"""Derived balance metrics of Classic weapon fire (issue 11, "Report"), read from saved
``fire`` and ``profile`` summary frames: the order of the firing policies, ranks, the
catalog ranking by damage at one range, and the best policy per unit.

The report sections (:mod:`sim.report.sections.weapon_fire`,
:mod:`sim.report.sections.fire_profiles`) draw and quote these; the definitions live here,
beside the model, so a notebook gets the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from sim.classic.fire import heat as H
from sim.summary import estimate

#: the range the catalog ranking is read at (hexes): medium range of most 'Mech weapons
RANK_RANGE = 6
#: the profile metrics, in the order the report shows them
PROFILE_METRICS = ("max_damage", "hit_weighted", "sustained")


def policy_sort_key(label: str) -> tuple[int, float, str]:
    """Firing policies from the coolest to the hottest: ``neutral`` (heat never rises),
    ``below:H`` by H, ``max-expected``, ``all``; anything else (a callable) last."""
    if label == "neutral":
        return 0, 0.0, label
    kind, _, arg = label.partition(":")
    if kind == "below" and arg.isdigit():
        return 1, float(arg), label
    if label == "max-expected":
        return 2, 0.0, label
    if label == "all":
        return 3, 0.0, label
    return 4, 0.0, label


def ordered_policies(labels: Iterable[str]) -> list[str]:
    """Distinct policy labels from the coolest to the hottest (:func:`policy_sort_key`)."""
    return sorted(dict.fromkeys(str(p) for p in labels), key=policy_sort_key)


def rank_desc(values: pd.Series) -> pd.Series:
    """Rank 1 = the highest value; tied values share the best rank (1, 2, 2, 4); NaN stays
    unranked (NaN)."""
    return values.rank(ascending=False, method="min")


def closest_range(ranges: Iterable[float], want: int = RANK_RANGE) -> int:
    """``want`` if it is among the profile's ranges, else the nearest one (lower on ties)."""
    vals = sorted({int(r) for r in ranges})
    if not vals:
        raise ValueError("no ranges in the profile frame")
    return min(vals, key=lambda r: (abs(r - want), r))


def profile_at(frame: pd.DataFrame, rng: int, units: Sequence[str],
               policies: Sequence[str]) -> pd.DataFrame:
    """The profile of every unit at range ``rng``: one row per unit, columns ``max_damage``,
    ``hit_weighted`` (policy-free: read from the first policy's row), and per policy ``p``
    ``sustained|p``, ``sustained_ci_low|p``, ``sustained_ci_high|p`` (the Monte Carlo 95%
    interval; NaN for an exact-only run).

    A unit whose longest weapon range is below ``rng`` has no row there: it deals 0 (its
    interval is NaN). Values are exact where the model computed them, else Monte Carlo.
    """
    f = frame[frame["range"].astype(int) == int(rng)]
    cols = ["max_damage", "hit_weighted"] + [f"{m}|{p}" for p in policies for m in
                                             ("sustained", "sustained_ci_low",
                                              "sustained_ci_high")]
    out = pd.DataFrame(np.nan, index=list(units), columns=cols, dtype=float)
    out.loc[:, ["max_damage", "hit_weighted"] + [f"sustained|{p}" for p in policies]] = 0.0
    for u in units:
        g = f[f["unit"].astype(str) == u]
        for j, p in enumerate(policies):
            gp = g[g["policy"].astype(str) == p]
            if gp.empty:
                continue
            if j == 0 or out.loc[u, "max_damage"] == 0:
                out.loc[u, "max_damage"] = float(estimate(gp, "max_damage").iloc[0])
                out.loc[u, "hit_weighted"] = float(estimate(gp, "hit_weighted").iloc[0])
            out.loc[u, f"sustained|{p}"] = float(estimate(gp, "sustained").iloc[0])
            for b in ("ci_low", "ci_high"):
                c = f"sustained_{b}"
                if c in gp.columns:
                    out.loc[u, f"{c}|{p}"] = float(pd.to_numeric(gp[c]).iloc[0])
    return out


def best_policy(values: pd.Series) -> str:
    """The label of the highest value in a series indexed by policy (first on ties, in the
    series' order)."""
    v = pd.to_numeric(values, errors="coerce")
    if not v.notna().any():
        raise ValueError("no finite value to choose a best policy from")
    return str(v.idxmax())


#: heat bands of the heat scale (13.1), as (label, first level, first level past the band):
#: no effect; movement and to-hit penalties; shutdown avoidance rolls; also ammunition
#: explosion rolls; automatic shutdown
HEAT_BANDS: tuple[tuple[str, int, int], ...] = (
    ("0-4: no effect", 0, 5),
    (f"5-{H.AUTO_RESTART_BELOW - 1}: slowed, to-hit penalty from 8", 5, H.AUTO_RESTART_BELOW),
    (f"{H.AUTO_RESTART_BELOW}-{H.AMMO_CHECK_FROM - 1}: shutdown rolls", H.AUTO_RESTART_BELOW,
     H.AMMO_CHECK_FROM),
    (f"{H.AMMO_CHECK_FROM}-{H.AUTO_SHUTDOWN - 1}: shutdown and ammo rolls", H.AMMO_CHECK_FROM,
     H.AUTO_SHUTDOWN),
    (f"{H.AUTO_SHUTDOWN}+: automatic shutdown", H.AUTO_SHUTDOWN, 10 ** 9),
)


def hist_rows(frame: pd.DataFrame, metric: str) -> np.ndarray | None:
    """A histogram metric as a (rows, bins) array of probabilities: the exact column where
    the model computed one, else the Monte Carlo one; None when the frame has neither."""
    for col in (metric + "_exact", metric):
        if col in frame.columns:
            cells = [np.asarray(v, dtype=float) if v is not None else None
                     for v in frame[col]]
            if all(c is not None and c.ndim == 1 and c.size for c in cells):
                width = max(c.size for c in cells if c is not None)
                out = np.zeros((len(cells), width))
                for i, c in enumerate(cells):
                    assert c is not None
                    out[i, :c.size] = c
                return out
    return None


def heat_bands(hist: np.ndarray) -> np.ndarray:
    """Heat-level distributions (rows, levels; the last level holds everything above it)
    summed into :data:`HEAT_BANDS`: (rows, bands)."""
    hist = np.atleast_2d(np.asarray(hist, dtype=float))
    levels = np.arange(hist.shape[1])
    return np.stack([hist[:, (levels >= lo) & (levels < hi)].sum(axis=1)
                     for _, lo, hi in HEAT_BANDS], axis=1)
