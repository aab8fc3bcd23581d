"""Report section ``generic``, the default: a table of an experiment's main metrics (first 30
rows) and a bar chart of the first metric. Any model's results render with it; histogram
metrics (a distribution per row) are left out of the table and never taken for a parameter."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim import plots
from sim.report.figures import bar_series
from sim.report.formatting import fmt_num, fmt_pct, footnote_text, value
from sim.report.registry import section
from sim.report.types import ColumnTable, Result, Section


def _hashable(col: pd.Series) -> bool:
    """Whether a column's cells can be compared and counted (not arrays or lists, as in a
    histogram metric's cells)."""
    return not col.map(lambda v: isinstance(v, list | tuple | dict | set | np.ndarray)).any()


@section("generic", order=1000)
def build(res: Result) -> Section:
    """A fallback for experiments without a dedicated builder: a table of the main metrics."""
    sec = Section(res)
    f = res.frame
    kinds = res.kinds
    metrics = [m for m in kinds if kinds[m] != "hist"][:6] or [
        c[:-6] for c in f.columns if c.endswith("_exact")][:6]
    # every metric's columns (histograms included: a cell holds an array) are no parameter
    declared = set(kinds) | set(metrics)
    params = [c for c in f.columns if not any(c == m or c.startswith(m + "_") for m in declared)
              and c not in ("trials",) and _hashable(f[c]) and f[c].nunique(dropna=False) > 1
              ][:4]
    sub = f.head(30)
    idx = [" / ".join(str(sub[p].iloc[i]) for p in params) or str(i) for i in range(len(sub))]
    vals = pd.DataFrame({m: value(sub, m).to_numpy() for m in metrics}, index=idx)
    cf = {m: (fmt_pct if kinds.get(m) == "probability" else fmt_num) for m in metrics}
    sec.tables.append(ColumnTable("summary", "Summary (first 30 rows)", vals, cf,
                                   index_name=" / ".join(params)))
    if metrics and len(sub) <= 40:
        m = metrics[0]
        with plots.style():
            fig, axes = plots.new_figure(1, 1, width=10, height=4.5)
            s = bar_series(sub.assign(lbl=idx), "lbl", idx, m)
            plots.grouped_bars(axes[0, 0], idx, {m: s}, ylabel=m, title=m)
            for lab in axes[0, 0].get_xticklabels():
                lab.set_rotation(45)
                lab.set_ha("right")
            plots.footnote(fig, footnote_text(res))
            sec.add_figure(fig, "fig_summary", m, f"{m} per scenario.")
    return sec


# -------------------------------------------------------------------------------------------
# loading, rendering, writing
