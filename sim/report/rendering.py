"""Rendering: the self-contained HTML page (CSS inline, each figure's PNG embedded once as
base64) and the Markdown text (figures linked by relative path) from the built sections."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from typing import Any

from sim.report.formatting import is_mc, rule_options_text, rules_text
from sim.report.types import Finding, Result, Section, Table

CSS = """
body{font-family:-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;margin:0;
 color:#1a1a1a;background:#fff;line-height:1.5}
main{max-width:1100px;margin:0 auto;padding:24px 32px 64px}
h1{font-size:1.9em;margin:.2em 0 .1em}h2{font-size:1.4em;margin-top:2.2em;
 border-bottom:2px solid #0072B2;padding-bottom:.2em}h3{font-size:1.05em;margin:1.4em 0 .4em}
.sub{color:#555;margin-top:0}.lead{background:#f3f8fc;border-left:4px solid #0072B2;
 padding:12px 20px;margin:20px 0}.lead li{margin:.35em 0}
.q{font-style:italic;color:#333}figure{margin:18px 0 26px}
figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.9em;color:#444;margin-top:4px}
table{border-collapse:collapse;font-size:.85em;margin:6px 0 4px;display:block;
 overflow-x:auto;max-width:100%}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th{background:#f5f5f5}td:first-child,th:first-child{text-align:left}
.note{font-size:.85em;color:#555;margin:2px 0 14px}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 14px;font-size:.88em;
 background:#fafafa;padding:10px 14px;border:1px solid #eee}
dl.meta dt{font-weight:600;color:#444}dl.meta dd{margin:0}
nav ol{columns:2;font-size:.95em}
"""


def meta_lines(res: Result) -> list[tuple[str, str]]:
    """The "Run" box of a section: model, rule set, trials, seed, wall time, data, version."""
    m = res.meta
    exp = m.get("experiment") or {}
    scen = m.get("scenarios")
    rows = [
        ("Model", f"{res.model}" + (f": {m.get('model_description')}"
                                    if m.get("model_description") else "")),
        ("Rule set", rules_text(res)),
    ]
    opts = rule_options_text(res)
    if opts:
        rows.append(("Rule options", opts))
    if is_mc(res):
        rows.append(("Trials", f"{int(m['trials']):,} per scenario"
                     + (f", {int(scen)} scenario rows" if scen else "")))
    else:
        rows.append(("Trials", "exact values only"))
    rows += [
        ("Seed", str(m.get("seed"))),
        ("Wall time", f"{float(m.get('wall_time_s') or 0):.1f} s on {m.get('jobs', '?')} "
                      f"job(s), {m.get('cores', '?')} cores, backend {m.get('backend', '?')}"),
        ("Fixed parameters", ", ".join(f"{k}={v}" for k, v in (exp.get("fixed") or {}).items())
         or "none"),
        ("Data", f"{res.name}/summary.parquet, {res.name}/summary.csv, "
                 f"{res.name}/metadata.json"),
        ("Version", f"btsim {m.get('btsim_version', '?')}, commit "
                    f"{str(m.get('git_commit') or 'unknown')[:12]}"),
    ]
    return rows


def html_table(t: Table) -> str:
    """One table as HTML, with its title and note."""
    d = t.display()
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in d.columns)
    rows = []
    for r in d.index:
        cells = "".join(f"<td>{html.escape(str(d.loc[r, c]))}</td>" for c in d.columns)
        rows.append(f"<tr><td>{html.escape(str(r))}</td>{cells}</tr>")
    cap = html.escape(str(d.index.name or ""))
    out = (f"<h3>{html.escape(t.title)}</h3><table><thead><tr><th>{cap}</th>{head}</tr>"
           f"</thead><tbody>{''.join(rows)}</tbody></table>")
    if t.note:
        out += f'<p class="note">{html.escape(t.note)}</p>'
    return out


def md_table(t: Table) -> str:
    """One table as Markdown, with its title and note."""
    d = t.display()

    def esc(x: Any) -> str:
        return str(x).replace("|", "\\|").replace("\n", " ")

    lines = [f"**{t.title}**", "",
             "| " + " | ".join([esc(d.index.name or "")] + [esc(c) for c in d.columns]) + " |",
             "|" + "---|" * (len(d.columns) + 1)]
    for r in d.index:
        lines.append("| " + " | ".join([esc(r)] + [esc(d.loc[r, c]) for c in d.columns]) + " |")
    if t.note:
        lines += ["", f"*{t.note}*"]
    return "\n".join(lines)


def anchor(name: str) -> str:
    """An HTML id from a name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


#: where each section's numbers can be explored (a view of explorer.html, by section name)
EXPLORER_VIEWS: dict[str, tuple[str, str]] = {
    "fire-profiles": ("view=catalog&sort=dmg9&desc=1", "the catalog by damage at 9 hexes"),
    "weapon-fire": ("view=catalog&game=Classic", "each 'Mech's heat curves (open a unit)"),
    "heat-curves": ("view=catalog&game=AS", "each card's heat curves (open a unit)"),
    "duel-round-robin": ("view=heatmap&game=as_duels", "the round-robin heat map and "
                         "every matchup"),
    "classic-round-robin": ("view=heatmap&game=classic_duels", "the round-robin heat map "
                            "and every matchup"),
}


def explorer_link(s: Section, explorer: str | None) -> str:
    """The explorer view of a section's numbers as a ``(href, text)`` pair's HTML, or ''."""
    from sim.report import registry

    if not explorer:
        return ""
    view = EXPLORER_VIEWS.get(registry.for_result(s.result).name)
    if view is None:
        return ""
    return (f"<p class='note'>Explore: <a href='{html.escape(explorer)}#{html.escape(view[0])}'>"
            f"{html.escape(view[1])}</a> (explorer.html, sortable and interactive).</p>")


def render_html(sections: Sequence[Section], lead: Sequence[Finding], title: str,
                explorer: str | None = None) -> str:
    """The self-contained HTML report (``explorer``: the explorer page's file name, linked
    from the top and from the sections it shows)."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
             f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body><main>",
             f"<h1>{html.escape(title)}</h1>",
             "<p class='sub'>Monte Carlo and exact results of the btsim experiment suite. "
             "Every number below is computed; tables show exact values where the model has "
             "them, Monte Carlo means otherwise.</p>",
             *([f"<p class='sub'>Every unit, matchup and fairness fit, sortable and "
                f"with intervals: <a href='{html.escape(explorer)}'>the explorer</a> "
                f"(one offline page).</p>"] if explorer else []),
             "<section class='lead'><h3>Key findings</h3><ul>"]
    parts += [f"<li>{html.escape(fd.text)}</li>" for fd in lead]
    parts.append("</ul></section><nav><ol>")
    parts += [f"<li><a href='#{anchor(s.result.name)}'>{html.escape(s.result.title)}</a></li>"
              for s in sections]
    parts.append("</ol></nav>")
    for s in sections:
        r = s.result
        parts.append(f"<section id='{anchor(r.name)}' data-experiment='{html.escape(r.name)}'>"
                     f"<h2>{html.escape(r.title)}</h2>")
        if r.question:
            parts.append(f"<p class='q'>Question: {html.escape(r.question)}</p>")
        if r.description:
            parts.append(f"<p>Set-up: {html.escape(r.description)}</p>")
        if s.findings:
            parts.append("<ul>" + "".join(f"<li>{html.escape(fd.text)}</li>"
                                          for fd in s.findings) + "</ul>")
        for fig in s.figures:
            b64 = base64.b64encode(fig.png.read_bytes()).decode("ascii")
            parts.append(f"<figure data-figure='{html.escape(fig.key)}'><img alt="
                         f"'{html.escape(fig.title)}' src='data:image/png;base64,{b64}'>"
                         f"<figcaption><b>{html.escape(fig.title)}.</b> "
                         f"{html.escape(fig.caption)} (file: {html.escape(r.name)}/"
                         f"{fig.png.name})</figcaption></figure>")
        parts.append(explorer_link(s, explorer))
        for t in s.tables:
            parts.append(html_table(t))
        for n in s.notes:
            parts.append(f"<p class='note'>{html.escape(n)}</p>")
        parts.append("<h3>Run</h3><dl class='meta'>" + "".join(
            f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in meta_lines(r))
            + "</dl></section>")
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def render_markdown(sections: Sequence[Section], lead: Sequence[Finding], title: str,
                    explorer: str | None = None) -> str:
    """The Markdown report; figures are linked relative to the results folder."""
    out = [f"# {title}", "",
           "Monte Carlo and exact results of the btsim experiment suite. Tables show exact "
           "values where the model has them, Monte Carlo means otherwise.", ""]
    if explorer:
        out += [f"Every unit, matchup and fairness fit, sortable: [the explorer]({explorer}) "
                "(one offline page).", ""]
    out += ["## Key findings", ""]
    out += [f"- {fd.text}" for fd in lead]
    for s in sections:
        r = s.result
        out += ["", f"## {r.title}", ""]
        if r.question:
            out += [f"*Question: {r.question}*", ""]
        if r.description:
            out += [f"Set-up: {r.description}", ""]
        out += [f"- {fd.text}" for fd in s.findings]
        if s.findings:
            out.append("")
        for fig in s.figures:
            out += [f"![{fig.title}]({r.name}/{fig.png.name})", "",
                    f"*{fig.title}.* {fig.caption}", ""]
        for t in s.tables:
            out += [md_table(t), ""]
        for n in s.notes:
            out += [f"*{n}*", ""]
        out += ["| Run | |", "|---|---|"]
        out += [f"| {k} | {v.replace('|', '/')} |" for k, v in meta_lines(r)]
    return "\n".join(out) + "\n"
