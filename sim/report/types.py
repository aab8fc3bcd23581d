"""The report's data types: a saved result, a derived table, a finding quoting table cells, a
saved figure, one experiment's section and the whole report."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim.report.formatting import finite, fmt_num


@dataclass
class Result:
    """One saved experiment result: its folder, summary frame and metadata."""

    name: str
    folder: Path
    frame: pd.DataFrame
    meta: dict[str, Any]
    #: derived numbers computed once per build and shared by the report section and the
    #: explorer (:meth:`memo`)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` the first time ``key`` is asked for this result, then its value
        (the duel ratings' bootstrap is the report's costliest number)."""
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or self.name.replace("_", " ").capitalize())

    @property
    def question(self) -> str:
        return str(self.meta.get("question") or "")

    @property
    def description(self) -> str:
        """The experiment's set-up text (one paragraph), from its TOML ``description``."""
        exp = self.meta.get("experiment") or {}
        text = exp.get("description") if isinstance(exp, dict) else ""
        return " ".join(str(text or "").split())

    @property
    def model(self) -> str:
        return str(self.meta.get("model") or "")

    @property
    def kinds(self) -> dict[str, str]:
        return dict(self.meta.get("metric_kinds") or {})

    @property
    def section(self) -> str | None:
        """The report section the experiment named (its ``report`` key, recorded in the
        metadata's ``experiment`` dict); None for results saved before the key existed."""
        exp = self.meta.get("experiment") or {}
        name = exp.get("report") if isinstance(exp, dict) else None
        name = name or self.meta.get("report")
        return str(name) if name else None

    @property
    def source(self) -> str:
        """The experiment file the result came from ('' when unknown)."""
        exp = self.meta.get("experiment") or {}
        return str((exp.get("source") if isinstance(exp, dict) else "") or "")


@dataclass
class Table:
    """A compact derived table.

    ``values`` holds numbers (NaN where there is none); ``labels`` optional text shown before
    each number (e.g. the attack name). ``fmt`` turns a number into its display string: the
    same function formats the findings that quote it.
    """

    key: str
    title: str
    values: pd.DataFrame
    fmt: Callable[[float], str]
    labels: pd.DataFrame | None = None
    note: str = ""
    index_name: str = ""

    def cell(self, row: Any, col: Any) -> str:
        """The display string of one cell."""
        v = self.values.loc[row, col]
        num = self.fmt(v) if finite(v) else "–"
        if self.labels is not None:
            lab = self.labels.loc[row, col]
            if isinstance(lab, str) and lab:
                return f"{lab} {num}" if finite(v) else lab
        return num

    def format(self, col: Any, v: float) -> str:
        """The display string of number ``v`` in column ``col`` (findings quote it)."""
        return self.fmt(v)

    @property
    def label_frame(self) -> pd.DataFrame:
        """The cell labels (ValueError for a table built without labels)."""
        if self.labels is None:
            raise ValueError(f"table {self.key!r} has no labels")
        return self.labels

    def display(self) -> pd.DataFrame:
        """All cells as strings (built once: the HTML and the Markdown both show them)."""
        cached = self.__dict__.get("_display")
        if cached is not None:
            return cached.copy()
        cols = list(self.values.columns)
        out = pd.DataFrame([[self.cell(r, c) for c in cols] for r in self.values.index],
                           index=self.values.index, columns=self.values.columns, dtype=object)
        out.index.name = self.index_name or self.values.index.name
        self.__dict__["_display"] = out
        return out.copy()


class ColumnTable(Table):
    """A table with one number format per column (``col_fmt``; others use ``fmt``)."""

    def __init__(self, key: str, title: str, values: pd.DataFrame,
                 col_fmt: Mapping[str, Callable[[float], str]], index_name: str = "",
                 note: str = "", fmt: Callable[[float], str] | None = None) -> None:
        super().__init__(key, title, values, fmt or fmt_num, None, note, index_name)
        self.col_fmt = col_fmt

    def cell(self, row: Any, col: Any) -> str:
        v = self.values.loc[row, col]
        return self.col_fmt.get(col, self.fmt)(v) if finite(v) else "–"

    def format(self, col: Any, v: float) -> str:
        return self.col_fmt.get(col, self.fmt)(v)


@dataclass
class Finding:
    """One generated key finding, quoting table cells.

    ``quotes`` lists ``(table_key, row, column, value, display)``: each ``display`` string
    appears verbatim in ``text`` and in that table cell.
    """

    experiment: str
    text: str
    quotes: list[tuple[str, Any, Any, float, str]] = field(default_factory=list)
    lead: bool = True


@dataclass
class FigureFile:
    """A saved figure (one compressed PNG) with its caption."""

    key: str
    title: str
    caption: str
    png: Path


@dataclass
class Section:
    """Everything the report shows for one experiment."""

    result: Result
    figures: list[FigureFile] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def table(self, key: str) -> Table:
        for t in self.tables:
            if t.key == key:
                return t
        raise KeyError(key)

    def add_figure(self, fig: Any, key: str, title: str, caption: str) -> None:
        """Save a Matplotlib figure beside the result's data (one PNG) and list it."""
        from sim import plots

        png = plots.save(fig, self.result.folder / key)
        self.figures.append(FigureFile(key, title, caption, png))


@dataclass
class Report:
    """What :func:`sim.report.build_report` wrote."""

    html: Path
    markdown: Path
    figures: list[Path]
    sections: list[Section]
    findings: list[Finding]
    #: the interactive page written beside the report (None when not asked for)
    explorer: Path | None = None

    @property
    def paths(self) -> list[Path]:
        return [self.html, self.markdown, *([self.explorer] if self.explorer else []),
                *self.figures]
