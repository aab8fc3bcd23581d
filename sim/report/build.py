"""Building the report: load every saved result, build its section, check that every quoted
number equals its table cell, render HTML and Markdown, and write both atomically."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from sim import plots
from sim.errors import UserError
from sim.report import registry, rendering
from sim.report.types import Report, Result, Section
from sim.results import atomic_write_text


def load_results(results_dir: str | Path) -> list[Result]:
    """Every experiment result under ``results_dir``, in report order: by the order of its
    section (:func:`registry.section`), then by experiment file name, then by name."""
    from sim.results import read

    root = Path(results_dir)
    if not root.is_dir():
        raise UserError(f"The 'results_dir' parameter must be an existing folder of results; "
                        f"got {str(root)!r} (not found). Run `btsim run experiments/*.toml` "
                        f"first.")
    out = []
    for sub in sorted(root.iterdir()):
        if sub.name.startswith(".") or not sub.is_dir():
            continue
        if not (sub / "summary.parquet").is_file() or not (sub / "metadata.json").is_file():
            continue
        frame, meta = read(sub)
        # the metric kinds and notes stay in ``meta``; pandas deep-copies a frame's attrs on
        # every column access and filter (tens of thousands in a report), so none are kept
        frame.attrs = {}
        # text columns as plain Python strings: pandas backs its ``str`` dtype with Arrow
        # arrays, and every row filter then runs an Arrow ``take`` per text column (13,000
        # in a report, ~1.5 s); a NumPy object column is taken in microseconds, same values
        text = [c for c in frame.columns if isinstance(frame[c].dtype, pd.StringDtype)]
        if text:
            frame[text] = frame[text].astype(object)
        out.append(Result(str(meta.get("name") or sub.name), sub, frame, meta))
    if not out:
        raise UserError(f"The 'results_dir' parameter must hold experiment results "
                        f"(<name>/summary.parquet and metadata.json); got {str(root)!r} with "
                        "none. Run `btsim run experiments/*.toml` first.")

    def key(r: Result) -> tuple[int, str]:
        return registry.for_result(r).order, Path(r.source).name or r.name

    return sorted(out, key=key)


def build_section(result: Result) -> Section:
    """Figures, tables and findings of one result, by the section it names."""
    return registry.for_result(result).build(result)


def check_findings(sections: Sequence[Section]) -> None:
    """Internal consistency: every quoted display string is in its text and its table cell."""
    for s in sections:
        for fd in s.findings:
            for key, row, col, _v, disp in fd.quotes:
                cell = s.table(key).cell(row, col)
                if disp not in fd.text or disp not in cell:
                    raise AssertionError(f"finding quotes {disp!r} not in {cell!r}: {fd.text}")


def build_report(results_dir: str | Path = "results",
                 title: str = "btsim balance report", explorer: bool = True) -> Report:
    """Rebuild every figure and the HTML/Markdown report from saved results (no rerun),
    and (``explorer``) the interactive ``explorer.html`` from the same loaded results
    (:func:`sim.explorer.build_explorer`); the report's sections link into it."""
    root = Path(results_dir)
    results = load_results(root)
    sections = [build_section(r) for r in results]
    check_findings(sections)
    findings = [fd for s in sections for fd in s.findings]
    lead = [fd for fd in findings if fd.lead]
    html_path = root / "report.html"
    md_path = root / "report.md"
    explorer_path = None
    if explorer:
        from sim.explorer import build_explorer

        explorer_path = build_explorer(root, results)
    link = explorer_path.name if explorer_path is not None else None
    # render both before writing either
    html_text = rendering.render_html(sections, lead, title, explorer=link)
    md_text = rendering.render_markdown(sections, lead, title, explorer=link)
    for path, text in ((html_path, html_text), (md_path, md_text)):
        atomic_write_text(path, text)
        plots.publish_mode(path)
    figs = [fig.png for s in sections for fig in s.figures]
    return Report(html_path, md_path, figs, sections, findings, explorer_path)
