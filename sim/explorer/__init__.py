"""The explorer: ``results/explorer.html``, one self-contained page (no server, no network
request) where the catalog is a sortable, filterable table and every unit, matchup, the
round-robin heat map and the fairness fit are a click away, each number with its 95%
interval or marked exact, each view naming its assumptions.

``btsim report RESULTS_DIR`` writes it beside ``report.html`` (:func:`build_explorer`).

Layout
------
* :mod:`~sim.explorer.sources` -- the data layer: a declared list of sources (one function
  per kind of result -> a block of columnar JSON); add a kind of result there;
* :mod:`~sim.explorer.columnar` -- the columnar JSON encoding;
* :mod:`~sim.explorer.page` -- the HTML page (vendored uPlot, ``app.js``, ``app.css`` and
  the data, all inline);
* ``vendor/`` -- third-party files with their licences (``VENDORED.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sim.explorer.page import render
from sim.explorer.sources import SOURCES, Inputs, Source, build_data
from sim.report.types import Result

#: the explorer's file name inside the results folder
FILE_NAME = "explorer.html"
#: the vendored uPlot release (sim/explorer/vendor/VENDORED.md)
UPLOT_VERSION = "1.6.32"


def build_explorer(results_dir: str | Path, results: Sequence[Result] | None = None,
                   title: str = "btsim explorer") -> Path:
    """Write ``RESULTS_DIR/explorer.html`` from the saved results (``results``: already
    loaded by the report, else read from ``results_dir``); returns its path. Written
    atomically."""
    from sim import plots
    from sim.report.build import load_results
    from sim.results import atomic_write_text

    root = Path(results_dir)
    loaded = list(results) if results is not None else load_results(root)
    doc = build_data(Inputs(root, loaded))
    doc["uplot"] = UPLOT_VERSION
    path = root / FILE_NAME
    atomic_write_text(path, render(doc, title))
    plots.publish_mode(path)
    return path


__all__ = ["FILE_NAME", "SOURCES", "Inputs", "Source", "build_data", "build_explorer",
           "render"]
