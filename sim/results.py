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

Safety (README "Results folders: trust, links, locks"): btsim never follows a symbolic link
inside a results folder: an experiment folder, its ``.cache`` or anything btsim writes,
lists or removes there that is a link is refused with one line (:func:`refuse_link`). One
process at a time writes an experiment (:func:`lock`, an ``flock`` on
``<out>/.<name>.lock`` while it runs; a second one waits and says who holds it), and what an earlier,
killed run of that experiment left (``.<name>.tmp-*``, ``.<name>.old-*``) is removed
(:func:`clean_leftovers`). A rerun keeps the figures ``btsim report`` and ``btsim
sensitivity`` put in the folder (every file but :data:`OWN_FILES`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import platform
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim import __version__
from sim.errors import UserError

if TYPE_CHECKING:  # numpy and pandas are imported at use: a finished rerun needs neither
    import pandas as pd

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
              frame: pd.DataFrame | None = None,
              scenarios: Sequence[Any] | None = None) -> dict[str, Any]:
    """Every effective rule option of a run, one entry per distinct rule set the scenarios
    use (:func:`sim.options.rule_sets`: ``rules`` = preset names, ``rule_options`` = every
    option of each set, ``sets`` = game, group, preset, overrides, options, scenarios).
    A model without declared options falls back on the frame's ``rules`` column."""
    from sim import options

    found = options.rule_sets(model, params_list, scenarios)
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
             scheduler: str | None = None,
             scenarios: Sequence[Any] | None = None) -> dict[str, Any]:
    """Everything needed to reproduce and to cite a run (``scenarios``: the run's scenarios,
    built once by :func:`sim.experiment.run`)."""
    import numpy as np
    import pandas as pd

    params = exp.scenarios()
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
        "scenarios": len(params),
        "rows": int(frame.shape[0]),
        "chunk_size": chunk_size,
        "backend": backend,
        "scheduler": scheduler,
        "jobs": n_jobs,
        "cores": os.cpu_count(),
        "wall_time_s": round(wall_time_s, 4),
        "rule_sets": rule_sets(model, params, frame, scenarios),
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


def csv_layout(model: Model, params_list: list[dict[str, Any]], frame: pd.DataFrame,
               scenarios: Sequence[Any] | None = None) -> dict[str, Any] | None:
    """The per-scenario CSV layout of :func:`csv_view`, when it applies: the model gives
    several rows per scenario and every metric in ``frame`` has one value per scenario.
    ``{"row_columns": [...], "row_counts": [...]}`` (row-index columns, rows per scenario
    in the frame's order), else None. ``scenarios``: the run's scenarios (built, or their
    :class:`sim.described.Described`), else built from ``params_list``."""
    from sim.described import rows_of

    kinds = frame.attrs.get("metric_kinds") or {}
    per_row = {m.name: m.per_row for m in model.metrics}
    if not kinds or any(per_row.get(name, True) for name in kinds):
        return None
    cols: list[str] = []
    counts: list[int] = []
    for i, params in enumerate(params_list):
        rows, k = rows_of(model, model.scenario(params) if scenarios is None
                          else scenarios[i])
        counts.append(k)
        if rows is not None:
            cols += [c for c in rows if c not in cols]
    if not cols or max(counts) == 1 or sum(counts) != len(frame):
        return None
    return {"row_columns": cols, "row_counts": counts}


def csv_view(frame: pd.DataFrame, layout: dict[str, Any] | None = None
             ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The CSV's frame and the ``csv`` entry of metadata.json (module docstring): list cells
    (histograms) as JSON strings, :data:`CSV_TEXT_COLUMNS` as ids into ``texts``, and with a
    :func:`csv_layout` one row per scenario."""
    import numpy as np
    import pandas as pd

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


#: the files :func:`write` writes; every other entry of a results folder (the figures of
#: ``btsim report``, the ``sensitivity`` plot) is carried over to the new folder on a rerun
OWN_FILES: tuple[str, ...] = ("summary.parquet", "summary.csv", "metadata.json")


def refuse_link(path: str | os.PathLike[str], what: str = "results path") -> None:
    """Raise :class:`UserError` (one line) when ``path`` is a symbolic link: btsim never
    follows a link inside a results folder, so a link there cannot make it list, write or
    delete anything outside."""
    if os.path.islink(path):
        raise UserError(f"The {what} {str(path)!r} is a symbolic link; btsim never follows "
                        "links inside a results folder (remove the link, or give --out the "
                        "real folder).")


def check_folder(folder: str | os.PathLike[str]) -> Path:
    """An experiment's results folder ``<out>/<name>`` before a run touches it: neither it
    nor its ``.cache`` may be a link, and it must be a folder if it exists (UserError)."""
    folder = Path(folder)
    refuse_link(folder, "results folder")
    if folder.exists() and not folder.is_dir():
        raise UserError(f"The results folder {str(folder)!r} is not a folder; remove it or "
                        "choose another --out.")
    refuse_link(folder / ".cache", "chunk cache")
    return folder


def _leftovers(folder: Path) -> list[Path]:
    """The temporary folders of earlier, interrupted writes of ``folder`` (real folders
    only, never links)."""
    parent, name = folder.parent, folder.name
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return []
    prefixes = (f".{name}.tmp-", f".{name}.old-")
    return [Path(e.path) for e in entries if e.name.startswith(prefixes)
            and e.is_dir(follow_symlinks=False)]


def clean_leftovers(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove what an earlier, killed write of ``folder`` left beside it (``.NAME.tmp-*``,
    ``.NAME.old-*``). Call it holding :func:`lock`: no other writer is then at work."""
    found = _leftovers(Path(folder))
    for p in found:
        shutil.rmtree(p, ignore_errors=True)
    return found


def lock_path(folder: str | os.PathLike[str]) -> Path:
    """The lock file of an experiment's results folder: ``<out>/.<name>.lock`` (beside the
    folder, so the rename that publishes a result never moves it)."""
    folder = Path(folder)
    return folder.with_name(f".{folder.name}.lock")


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 512, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another btsim process"


@contextlib.contextmanager
def lock(folder: str | os.PathLike[str], shared: bool = False,
         quiet: bool = False) -> Iterator[None]:
    """Hold the lock of an experiment's results folder (``flock`` on :func:`lock_path`):
    exclusive for a run or a merge, ``shared`` for the shards of one experiment (which write
    separate files and may run together). A second process waits, after one line on stderr
    naming the holder (pid, host, start time and command). An exclusive holder removes the
    lock file when it is done; a waiter then finds the path gone or replaced (another inode)
    and takes the lock afresh, so two processes never hold it at once."""
    import fcntl

    folder = Path(folder)
    check_folder(folder)
    path = lock_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    said = quiet
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    while True:
        refuse_link(path, "lock file")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise UserError(f"Cannot open the lock file {str(path)!r}: "
                            f"{exc.strerror or exc}.") from None
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                os.close(fd)
                raise
            if not said:
                print(f"btsim: {folder} is being written by {_holder(fd)}; waiting for it "
                      "to finish", file=sys.stderr, flush=True)
                said = True
            fcntl.flock(fd, mode)
        try:
            same = os.fstat(fd).st_ino == os.lstat(path).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed (or replaced) the file meanwhile: lock it afresh
    try:
        if not shared:
            who = (f"pid {os.getpid()} on {socket.gethostname()} since "
                   f"{time.strftime('%Y-%m-%d %H:%M:%S')} ({' '.join(sys.argv)[:100]})")
            os.ftruncate(fd, 0)
            os.pwrite(fd, who.encode("utf-8", "replace") + b"\n", 0)
        yield
    finally:
        if not shared:
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_ino == os.lstat(path).st_ino:
                    os.unlink(path)
        os.close(fd)  # releases the lock


def _carry_over(old: Path, new: Path) -> list[str]:
    """Move the entries of the previous result ``old`` that :func:`write` does not make
    (figures, the sensitivity plot) into ``new``; their names. Links are left behind."""
    moved: list[str] = []
    try:
        entries = list(os.scandir(old))
    except OSError:
        return moved
    for e in entries:
        if e.name in OWN_FILES or e.name == ".cache" or e.is_symlink():
            continue
        if (new / e.name).exists():
            continue
        if e.is_file(follow_symlinks=False) or e.is_dir(follow_symlinks=False):
            os.replace(e.path, new / e.name)
            moved.append(e.name)
    return moved


@contextlib.contextmanager
def atomic_dir(final: Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``final``; on success it replaces ``final``."""
    final = Path(final)
    refuse_link(final, "results folder")
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
    metadata.json (with the CSV's ``csv`` entry) to ``folder`` atomically. The chunk cache
    and every file of the previous result that this does not write (figures) move into the
    new folder; when the summary changed, one line on stderr says those figures are older
    than it (``btsim report`` rebuilds them)."""
    folder = check_folder(folder)
    csv, info = csv_view(frame, csv_layout)
    meta = {**meta, "csv": info}
    with atomic_dir(folder) as tmp:
        to_parquet(frame, tmp / "summary.parquet")
        csv.to_csv(tmp / "summary.csv", index=False)
        (tmp / "metadata.json").write_text(json.dumps(meta, indent=2, default=str) + "\n",
                                           encoding="utf-8")
        cache = folder / ".cache"  # the chunk cache (sim.cache) moves into the new folder
        if cache.is_dir() and not cache.is_symlink():
            os.replace(cache, tmp / ".cache")
        if folder.is_dir():
            kept = _carry_over(folder, tmp)
            if kept and _changed(folder / "summary.parquet", tmp / "summary.parquet"):
                print(f"btsim: {folder}: kept {len(kept)} figure file(s) made from the "
                      "previous summary; `btsim report` rebuilds them", file=sys.stderr)
    return folder


_FINGERPRINT: list[str] = []


def code_fingerprint() -> str:
    """SHA-256 of btsim's own source and data files (once per process, ~10 ms): a finished
    result is reused as it is only by the same code (:func:`up_to_date`)."""
    if not _FINGERPRINT:
        h = hashlib.sha256(__version__.encode())
        for dirpath, dirs, files in os.walk(_PACKAGE_DIR):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for f in sorted(files):
                if f.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(dirpath, f)
                h.update(os.path.relpath(path, _PACKAGE_DIR).encode() + b"\0")
                with contextlib.suppress(OSError), open(path, "rb") as fh:
                    h.update(fh.read())
        _FINGERPRINT.append(h.hexdigest())
    return _FINGERPRINT[0]


def run_key(experiment: dict[str, Any], settings: dict[str, Any]) -> str:
    """The identity of a run's result: the experiment as run, the settings that change its
    numbers (trials, seed, chunk size, precision, rule overrides; never jobs or backend)
    and :func:`code_fingerprint`."""
    from sim.result import jsonable

    doc = {"experiment": jsonable(experiment), "settings": jsonable(settings),
           "code": code_fingerprint(), "inputs": _input_files(experiment)}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def _input_files(experiment: Any) -> list[str]:
    """Size and modification time of the files a run reads besides btsim's own: the user
    unit catalog (``$BTSIM_HOME/units.json``, :mod:`sim.units.user_catalog`) and any file
    an experiment value names (a unit file)."""
    home = os.environ.get("BTSIM_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                        "share", "btsim")
    paths = [os.path.join(home, "units.json"), os.path.join(home, "units.toml")]

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k != "source":
                    walk(x)
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)
        elif isinstance(v, str) and 0 < len(v) < 4096 and os.sep in v or (
                isinstance(v, str) and v.lower().endswith((".mtf", ".blk", ".json"))):
            paths.append(v)

    walk(experiment)
    out = []
    for p in paths:
        with contextlib.suppress(OSError, ValueError):
            st = os.stat(p)
            out.append(f"{p}:{st.st_size}:{st.st_mtime_ns}")
    return out


def _cache_state(folder: Path) -> str:
    """A digest of the chunk logs in ``folder/.cache`` (names and sizes; links not
    followed): a cache changed or damaged since the result was written differs."""
    rows = []
    root = folder / ".cache"
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            with contextlib.suppress(OSError):
                st = os.lstat(os.path.join(dirpath, f))
                rows.append(f"{os.path.relpath(os.path.join(dirpath, f), root)}:{st.st_size}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def stamp(folder: str | os.PathLike[str], key: str, *, rerun: str | None = None,
          rows: int | None = None, scenarios: int | None = None) -> None:
    """Record in ``folder/metadata.json`` the :func:`run_key` that produced it and the state
    of its cache (so :func:`up_to_date` can tell a finished rerun from a changed one); with
    ``rerun`` (a :func:`rerun_key` of the ``btsim run`` command that produced it) also that
    key and the ``rows`` and ``scenarios`` the command reports, for :func:`finished`."""
    folder = Path(folder)
    path = folder / "metadata.json"
    refuse_link(path, "metadata file")
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["run_key"] = {"key": key, "cache": _cache_state(folder)}
    if rerun is not None:
        meta["run_key"].update(rerun=rerun, rows=rows, scenarios=scenarios)
    atomic_write_text(path, json.dumps(meta, indent=2, default=str) + "\n")


def up_to_date(folder: str | os.PathLike[str], key: str) -> dict[str, Any] | None:
    """The metadata of ``folder`` when it holds the finished result of run ``key`` with its
    cache unchanged since (a finished rerun then reads it instead of recomputing), else
    None."""
    folder = Path(folder)
    try:
        if os.path.islink(folder) or os.path.islink(folder / "metadata.json"):
            return None
        meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    stamp_ = meta.get("run_key") if isinstance(meta, dict) else None
    if not isinstance(stamp_, dict) or stamp_.get("key") != key:
        return None
    if not (folder / "summary.parquet").is_file() or os.path.islink(folder / "summary.parquet"):
        return None
    if stamp_.get("cache") != _cache_state(folder):
        return None
    return meta


def rerun_key(path: str | os.PathLike[str], settings: dict[str, Any]) -> tuple[str, str] | None:
    """``(key, name)`` of a ``btsim run`` of the experiment file ``path`` with ``settings``
    (the command's options that can change its numbers: trials, seed, chunk size, exact,
    ``--rule`` texts, precision), computed from the file's text without loading the
    experiment (no numpy, pandas or model import), or None when the file cannot be read as
    a regular UTF-8 TOML file with a usable ``name``.

    The key hashes the path as given, the file's text, ``settings``, :func:`code_fingerprint`
    (every source and data file of btsim, so every model's ``version`` and every rule) and
    :func:`_input_files` (the user unit catalog, unit files the experiment names): whatever
    :func:`run_key` depends on is a function of these, so an equal key means an equal run
    key. A run stamps it (:func:`stamp`); :func:`finished` compares it."""
    import tomllib

    from sim.fileio import read_regular_text

    try:
        text = read_regular_text(path, "experiment", what="TOML")
        data = tomllib.loads(text)
    except (UserError, OSError, ValueError, RecursionError):
        return None
    name = data.get("name", Path(path).stem)
    if (not isinstance(name, str) or not name or len(name) > 100 or "/" in name
            or "\\" in name or name[0] == "." or not name.isprintable()):
        return None  # not a usable name: the full path says why
    doc = {"file": str(Path(path)), "text": text, "settings": settings,
           "code": code_fingerprint(), "inputs": _input_files({"data": data, **settings})}
    digest = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()
    return digest, name


def finished(folder: str | os.PathLike[str], rerun: str) -> dict[str, Any] | None:
    """The ``run_key`` entry of ``folder/metadata.json`` (with ``rows`` and ``scenarios``)
    when ``folder`` holds the finished result of the ``btsim run`` whose :func:`rerun_key` is
    ``rerun``, with its cache unchanged since, no writer at work (no lock file) and nothing
    left by a killed write; else None (the command then takes its full path, which checks
    and reports everything). Reads, never writes; imports neither numpy nor pandas."""
    folder = Path(folder)
    try:
        if (os.path.islink(folder) or os.path.islink(folder / ".cache")
                or os.path.lexists(lock_path(folder)) or _leftovers(folder)
                or os.path.islink(folder / "metadata.json")
                or os.path.islink(folder / "summary.parquet")
                or not (folder / "summary.parquet").is_file()):
            return None
        meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    got = meta.get("run_key") if isinstance(meta, dict) else None
    if (not isinstance(got, dict) or got.get("rerun") != rerun
            or not all(isinstance(got.get(k), int) for k in ("rows", "scenarios"))
            or got.get("cache") != _cache_state(folder)):
        return None
    return got


def to_parquet(frame: pd.DataFrame, path: Path) -> None:
    """``frame.to_parquet(path, index=False)``, the same bytes, without its cost on a large
    run: pandas deep-copies ``attrs`` (every scenario's rule options) on each column access,
    which made writing a 1,224-scenario summary take a minute. The columns are converted
    with ``attrs`` set aside, then ``attrs`` is stored as pandas does (``PANDAS_ATTRS``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    attrs = frame.attrs
    try:
        frame.attrs = {}
        table = pa.Table.from_pandas(frame, preserve_index=False)
    finally:
        frame.attrs = attrs
    meta = dict(table.schema.metadata or {})
    if attrs and b"pandas" in meta:  # pyarrow's pandas metadata also holds the attrs
        doc = json.loads(meta[b"pandas"])
        if "attributes" in doc:
            doc["attributes"] = attrs
            meta[b"pandas"] = json.dumps(doc).encode("utf8")
    if attrs:
        meta[b"PANDAS_ATTRS"] = json.dumps(attrs).encode()
    table = table.replace_schema_metadata(meta)
    pq.write_table(table, path, compression="snappy")


def _changed(old: Path, new: Path) -> bool:
    try:
        if os.lstat(old).st_size != os.lstat(new).st_size or not stat.S_ISREG(
                os.lstat(old).st_mode):
            return True
        return old.read_bytes() != new.read_bytes()
    except OSError:
        return True


def read(folder: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a results folder back: (summary frame, metadata). The metadata gains
    ``scenario_options``: every scenario's effective rule options, as saved in the parquet."""
    import numpy as np
    import pandas as pd

    folder = Path(folder)
    frame = pd.read_parquet(folder / "summary.parquet")
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    # parquet brings back the writer's attrs (notes, per-scenario options: ~870 KB for a
    # 4,000-duel run) and pandas deep-copies attrs on every column access: the options move
    # to the metadata, and the frame keeps only the metric kinds and the notes
    meta["scenario_options"] = frame.attrs.get("options", [])
    frame.attrs = {"metric_kinds": meta.get("metric_kinds", {}),
                   "notes": list(meta.get("notes", []))}
    for col in frame.columns:  # parquet gives numpy arrays for list cells; make them lists
        if frame[col].dtype == object and any(isinstance(v, np.ndarray) for v in frame[col]):
            frame[col] = frame[col].map(lambda v: list(v) if isinstance(v, np.ndarray) else v)
    return frame, meta
