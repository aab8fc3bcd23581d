"""Reading and writing results folders, atomically.

A results folder ``results/<experiment>/`` holds ``summary.parquet``, ``summary.csv`` and
``metadata.json`` (figures are added by :mod:`sim.report`). It is written into a temporary
sibling folder and renamed into place at the end, so a failed or interrupted run never
leaves a half-written result; an older result of the same name is replaced only then.

``summary.parquet`` is the whole summary frame (what :func:`read`, ``btsim report`` and the
report sections read). ``summary.csv`` is its spreadsheet view, kept small
(:func:`csv_view`; ``metadata.json``'s ``csv`` entry says what it did):

* the long text columns :data:`CSV_TEXT_COLUMNS` (``notes``, ``rule_options``), the same
  few texts on thousands of rows, become ``<name>_id``: an index into
  ``metadata["csv"]["texts"][<name>]``, which holds each distinct text once;
* when the model gives several rows per scenario (per-turn rows) but every metric of the
  run has one value per scenario (``per_row=False``, e.g. a round-robin that asks only for
  win probabilities), those rows repeat one another: the CSV keeps one row per scenario and
  drops the row-index columns that vary inside a scenario, such as ``turn``
  (``metadata["csv"]["dropped_columns"]``); a row column with one value per scenario (the
  Classic duel's ``range``, also a parameter) stays.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sim import __version__

if TYPE_CHECKING:
    from sim.experiment import Experiment
    from sim.model import Model


_PACKAGE_DIR = Path(__file__).resolve().parent


def git_commit() -> str | None:
    """The git commit of btsim's own checkout, if it runs from one."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=False, cwd=_PACKAGE_DIR)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def git_dirty() -> bool | None:
    """Whether the working tree has uncommitted changes (None outside a git checkout)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True, timeout=5, check=False,
                             cwd=_PACKAGE_DIR)
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(out.stdout.strip()) if out.returncode == 0 else None


def rule_sets(model: Model, params_list: list[dict[str, Any]],
              frame: pd.DataFrame | None = None) -> dict[str, Any]:
    """Every effective rule option of a run, one entry per distinct rule set the scenarios
    use (:func:`sim.options.rule_sets`: ``rules`` = preset names, ``rule_options`` = every
    option of each set, ``sets`` = game, group, preset, overrides, options, scenarios).
    A model without declared options falls back on the frame's ``rules`` column."""
    from sim import options

    found = options.rule_sets(model, params_list)
    if found or frame is None:
        return found
    return _rule_sets(frame)


def _rule_sets(frame: pd.DataFrame) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col in ("rules", "rule_options"):
        if col in frame.columns:
            vals = sorted({str(v) for v in frame[col].dropna()})
            out[col] = [json.loads(v) if v.startswith("{") else v for v in vals]
    return out


def metadata(exp: Experiment, *, model: Model, frame: pd.DataFrame, wall_time_s: float,
             backend: str, n_jobs: int, chunk_size: int, exact_only: bool,
             scheduler: str | None = None) -> dict[str, Any]:
    """Everything needed to reproduce and to cite a run."""
    return {
        "name": exp.name,
        "title": exp.title,
        "question": exp.question,
        "model": exp.model,
        "model_description": model.description,
        "btsim_version": __version__,
        "git_commit": git_commit(),
        "git_dirty": git_dirty(),
        "seed": exp.seed,
        "trials": None if exact_only else exp.trials,
        "exact_only": exact_only,
        "scenarios": len(exp.scenarios()),
        "rows": int(frame.shape[0]),
        "chunk_size": chunk_size,
        "backend": backend,
        "scheduler": scheduler,
        "jobs": n_jobs,
        "cores": os.cpu_count(),
        "wall_time_s": round(wall_time_s, 4),
        "rule_sets": rule_sets(model, exp.scenarios(), frame),
        "metric_kinds": frame.attrs.get("metric_kinds", {}),
        "notes": list(frame.attrs.get("notes", [])),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "platform": platform.platform(),
        "experiment": exp.to_dict(),
    }


#: text columns the CSV writes as ``<name>_id`` (the texts once, in metadata.json)
CSV_TEXT_COLUMNS: tuple[str, ...] = ("notes", "rule_options")


def csv_layout(model: Model, params_list: list[dict[str, Any]], frame: pd.DataFrame
               ) -> dict[str, Any] | None:
    """The per-scenario CSV layout of :func:`csv_view`, when it applies: the model gives
    several rows per scenario and every metric in ``frame`` has one value per scenario.
    ``{"row_columns": [...], "row_counts": [...]}`` (row-index columns, rows per scenario
    in the frame's order), else None."""
    kinds = frame.attrs.get("metric_kinds") or {}
    per_row = {m.name: m.per_row for m in model.metrics}
    if not kinds or any(per_row.get(name, True) for name in kinds):
        return None
    cols: list[str] = []
    counts: list[int] = []
    for params in params_list:
        rows = model.rows(model.scenario(params))
        counts.append(1 if rows is None else len(rows))
        if rows is not None:
            cols += [c for c in rows.columns if c not in cols]
    if not cols or max(counts) == 1 or sum(counts) != len(frame):
        return None
    return {"row_columns": cols, "row_counts": counts}


def csv_view(frame: pd.DataFrame, layout: dict[str, Any] | None = None
             ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The CSV's frame and the ``csv`` entry of metadata.json (module docstring): list cells
    (histograms) as JSON strings, :data:`CSV_TEXT_COLUMNS` as ids into ``texts``, and with a
    :func:`csv_layout` one row per scenario."""
    out = frame.copy()
    out.attrs = {}  # pandas deep-copies attrs on every column access; the CSV keeps none
    info: dict[str, Any] = {"rows": "one per summary row (as summary.parquet)"}
    if layout is not None:
        counts = layout["row_counts"]
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int)
        block = np.repeat(np.arange(len(counts)), counts)
        # drop only the row-index columns that vary inside a scenario (``turn``); one with a
        # single value per scenario (a duel's ``range``, also a parameter) stays
        dropped = [c for c in layout["row_columns"] if c in out.columns
                   and int(out[c].astype(str).groupby(block).nunique().max()) > 1]
        out = out.iloc[starts].drop(columns=dropped).reset_index(drop=True)
        info = {"rows": "one per scenario: every metric of this run has one value per "
                "scenario, so the per-row rows of summary.parquet repeat it",
                "dropped_columns": dropped}
    for col in out.columns:
        if out[col].dtype == object and out[col].map(lambda v: isinstance(v, list | tuple)).any():
            out[col] = out[col].map(lambda v: json.dumps(list(v)) if isinstance(v, list | tuple)
                                    else v)
    texts: dict[str, list[str]] = {}
    for col in CSV_TEXT_COLUMNS:
        if col not in out.columns or pd.api.types.is_numeric_dtype(out[col]):
            continue
        cells = [v if isinstance(v, str) else None if v is None or v != v
                 else json.dumps(v, sort_keys=True, default=str) for v in out[col]]
        distinct = list(dict.fromkeys(c for c in cells if c is not None))
        index = {t: i for i, t in enumerate(distinct)}
        out[col] = pd.Series([None if c is None else index[c] for c in cells],
                             index=out.index, dtype="Int64")
        out = out.rename(columns={col: f"{col}_id"})
        texts[col] = distinct
    if texts:
        info["texts"] = texts
    return out, info


@contextlib.contextmanager
def atomic_dir(final: Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``final``; on success it replaces ``final``."""
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-", dir=final.parent))
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)
        if final.exists():
            old = final.with_name(f".{final.name}.old-{os.getpid()}")
            os.replace(final, old)
            try:
                os.replace(tmp, final)
            except BaseException:
                os.replace(old, final)  # put the previous result back
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file through a temporary file and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write(folder: str | os.PathLike[str], frame: pd.DataFrame, meta: dict[str, Any],
          csv_layout: dict[str, Any] | None = None) -> Path:
    """Write summary.parquet, summary.csv (:func:`csv_view` with ``csv_layout``) and
    metadata.json (with the CSV's ``csv`` entry) to ``folder`` atomically."""
    folder = Path(folder)
    csv, info = csv_view(frame, csv_layout)
    meta = {**meta, "csv": info}
    with atomic_dir(folder) as tmp:
        frame.to_parquet(tmp / "summary.parquet", index=False)
        csv.to_csv(tmp / "summary.csv", index=False)
        (tmp / "metadata.json").write_text(json.dumps(meta, indent=2, default=str) + "\n",
                                           encoding="utf-8")
        cache = folder / ".cache"  # the chunk cache (sim.cache) moves into the new folder
        if cache.is_dir():
            os.replace(cache, tmp / ".cache")
    return folder


def read(folder: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a results folder back: (summary frame, metadata)."""
    folder = Path(folder)
    frame = pd.read_parquet(folder / "summary.parquet")
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    # parquet brings back the writer's attrs (notes, per-scenario options: ~870 KB for a
    # 4,000-duel run) and pandas deep-copies attrs on every column access; metadata.json
    # holds what a reader needs, so the frame keeps only the metric kinds
    frame.attrs = {"metric_kinds": meta.get("metric_kinds", {})}
    for col in frame.columns:  # parquet gives numpy arrays for list cells; make them lists
        if frame[col].dtype == object and any(isinstance(v, np.ndarray) for v in frame[col]):
            frame[col] = frame[col].map(lambda v: list(v) if isinstance(v, np.ndarray) else v)
    return frame, meta
