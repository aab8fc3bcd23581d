"""A synthetic catalog of rated units for the explorer's size and speed checks: a rating
summary (the columns ``btsim rate`` writes, :data:`sim.explorer.sources.RATING_COLUMNS`)
of ``n`` made-up units in ``root/<name>/ratings.csv``. The numbers are smooth functions of
the unit's index, not a model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def rating_summary(root: Path, n: int, name: str = "rating_synth") -> Path:
    """Write the rating summary of ``n`` synthetic units; returns the file."""
    rng = np.random.default_rng(5)
    price = np.round(15 + 40 * rng.random(n))
    fair = price * np.exp(rng.normal(0, 0.2, n))
    half = fair * 0.08
    verdict = np.where(fair - half > price, "under-priced",
                       np.where(fair + half < price, "over-priced", "fair"))
    f = pd.DataFrame({"unit": [f"Synth {k:04d}" for k in range(n)], "price": price,
                      "fair_price": fair, "fair_price_ci_low": fair - half,
                      "fair_price_ci_high": fair + half, "ratio": price / fair,
                      "verdict": verdict, "robustness": rng.choice(["robust", "fragile"], n),
                      "n": np.full(n, 40)})
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    f.to_csv(folder / "ratings.csv", index=False)
    return folder / "ratings.csv"
