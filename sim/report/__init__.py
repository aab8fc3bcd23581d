"""The balance report: figures, derived tables, generated findings, HTML and Markdown.

``build_report(results_dir)`` reads every ``results/<experiment>/`` folder written by
``btsim run`` (``summary.parquet`` + ``metadata.json``), never reruns anything, and writes:

* for each experiment, its figures as PNG (150 dpi) and SVG beside its data;
* ``results/report.html``: one self-contained page (CSS inline, figures embedded as base64
  PNG) that opens offline;
* ``results/report.md``: the same text, with the figures linked by relative path.

Every file is written atomically (temporary file, then rename).

Layout
------
* :mod:`~sim.report.types` -- results, tables, findings, figures, sections;
* :mod:`~sim.report.formatting` -- numbers, percentages, footnotes (one format per number);
* :mod:`~sim.report.rendering` -- HTML and Markdown;
* :mod:`~sim.report.registry` -- the ``@section("name")`` decorator and the lookup;
* :mod:`~sim.report.sections` -- one module per section, found automatically;
* :mod:`~sim.report.build` -- loading results and writing the report;
* :mod:`~sim.report.classic`, :mod:`~sim.report.figures` -- helpers the sections share.

An experiment names its section with ``report = "name"`` (default ``"generic"``); the name is
checked when the experiment is loaded and recorded in the results' metadata.

Which number a table shows
--------------------------
For each metric the report shows the **exact** value where the model computed one (column
``<m>_exact``) and the Monte Carlo mean otherwise (:func:`value`). Figures show both: the Monte
Carlo mean with its 95% interval, and the exact value as a black marker or dashed line.

Findings
--------
The lead is generated from the numbers. A section builder returns :class:`Finding` objects,
each naming the table cell it quotes (table key, row, column) and the value; its text embeds
that cell's formatted value verbatim, so ``tests/report`` can check that every number in the
lead equals its table.

Derived balance metrics (self-risk, net damage, damage per self-risk, survival, turns gained)
are the models' (:mod:`sim.classic.balance`, :mod:`sim.alphastrike.balance`); the report only
shows them.
"""

from __future__ import annotations

from sim.classic.balance import NET_DEFINITION, RATIO_DEFINITION, RISK_FLOOR, risk_ratio, self_risk
from sim.report.build import build_report, build_section, check_findings, load_results
from sim.report.classic import (
    NO_RISK,
    attack_label,
    cell_label,
    missing_text,
    ordered_attacks,
    reason_text,
    tick_label,
)
from sim.report.formatting import exact_of, fmt_num, fmt_pct, footnote_text, grid_text, mc_ci, value
from sim.report.registry import DEFAULT, SectionSpec, names, section
from sim.report.rendering import render_html, render_markdown
from sim.report.types import (
    ColumnTable,
    FigureFile,
    Finding,
    Report,
    Result,
    Section,
    Table,
)

__all__ = [
    "DEFAULT", "NET_DEFINITION", "NO_RISK", "RATIO_DEFINITION", "RISK_FLOOR", "ColumnTable",
    "FigureFile", "Finding", "Report", "Result", "Section", "SectionSpec", "Table",
    "attack_label", "build_report", "build_section", "cell_label", "check_findings",
    "exact_of", "fmt_num", "fmt_pct", "footnote_text", "grid_text", "load_results", "mc_ci",
    "missing_text", "names", "ordered_attacks", "reason_text", "render_html",
    "render_markdown", "risk_ratio", "section", "self_risk", "tick_label",
    "value",
]
