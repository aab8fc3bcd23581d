"""sim.report.outliers: the outlier findings both round-robin sections share (one helper for
Alpha Strike PV and Classic BV)."""

from __future__ import annotations

import math

import pandas as pd

from sim.report.outliers import OutlierWords, outlier_findings


def _fmt(v: float) -> str:
    return "–" if not math.isfinite(v) else f"{v:.0f}"


def _p(v: float) -> str:
    return f"{v:.2g}"


def _case(price: str, by: str) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, str], OutlierWords]:
    label = {"Atlas": "Atlas", "Locust": "Locust*", "Griffin": "Griffin"}
    table = pd.DataFrame(
        {price: [30.0, 25.0, 20.0], f"fair {price}": [45.0, 24.0, math.nan],
         f"fair {price} low": [38.0, 18.0, 2.0], f"fair {price} high": [52.0, 31.0, 9.0],
         "Holm p": [0.001, 0.9, 0.2]},
        index=["Atlas", "Griffin", "Locust*"])
    headline = pd.DataFrame({"unit": ["Atlas", "Griffin", "Locust"],
                             "residual": [1.2, 0.0, -0.8], "beyond_data": [False, False, True],
                             "p_holm": [0.001, 0.9, 0.2], "stands_out": [True, False, False]})
    words = OutlierWords(price, _fmt, _p, "outliers", "a card", by, "specials not simulated")
    return table, headline, label, words


def test_a_unit_that_stands_out_and_the_far_end_that_does_not():
    table, hl, label, words = _case("PV", "")
    out = outlier_findings("r", hl[hl["stands_out"]], table, hl, label, set(), words, "A")
    assert len(out) == 2
    first, last = out
    assert first.text.startswith("Atlas (PV 30) stands out as under-costed: it plays like a "
                                 "card of PV 45 (38 to 52), Holm-corrected p-value 0.001 (A)")
    assert [(q[2], q[3]) for q in first.quotes] == [
        ("PV", 30.0), ("fair PV", 45.0), ("fair PV low", 38.0), ("fair PV high", 52.0),
        ("Holm p", 0.001)]
    assert "Furthest on the over-costed side: Locust*" in last.text
    assert "extrapolation beyond the catalog's PVs" in last.text and not last.lead
    assert all(math.isfinite(q[3]) for q in last.quotes)


def test_the_classic_words_and_an_incomplete_unit():
    table, hl, label, words = _case("BV", " by BV")
    out = outlier_findings("r", hl.iloc[:0], table, hl, label, {"Atlas"}, words, "A")
    assert [f.text.split(":")[0] for f in out] == [
        "Furthest on the under-costed side by BV", "Furthest on the over-costed side by BV"]
    assert "not a verdict: specials not simulated" in out[0].text
    one = outlier_findings("r", hl.iloc[:0], table.iloc[:1], hl, label, set(), words, "A")
    assert one == []
