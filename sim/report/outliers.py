"""The outlier findings of a round-robin section (issue 23's "a verdict is a claim with its
evidence"), written once for Alpha Strike PV (``duel_round_robin``) and Classic BV
(``classic_round_robin``): a finding for every unit that stands out from the fairness curve
after Holm's correction (:func:`sim.alphastrike.duel.analysis.headline_outliers`), and for each
end of the outlier table that does not, a "furthest on that side" finding saying why it is not
a verdict. Every number quoted is a cell of the outlier table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from sim.report.formatting import finite, num
from sim.report.types import Finding


@dataclass(frozen=True)
class OutlierWords:
    """What differs between the games: the price (``"PV"``/``"BV"``) and its formatter, the
    outlier table's key, what a unit is called (``"a card"``), the words after "stands out
    as under-costed" and after "Furthest on the under-costed side" (``" by BV"`` or ``""``),
    and why an incomplete unit gets no verdict."""

    price: str
    fmt: Callable[[float], str]
    fmt_p: Callable[[float], str]
    table: str
    noun: str
    by: str
    incomplete_why: str


def outlier_findings(name: str, stand: pd.DataFrame, table: pd.DataFrame,
                     headline: pd.DataFrame, label: Mapping[str, str], incomplete: set[str],
                     words: OutlierWords, assumptions: str) -> list[Finding]:
    """The findings (module docstring). ``stand``: the rows of ``headline`` that stand out;
    ``table``: the outlier table's values (index: display labels, first row the most
    under-costed, last the most over-costed); ``label``: unit -> its display label."""
    w, lab, f, fp = words, words.price, words.fmt, words.fmt_p
    out = []
    for _, o in stand.iterrows():
        key = str(label[o["unit"]])
        cv = {c: num(table.loc[key, c]) for c in table.columns}
        word = "under-costed" if o["residual"] > 0 else "over-costed"
        out.append(Finding(
            name, f"{key} ({lab} {f(cv[lab])}) stands out as {word}{w.by}: it plays like "
            f"{w.noun} of {lab} {f(cv[f'fair {lab}'])} ({f(cv[f'fair {lab} low'])} to "
            f"{f(cv[f'fair {lab} high'])}), Holm-corrected p-value {fp(cv['Holm p'])} "
            f"({assumptions}).",
            [(w.table, key, c, cv[c], g(cv[c])) for c, g in
             ((lab, f), (f"fair {lab}", f), (f"fair {lab} low", f), (f"fair {lab} high", f),
              ("Holm p", fp))]))
    if len(table) < 2:
        return out
    standing = set(stand["unit"])
    rows = headline.set_index("unit")
    for end, word in ((table.index[0], "under-costed"), (table.index[-1], "over-costed")):
        u = next(k for k, v in label.items() if v == end)
        if u in standing:
            continue
        o = table.loc[end]
        h = rows.loc[u]
        why = (w.incomplete_why if u in incomplete else
               f"its fair {lab} is an extrapolation beyond the catalog's {lab}s"
               if h["beyond_data"] else
               "its Holm-corrected p-value is not below the 5 percent level"
               if not h["p_holm"] < 0.05 else "the interval of its residual includes 0")
        out.append(Finding(
            name, f"Furthest on the {word} side{w.by}: {end} ({lab} {f(o[lab])}), fair {lab} "
            f"interval {f(o[f'fair {lab} low'])} to {f(o[f'fair {lab} high'])}; not a "
            f"verdict: {why} (Holm p {fp(o['Holm p'])}).",
            [(w.table, end, c, num(o[c]), g(o[c])) for c, g in
             ((lab, f), (f"fair {lab} low", f), (f"fair {lab} high", f), ("Holm p", fp))
             if finite(o[c])], lead=False))
    return out
