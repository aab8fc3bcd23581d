"""The explorer page: one self-contained HTML file (no network request: the vendored uPlot,
the app's script and style and the data are all inline) built from a data document
(:func:`sim.explorer.sources.build_data`)."""

from __future__ import annotations

import html
from importlib import resources
from typing import Any

from sim.explorer.columnar import dumps

#: the files inlined into the page, from this package
ASSETS = ("vendor/uPlot.min.css", "app.css", "vendor/uPlot.iife.min.js", "app.js")


def asset(name: str) -> str:
    """The text of one packaged asset (:data:`ASSETS`)."""
    return resources.files("sim.explorer").joinpath(name).read_text(encoding="utf-8")


def render(doc: dict[str, Any], title: str = "btsim explorer") -> str:
    """The page for data document ``doc``."""
    css = asset("vendor/uPlot.min.css") + "\n" + asset("app.css")
    # a Content-Security-Policy that forbids every fetch: the page can load nothing
    csp = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
           "img-src data:; connect-src 'none'; font-src 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{csp}\">"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{css}</style></head><body>"
        f"<header><h1>{html.escape(title)}</h1><nav id='tabs'></nav></header>"
        "<main id='view'><p>Loading…</p></main><div id='tip' hidden></div>"
        f"<script type='application/json' id='btsim-data'>{dumps(doc)}</script>"
        f"<script>{asset('vendor/uPlot.iife.min.js')}</script>"
        f"<script>{asset('app.js')}</script></body></html>\n"
    )
