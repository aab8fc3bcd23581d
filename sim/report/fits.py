"""The duel analysis of a round-robin result, computed once per build: the report section
and the explorer (:mod:`sim.explorer.sources`) read the same numbers (the ratings'
bootstrap is the costliest number of the report)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.report.types import Result

#: bootstrap replicates of the rating intervals and the fairness band (fixed seed)
N_BOOT = 200


def seed_of(res: Result) -> int:
    """The run's seed (0 when the metadata has none): the bootstraps' seed."""
    from sim.report.formatting import finite

    s = res.meta.get("seed")
    return int(s) if isinstance(s, int | float) and finite(s) else 0


def duels(res: Result) -> pd.DataFrame:
    """One row per duel of ``res`` (:func:`sim.alphastrike.duel.analysis.duels`), once."""
    from sim.alphastrike.duel import analysis as DA

    return res.memo(("duels",), lambda: DA.duels(res.frame))


def ratings(res: Result, cost: str = "pv", n_boot: int = N_BOOT) -> Any:
    """:func:`sim.alphastrike.duel.analysis.ratings` of round-robin ``res`` (``n_boot``
    replicates, the run's seed), once per result."""
    from sim.alphastrike.duel import analysis as DA

    return res.memo(("ratings", cost, n_boot), lambda: DA.ratings(
        duels(res), n_boot=n_boot, seed=seed_of(res), cost=cost))


def fairness(res: Result, cost: str = "pv", n_boot: int = N_BOOT) -> Any:
    """:func:`sim.alphastrike.duel.analysis.fairness` of ``res`` over every range, once."""
    from sim.alphastrike.duel import analysis as DA

    return res.memo(("fairness", cost, n_boot), lambda: DA.fairness(
        duels(res), n_boot=n_boot, seed=seed_of(res), cost=cost))


def outliers(res: Result, cost: str = "pv", n_boot: int = N_BOOT) -> pd.DataFrame:
    """:func:`sim.alphastrike.duel.analysis.cost_outliers` of :func:`ratings` and
    :func:`fairness`, once."""
    from sim.alphastrike.duel import analysis as DA

    return res.memo(("outliers", cost, n_boot), lambda: DA.cost_outliers(
        ratings(res, cost, n_boot), fairness(res, cost, n_boot), cost))
