"""Sensitivity of an experiment's metrics to its grid factors ("scale factors").

For a results folder of an experiment with a ``[grid]``, each factor ``f`` with values
``v_0 .. v_L`` (in file order) gets, for each chosen metric ``m``, its *one-step change*:
the change of ``m`` from one grid value of ``f`` to the next, averaged over every setting
of the other factors (cases, other grid axes, and the rows of multi-row models such as
turns)::

    effect = mean over other settings of (m(v_L) - m(v_0)) / L

with standard error ``sqrt(sum (SE(v_L)^2 + SE(v_0)^2)) / (J L)`` over the ``J`` other
settings (independent streams). When ``f`` is a paired axis whose baseline is ``v_0`` or
``v_L``, the paired difference and its (smaller) standard error are used. An effect under
2 standard errors is flagged "not significant". Where every value has an exact twin
(``m_exact``), the exact values are used (standard error 0) and the source says "exact".
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import ConfigError, UserError


def _experiment(meta: dict[str, Any]) -> Any:
    import dataclasses

    from sim.experiment import Experiment

    raw = dict(meta.get("experiment") or {})
    names = {f.name for f in dataclasses.fields(Experiment)}
    return Experiment(**{k: v for k, v in raw.items() if k in names})


def sensitivity(folder: str | os.PathLike[str], metrics: Sequence[str] | None = None,
                frame: pd.DataFrame | None = None,
                meta: dict[str, Any] | None = None) -> pd.DataFrame:
    """One row per (metric, factor): ``metric``, ``factor``, ``first``, ``last``, ``steps``,
    ``effect`` (one-step change), ``se``, ``z``, ``significant``, ``source`` (``exact``,
    ``monte-carlo`` or ``paired``) and ``settings`` (how many other settings were averaged).
    """
    from sim import results

    if frame is None or meta is None:
        path = Path(folder)
        if not (path / "summary.parquet").is_file():
            raise UserError(f"The 'results_dir' parameter must be a results folder "
                            f"(summary.parquet, metadata.json); got {str(path)!r}.")
        frame, meta = results.read(path)
    exp = _experiment(meta)
    axes = [k for k, v in exp.grid.items() if len(v) >= 2]
    if not axes:
        raise UserError(f"sensitivity needs an experiment with a [grid] factor of 2 or more "
                        f"values; {exp.name!r} has none.")
    kinds = dict(meta.get("metric_kinds") or frame.attrs.get("metric_kinds") or {})
    chosen = list(metrics) if metrics else [m for m, k in kinds.items()
                                             if k != "hist" and m in frame.columns]
    for m in chosen:
        if m not in frame.columns or kinds.get(m) == "hist":
            raise ConfigError("metric", m, "a probability or mean metric of this result: "
                              + ", ".join(k for k, v in kinds.items() if v != "hist"))
    keys = list(exp.grid)
    shape = [len(exp.grid[k]) for k in keys]
    n_cases = len(exp.cases or [{}])
    n_scen = n_cases * int(np.prod(shape))
    if len(frame) % n_scen:
        raise UserError(f"results {exp.name!r} do not match their experiment's grid "
                        f"({len(frame)} rows for {n_scen} scenarios)")
    per = len(frame) // n_scen
    pos = np.arange(len(frame))
    scen, row = pos // per, pos % per
    combo = np.array(list(itertools.product(*(range(n) for n in shape))) or [()])
    n_combo = len(combo)
    case = scen // n_combo
    idx = combo[scen % n_combo] if keys else np.zeros((len(frame), 0), int)
    out = []
    for m in chosen:
        has_exact = m + "_exact" in frame.columns and frame[m + "_exact"].notna().all()
        values = frame[m + "_exact" if has_exact else m].to_numpy(np.float64)
        ses = (np.zeros(len(frame)) if has_exact or m + "_se" not in frame.columns
               else frame[m + "_se"].to_numpy(np.float64))
        for j, f in enumerate(keys):
            steps = shape[j] - 1
            if steps < 1:
                continue
            others = [c for c in range(len(keys)) if c != j]
            key = [tuple(x) for x in np.column_stack([case, row, idx[:, others]])]
            first = {k: i for i, k in enumerate(key) if idx[i, j] == 0}
            last = {k: i for i, k in enumerate(key) if idx[i, j] == steps}
            base = exp.baseline.get(f, exp.grid[f][0]) if f in exp.paired else None
            paired = (not has_exact and f in exp.paired and m + "_diff_se" in frame.columns
                      and base in (exp.grid[f][0], exp.grid[f][-1]))
            deltas, var = [], []
            for k, i0 in first.items():
                i1 = last[k]
                if paired:
                    far = i1 if base == exp.grid[f][0] else i0
                    d = frame[m + "_diff"].iloc[i1] - frame[m + "_diff"].iloc[i0]
                    v = float(frame[m + "_diff_se"].iloc[far]) ** 2
                else:
                    d = values[i1] - values[i0]
                    v = ses[i1] ** 2 + ses[i0] ** 2
                if math.isnan(d) or math.isnan(v):
                    continue
                deltas.append(d)
                var.append(v)
            if not deltas:
                continue
            n = len(deltas)
            effect = float(np.mean(deltas)) / steps
            se = math.sqrt(sum(var)) / (n * steps)
            z = effect / se if se > 0 else (0.0 if effect == 0 else math.inf)
            out.append({"metric": m, "factor": f, "first": exp.grid[f][0],
                        "last": exp.grid[f][-1], "steps": steps, "effect": effect, "se": se,
                        "z": z, "significant": bool(abs(z) >= 2),
                        "source": "exact" if has_exact else ("paired" if paired
                                                             else "monte-carlo"),
                        "settings": n})
    res = pd.DataFrame(out)
    res.attrs["name"] = exp.name
    return res


def tornado(table: pd.DataFrame, folder: str | os.PathLike[str],
            stem: str = "sensitivity") -> list[Path]:
    """Tornado plot of :func:`sensitivity` (one panel per metric, factors sorted by |effect|,
    error bars of 2 SE, grey bars not significant), written atomically as
    ``<stem>.png`` and ``<stem>.svg`` in ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(table["metric"]))
    n_f = max(1, table.groupby("metric").size().max())
    fig, axes = plt.subplots(len(metrics), 1, figsize=(7, 0.5 + (0.45 * n_f + 0.8)
                                                      * len(metrics)), squeeze=False)
    for ax, m in zip(axes[:, 0], metrics, strict=True):
        t = table[table["metric"] == m].copy()
        t = t.iloc[np.argsort(t["effect"].abs().to_numpy())]
        colors = ["tab:blue" if s else "lightgrey" for s in t["significant"]]
        labels = [f"{f} ({a}->{b}, /step)" for f, a, b in zip(t["factor"], t["first"],
                                                                t["last"], strict=True)]
        ax.barh(labels, t["effect"], xerr=2 * t["se"], color=colors, capsize=3)
        ax.axvline(0, color="black", lw=0.8)
        src = ", ".join(sorted(set(t["source"])))
        ax.set_title(f"{m}: one-step change ({src}); grey: not significant (< 2 SE)",
                     fontsize=9)
    fig.tight_layout()
    folder = Path(folder)
    paths = []
    for ext in ("png", "svg"):
        final = folder / f"{stem}.{ext}"
        fd, tmp = tempfile.mkstemp(prefix=f".{stem}.", suffix=f".{ext}", dir=folder)
        os.close(fd)
        try:
            fig.savefig(tmp, dpi=120)
            os.replace(tmp, final)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        paths.append(final)
    plt.close(fig)
    return paths
