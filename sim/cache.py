"""Resume and extend: finished chunk aggregates cached in a run's results folder.

A Monte Carlo run with a cache (``btsim run`` always uses one, in
``results/<name>/.cache/``) stores, as each task ends, the aggregates of its chunks (counts,
sums, histograms: never per-trial data) as one record (:func:`dump_chunks`, framed by
:func:`frame_record` with its length and CRC-32) appended to its scenario's ``chunks.agg``
file: one ``write`` per task, no fsync, no temporary file. A record cut short by a crash
fails its length or checksum and is dropped (the file is truncated to its last good
record), so its task is recomputed.
Each chunk is identified by a key of everything that affects its numbers:

* per scenario (a sub-folder named by a hash): the model name and version, the btsim
  version, the scenario's parameters (as given and as normalized by the model), its
  effective rule options, the root seed, the chunk size and the scenario's random stream;
* per chunk: its index and its trial count (a last, partial chunk of a smaller run is a
  different chunk from the full one of a larger run).

So the same command after a crash, Ctrl-C or ``kill -9`` recomputes only the tasks that
were running (at most one per worker), a finished run recomputes nothing, and raising
``--trials`` computes only the new chunks. Because the engine folds every scenario chunk by
chunk in chunk order whatever the source of a chunk, the summary is bit-identical to an
uninterrupted fresh run. A change of model version, seed or chunk size empties the cache
with a one-line message on stderr; a changed scenario gets a new key (its old chunks are
removed, also with a message). ``btsim cache clean [DIR]`` deletes caches.

Exact values (``exact.rec`` in the cache folder): the scenarios' exact answers, computed
once before the chunks and written (one framed record: a JSON header naming the metrics and,
per scenario key, each metric's shape, then the values as float64) with the first chunk the
run saves, so a resume reads them instead of recomputing them; the summary reads exact values
as float64 either way, so the bits are the same. A torn, foreign or mismatched record is a
miss (recomputed and rewritten).

Finished scenarios (``scenarios.rec`` in the cache folder, :mod:`sim.described`): as the
last chunk of a scenario of a fixed-trials run lands (not a paired one), its description
(what the summary, the metadata and the CSV layout read of it: normalized parameters, row
columns, facts, notes, rule options and rule sets), its key and its folded aggregate are
appended as one framed record, keyed by a declaration key computed without building the
scenario (:meth:`ChunkCache.described`). A resume reads those back: a finished scenario is
not built, keyed, validated or reloaded chunk by chunk, so a resume costs the unfinished
share of the work plus start-up; the summary is the same bytes, since a description is
stored only when it reads back exactly. A torn tail is cut off, a record that does not
parse is a miss (that scenario's chunks are read as before), and records of scenarios no
longer in the run are dropped.

Trust (README "Results folders: trust, links, locks"): a results folder is trusted like code.
The CRC only catches a torn write; beyond it each record names its scenario key, and a record
whose key, layout (the model's declared metrics, their kinds and row counts) or format does
not match the file it sits in is a miss, recomputed with one line on stderr, never a
traceback. Nothing here follows a symbolic link: a cache, scenario folder or log that is a
link is refused (:func:`sim.results.refuse_link`).

Shards (:mod:`sim.shard`): ``btsim run --shard i/N`` appends to ``shard-i-of-N.agg`` beside
``chunks.agg`` in each scenario folder (one writer per file, so machines sharing a folder
never append to the same file); every run reads all the logs of a scenario.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import stat
import sys
import time
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim import __version__
from sim.aggregate import Aggregate

#: Name of the cache folder inside a results folder.
CACHE_DIR = ".cache"
#: Bump when the cache file layout changes (old caches are then discarded).
FORMAT = 5


def _json(x: Any) -> str:
    from sim.result import jsonable

    return json.dumps(jsonable(x), sort_keys=True, default=str)


def _params_text(raw: Mapping[str, Any]) -> str:
    """A scenario's parameters as given, as JSON text (sorted keys; ``_json`` for values
    plain JSON does not take)."""
    try:
        return json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError):
        return "!" + _json(raw)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` through a temporary file in the same folder and a rename (no fsync: a
    file is either whole or absent after a crash of the process; a power loss may lose the
    last files, which are then recomputed)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


#: Signature of a chunk block (header length, JSON header, raw arrays).
MAGIC = b"BTSIMCC5"
#: Signature of a record of a scenario's chunk log (length, CRC-32, a chunk block).
RECORD = b"BTSIMREC"
#: The chunk log of one scenario, in its key's folder.
LOG_NAME = "chunks.agg"
#: the exact values of the run's scenarios (one framed JSON record, rewritten whole)
EXACT_NAME = "exact.rec"
#: the finished scenarios' descriptions (:mod:`sim.described`), one framed record each
SCENARIOS_NAME = "scenarios.rec"


#: layout JSON text by aggregate signature (:func:`_layout_text`), and parsed layouts by
#: their text (:func:`_parsed_layout`): a run's scenarios share a few layouts
_LAYOUT_TEXT: dict[tuple[Any, ...], bytes] = {}
_Entries = list[tuple[str, int, int, tuple[int, ...]]]
_LAYOUT_PARSED: dict[bytes, tuple[_Entries, _Entries, int, int]] = {}


def _layout_text(agg: Aggregate) -> bytes:
    """``json.dumps(_layout(agg))`` as bytes, once per layout."""
    sig = _signature(agg)
    got = _LAYOUT_TEXT.get(sig)
    if got is None:
        if len(_LAYOUT_TEXT) > 256:
            _LAYOUT_TEXT.clear()
        got = _LAYOUT_TEXT[sig] = json.dumps(_layout(agg), separators=(",", ":")).encode()
    return got


def _parsed_layout(text: bytes) -> tuple[_Entries, _Entries, int, int]:
    """A layout's stats and histogram entries (name, start, end, shape: where its values
    lie among the stats', resp. the histograms', values) and the two value counts
    (ValueError when it is not a layout of 2-D arrays)."""
    got = _LAYOUT_PARSED.get(text)
    if got is None:
        parts: dict[str, _Entries] = {"s": [], "h": []}
        at = {"s": 0, "h": 0}
        for k, name, shape in json.loads(text.decode("utf-8")):
            dims = tuple(int(x) for x in shape)
            if k not in parts or len(dims) != 2 or min(dims) < 0:
                raise ValueError("a metric that is not a 2-D array")
            n = dims[0] * dims[1]
            parts[k].append((str(name), at[k], at[k] + n, dims))
            at[k] += n
        if len(_LAYOUT_PARSED) > 256:
            _LAYOUT_PARSED.clear()
        got = _LAYOUT_PARSED[text] = (parts["s"], parts["h"], at["s"], at["h"])
    return got


def _layout(agg: Aggregate) -> list[list[Any]]:
    return ([["s", k, list(v.shape)] for k, v in agg.stats.items()]
            + [["h", k, list(v.shape)] for k, v in agg.hists.items()])


def _signature(agg: Aggregate) -> tuple[Any, ...]:
    """A cheap identity of an aggregate's layout (names, shapes, dtypes in order)."""
    return (tuple(agg.stats), tuple([v.shape for v in agg.stats.values()]),
            tuple(agg.hists), tuple([v.shape for v in agg.hists.values()]))


def _raw(values: Any, dtype: str) -> list[bytes]:
    """Arrays as raw bytes in ``dtype`` (no copy when they already are)."""
    return [v.astype(dtype, copy=False).tobytes() for v in values]


def dump_chunks(chunks: Sequence[tuple[int, Aggregate]], key: str = "") -> bytes:
    """Chunk aggregates as bytes: ``MAGIC``, the header length (8 bytes, little endian), a
    JSON header (the scenario key, chunk indices, trials, and the metric layout: kind, name,
    shape; written once when every chunk has the same layout), then per chunk its stats
    (float64) and its histograms (int64), little endian. No pickles; reading is a few
    ``frombuffer`` calls."""
    sig0 = _signature(chunks[0][1])
    same = all(_signature(agg) == sig0 for _, agg in chunks[1:])
    blobs: list[bytes] = []
    for _, agg in chunks:
        blobs += _raw(agg.stats.values(), "<f8")
        blobs += _raw(agg.hists.values(), "<i8")
    if same:  # the usual case: the layout's JSON text once per layout (_layout_text)
        header = (json.dumps({"k": key, "c": [c for c, _ in chunks],
                              "n": [agg.n for _, agg in chunks], "same": True},
                             separators=(",", ":"))[:-1].encode()
                  + b',"layout":' + _layout_text(chunks[0][1]) + b"}")
    else:
        head = {"k": key, "c": [c for c, _ in chunks], "n": [agg.n for _, agg in chunks],
                "layout": [_layout(a) for _, a in chunks], "same": same}
        header = json.dumps(head, separators=(",", ":")).encode()
    return MAGIC + len(header).to_bytes(8, "little") + header + b"".join(blobs)


def parse_chunks(data: bytes | memoryview, where: str = "chunk block",
                 key: str | None = None) -> list[tuple[int, Aggregate]]:
    """The chunks of one block written by :func:`dump_chunks` (ValueError if damaged, or,
    with ``key``, if the block names another scenario key)."""
    data = memoryview(data)
    if bytes(data[:8]) != MAGIC:
        raise ValueError(f"{where}: not a btsim cache block")
    size = int.from_bytes(data[8:16], "little")
    head = json.loads(bytes(data[16:16 + size]))
    if not isinstance(head, dict):
        raise ValueError(f"{where}: not a btsim cache header")
    if key is not None and head.get("k") != key:
        raise ValueError(f"{where}: a record of another scenario")
    body = data[16 + size:]
    off = 0
    out = []
    for i, (c, n) in enumerate(zip(head["c"], head["n"], strict=True)):
        layout = head["layout"] if head["same"] else head["layout"][i]
        agg = Aggregate(int(n))
        for kind, dtype, target in (("s", "<f8", agg.stats), ("h", "<i8", agg.hists)):
            items = [(str(name), tuple(int(x) for x in shape))
                     for k, name, shape in layout if k == kind]
            if any(len(shape) != 2 or min(shape) < 0 for _, shape in items):
                raise ValueError(f"{where}: a metric that is not a 2-D array")
            total = sum(math.prod(shape) for _, shape in items)
            if not items:
                continue
            if off + 8 * total > len(body):
                raise ValueError(f"{where}: truncated")
            flat = np.frombuffer(body, dtype=dtype, count=total, offset=off).astype(
                np.float64 if kind == "s" else np.int64)
            off += 8 * total
            pos = 0
            for name, shape in items:
                size_i = math.prod(shape)
                target[name] = flat[pos:pos + size_i].reshape(shape)
                pos += size_i
        out.append((int(c), agg))
    if off != len(body):
        raise ValueError(f"{where}: unexpected length")
    return out


def load_chunks(path: Path) -> list[tuple[int, Aggregate]]:
    """Read a file holding one block written by :func:`dump_chunks` (ValueError if
    damaged)."""
    return parse_chunks(path.read_bytes(), str(path))


def frame_record(block: bytes) -> bytes:
    """One record of a chunk log: ``RECORD``, the block's length (8 bytes) and CRC-32
    (4 bytes, little endian), then the block."""
    return (RECORD + len(block).to_bytes(8, "little")
            + zlib.crc32(block).to_bytes(4, "little") + block)


#: what a damaged or foreign record may raise while it is parsed (each one: a miss)
_BAD_RECORD = (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError)


def read_log(data: bytes, key: str | None = None, bad: list[int] | None = None
             ) -> tuple[list[tuple[int, Aggregate]], int]:
    """The chunks of a chunk log's records, and the length of its good part: reading stops
    at the first record that is cut short or fails its checksum (a crash mid-write). With
    ``key``, a whole record that names another key or cannot be parsed is skipped (a miss;
    ``bad`` receives its offset)."""
    view = memoryview(data)
    out: list[tuple[int, Aggregate]] = []
    off = 0
    while off + 20 <= len(data) and data[off:off + 8] == RECORD:
        size = int.from_bytes(data[off + 8:off + 16], "little")
        end = off + 20 + size
        block = view[off + 20:end]
        if end > len(data) or zlib.crc32(block) != int.from_bytes(data[off + 16:off + 20],
                                                                   "little"):
            break
        try:
            out += parse_chunks(block, key=key)
        except _BAD_RECORD:
            if key is None:
                break
            if bad is not None:
                bad.append(off)
        off = end
    return out, off


def _open_nofollow(path: Path, flags: int) -> int:
    """``os.open`` that refuses a symbolic link (UserError, one line) and a file with other
    hard links (it could be a file outside the results folder)."""
    from sim.results import refuse_link

    refuse_link(path, "chunk log")
    try:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        if exc.errno == getattr(os, "ELOOP", -1):
            refuse_link(path, "chunk log")
        raise
    st = os.fstat(fd)
    if st.st_nlink > 1 or not stat.S_ISREG(st.st_mode):
        os.close(fd)
        from sim.errors import UserError

        raise UserError(f"The chunk log {str(path)!r} is not a plain file of its own (a "
                        "hard link or a special file); btsim never writes through it.")
    return fd


def append_record(path: Path, record: bytes) -> None:
    """Append ``record`` to ``path`` with one ``write`` (O_APPEND; no fsync; never through a
    link)."""
    fd = _open_nofollow(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        _write_all(fd, record)
    finally:
        os.close(fd)


def _is_key(name: str) -> bool:
    return len(name) == 24 and all(ch in "0123456789abcdef" for ch in name)


def _real_dirs(root: Path) -> list[Path]:
    """The sub-folders of ``root`` that are folders, not links to folders."""
    try:
        return [Path(e.path) for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


class ChunkCache:
    """The chunk cache of one run (see the module docstring).

    ``ChunkCache(folder)`` then :meth:`bind` (the engine does it) before use; the engine
    calls :meth:`load` and :meth:`save`. ``messages`` keeps what was printed. ``log``: the
    file of each scenario folder this run appends to (``chunks.agg``; a shard its own
    ``shard-i-of-N.agg``); ``strict``: a cache made with other settings is refused instead
    of emptied (shards must never wipe each other's work); ``shared``: read every log of a
    scenario folder even without ``run.json`` in this cache (a rating's maximin screen,
    whose cache sits inside the rating's, :mod:`sim.rating.shards`)."""

    def __init__(self, folder: str | os.PathLike[str], quiet: bool = False,
                 log: str = LOG_NAME, strict: bool = False, shared: bool = False) -> None:
        self.root = Path(folder)
        self.quiet = quiet
        self.log = log
        self.strict = strict
        self.shared = shared
        self.keys: list[str] = []
        self.messages: list[str] = []
        self._loaded: dict[int, dict[tuple[int, int], Aggregate]] = {}
        self._run: dict[str, Any] = {}
        self._ready = False
        self._folders: set[str] = set()
        self._expect: list[tuple[frozenset[str], frozenset[str], int]] = []
        self._sharded = False
        #: records of this run that did not match their file (recomputed)
        self.rejected = 0
        #: seconds spent reading and writing the cache (``btsim bench`` reports its share)
        self.seconds = 0.0
        #: declaration key of each scenario (:meth:`described`), and the finished
        #: scenarios read back or recorded by this run
        self._decl: list[str] = []
        self._desc_fd: int | None = None
        self.described_read = 0
        self.described_written = 0

    def _say(self, text: str) -> None:
        self.messages.append(text)
        if not self.quiet:
            print(f"btsim: {text}", file=sys.stderr)

    def _check_links(self) -> None:
        from sim.results import refuse_link

        refuse_link(self.root.parent, "results folder")
        refuse_link(self.root, "chunk cache")
        if self.root.exists() and not self.root.is_dir():
            from sim.errors import UserError

            raise UserError(f"The chunk cache {str(self.root)!r} is not a folder; remove it.")
        for name in ("manifest.json", "CACHEDIR.TAG", EXACT_NAME, SCENARIOS_NAME):
            refuse_link(self.root / name, "cache file")

    def bind(self, model: Any, scenarios: Sequence[Any], params_list: Sequence[Mapping[str, Any]],
             seed: int, chunk_size: int, streams: Sequence[int] | None,
             described: Mapping[int, Any] | None = None) -> None:
        """Compute the keys of this run, and drop what no longer matches (one line each).
        ``described``: finished scenarios read back by :meth:`described` (their key and row
        count come from there: those scenarios are not built)."""
        from sim.described import row_count
        self._check_links()
        run = {"format": FORMAT, "model": model.name,
               "model_version": str(model.version),
               "btsim_version": __version__, "seed": seed, "chunk_size": chunk_size}
        self.keys = []
        self._expect = []
        stats = frozenset(m.name for m in model.metrics if m.kind != "hist")
        hists = frozenset(m.name for m in model.metrics if m.kind == "hist")
        if len(scenarios) != len(params_list):
            raise ValueError("scenarios and params_list differ in length")
        described = described or {}
        for s, raw in enumerate(params_list):
            d = described.get(s)
            if d is not None:
                self.keys.append(d.key)
                self._expect.append((stats, hists, d.row_count))
                continue
            scn = scenarios[s]
            ident = {**run, "params": _json(raw), "normalized": _json(model.params(scn)),
                     "options": _json(model.options(scn)),
                     "stream": s if streams is None else int(streams[s])}
            self.keys.append(hashlib.sha256(_json(ident).encode()).hexdigest()[:24])
            self._expect.append((stats, hists, row_count(model, scn)))
        manifest = self.root / "manifest.json"
        if manifest.is_file():
            try:
                old = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = {}
            if not isinstance(old, dict):
                old = {}
            changed = [f"{k} {old.get(k)!r} -> {v!r}" for k, v in run.items()
                       if old.get(k) != v]
            if changed and self.strict:
                from sim.errors import UserError

                raise UserError(f"The chunk cache {str(self.root)!r} was made with other "
                                f"settings ({'; '.join(changed)}); every shard of a run must "
                                "use the same ones (or remove the cache: btsim cache clean).")
            if changed:
                self._say(f"cache {self.root} invalidated ({'; '.join(changed)}); "
                          "recomputing")
                shutil.rmtree(self.root, ignore_errors=True)
            elif not self.strict:
                wanted = set(self.keys)
                stale = [p for p in _real_dirs(self.root)
                         if _is_key(p.name) and p.name not in wanted]
                if stale:
                    self._say(f"cache {self.root}: {len(stale)} scenario(s) changed "
                              "(parameters or options); their cached chunks were discarded")
                    for p in stale:
                        shutil.rmtree(p, ignore_errors=True)
        self._sharded = self.shared or (self.root / "run.json").is_file()
        self._run = run
        self._ready = False
        self._folders = set()
        self._loaded = {}
        self._exact_names = frozenset(m.name for m in model.metrics if m.exact)
        self._exact_pending: bytes | None = None
        self.rejected = 0
        #: scenarios whose exact values came from the cache in :meth:`exact_values`
        self.exact_cached = 0

    def _read_exact(self) -> dict[str, dict[str, np.ndarray] | None]:
        """The cached exact values by scenario key (empty when absent, torn or foreign): a
        framed record of a JSON header (the metric names, then per scenario its key and
        each metric's shape, or null: no exact answer) and the values as one float64
        array, in that order."""
        path = self.root / EXACT_NAME
        try:
            fd = _open_nofollow(path, os.O_RDONLY)
        except OSError:
            return {}
        try:
            with os.fdopen(fd, "rb") as fh:
                data = fh.read()
        except OSError:
            return {}
        if len(data) < 28 or data[:8] != RECORD:
            return {}
        block = memoryview(data)[20:20 + int.from_bytes(data[8:16], "little")]
        if zlib.crc32(block) != int.from_bytes(data[16:20], "little"):
            return {}
        try:
            size = int.from_bytes(block[:8], "little")
            head = json.loads(bytes(block[8:8 + size]).decode("utf-8"))
            flat = np.frombuffer(block[8 + size:], dtype="<f8")
            names = head["names"]
            if head.get("format") != FORMAT or set(names) != self._exact_names:
                return {}
            out: dict[str, dict[str, np.ndarray] | None] = {}
            at = 0
            for key, shapes in zip(head["keys"], head["shapes"], strict=True):
                if shapes is None:
                    out[str(key)] = None
                    continue
                got = {}
                for name, shape in zip(names, shapes, strict=True):
                    n = math.prod(shape)
                    part = flat[at:at + n]  # 1-D already: no reshape (1,224 x metrics)
                    got[name] = part if len(shape) == 1 and shape[0] == n else \
                        part.reshape(shape)
                    at += n
                out[str(key)] = got
            return out if at == flat.size else {}
        except (*_BAD_RECORD, UnicodeDecodeError):
            return {}

    def exact_values(self, compute: Any) -> list[dict[str, Any] | None]:
        """The exact values of every scenario of this run: from the cache where it holds
        them under the scenario's key, else ``compute(s)`` (and stored with the first chunk
        this run saves, or :meth:`flush_exact`). The summary reads them as float64, so a
        cached value gives the same bits as a computed one."""
        t0 = time.perf_counter()
        cached = self._read_exact() if self.root.is_dir() else {}
        self.seconds += time.perf_counter() - t0
        names = sorted(self._exact_names)
        out: list[dict[str, Any] | None] = []
        dirty = False
        for s, key in enumerate(self.keys):
            if key in cached:
                self.exact_cached += 1
                out.append(cached[key])
                continue
            dirty = True
            ex = compute(s)
            out.append(None if ex is None else {
                k: np.asarray(ex[k], dtype=np.float64) for k in names})
        if dirty:
            shapes = [None if ex is None else [list(ex[k].shape) for k in names]
                      for ex in out]
            head = json.dumps({"format": FORMAT, "names": names, "keys": self.keys,
                               "shapes": shapes}).encode("utf-8")
            flat = [ex[k].reshape(-1) for ex in out if ex is not None for k in names]
            blob = (np.concatenate(flat) if flat else np.zeros(0)).astype("<f8").tobytes()
            self._exact_pending = frame_record(len(head).to_bytes(8, "little") + head + blob)
        return out

    def flush_exact(self) -> None:
        """Write the exact values :meth:`exact_values` computed, if not yet written."""
        if self._exact_pending is None:
            return
        t0 = time.perf_counter()
        self._ensure()
        atomic_write_bytes(self.root / EXACT_NAME, self._exact_pending)
        self._exact_pending = None
        self.seconds += time.perf_counter() - t0

    # -- finished scenarios (scenarios.rec) ---------------------------------------------------
    def described(self, model: Any, params_list: Sequence[Mapping[str, Any]], seed: int,
                  chunk_size: int, streams: Sequence[int] | None, trials: int,
                  eligible: Any = None, write: bool = True,
                  keys_only: bool = False) -> dict[int, Any]:
        """The finished scenarios of this run that ``scenarios.rec`` describes: scenario
        index -> :class:`sim.described.Described` (of those in ``eligible``, default all).
        Each record is found by the scenario's declaration key: a hash of what its
        description and its folded chunks are a function of (the cache format, the model's
        name and version, btsim's version and :func:`sim.results.code_fingerprint`, the
        files the run reads besides btsim's own, the root seed, the chunk size, the trials,
        the scenario's parameters as given and its random stream), so it is computed
        without building the scenario. Call before :meth:`bind`; :meth:`record` adds to it.
        A torn tail is dropped (a crash mid-write) and the records of scenarios no longer in
        the run are removed, unless ``write`` is false (a check before the run holds the
        results folder's lock); a record that does not parse is a miss. ``keys_only``: the
        scenarios that have a record, without decoding them (index -> None)."""
        from sim.results import _input_files, code_fingerprint

        t0 = time.perf_counter()
        self._check_links()
        base = {"format": FORMAT, "model": model.name, "model_version": str(model.version),
                "btsim_version": __version__, "seed": seed, "chunk_size": chunk_size,
                "trials": trials, "code": code_fingerprint(),
                "inputs": _input_files({"params": list(params_list)})}
        head = _json(base)[:-1]  # the scenario's fields follow: one JSON object in all
        self._decl = [hashlib.sha256(
            f'{head},"params":{_params_text(raw)},'
            f'"stream":{s if streams is None else int(streams[s])}}}'
            .encode()).hexdigest()[:24] for s, raw in enumerate(params_list)]
        want = {k: s for s, k in enumerate(self._decl)
                if eligible is None or s in eligible}
        found: dict[int, Any] = {}
        blocks, stale = self._read_described(set(want), write and not self.strict)
        if keys_only:
            return dict.fromkeys(sorted(want[d] for d in blocks))
        for decl, block in blocks.items():
            got = self._decode(block, decl)
            if got is not None:
                found[want[decl]] = got
        if stale and write and not self.strict and self.root.is_dir():
            # records of scenarios no longer in this run: keep only the others
            keep = b"".join(frame_record(bytes(b)) for b in blocks.values())
            with contextlib.suppress(OSError):
                atomic_write_bytes(self.root / SCENARIOS_NAME, keep)
        self.described_read = len(found)
        self.seconds += time.perf_counter() - t0
        return found

    def _read_described(self, want: set[str], write: bool
                        ) -> tuple[dict[str, memoryview], int]:
        """The blocks of ``scenarios.rec`` whose declaration key is in ``want``, and how many
        others it holds; with ``write``, a torn tail is cut off."""
        path = self.root / SCENARIOS_NAME
        try:
            fd = _open_nofollow(path, os.O_RDONLY)
        except OSError:
            return {}, 0
        try:
            with os.fdopen(fd, "rb") as fh:
                data = fh.read()
        except OSError:
            return {}, 0
        view = memoryview(data)
        out: dict[str, memoryview] = {}
        stale = off = 0
        while off + 20 <= len(data) and data[off:off + 8] == RECORD:
            size = int.from_bytes(data[off + 8:off + 16], "little")
            end = off + 20 + size
            block = view[off + 20:end]
            if end > len(data) or zlib.crc32(block) != int.from_bytes(
                    data[off + 16:off + 20], "little"):
                break
            decl = bytes(block[:24]).decode("ascii", "replace")
            if decl in want:
                out[decl] = block
            else:
                stale += 1
            off = end
        if off < len(data) and write:
            with contextlib.suppress(OSError):
                tfd = _open_nofollow(path, os.O_WRONLY)
                try:
                    os.ftruncate(tfd, off)
                finally:
                    os.close(tfd)
        return out, stale

    def _decode(self, block: memoryview, decl: str) -> Any:
        """The :class:`sim.described.Described` of one record (None: a miss): the
        declaration key (24 ASCII bytes), the length (8 bytes, little endian) and JSON text
        of the description (:func:`sim.described.encode`, with the aggregate's ``n``), the
        same of the aggregate's layout (:func:`_layout`), then its stats (float64) and
        histograms (int64), little endian."""
        from sim.described import decode

        try:
            if bytes(block[:24]).decode("ascii") != decl:
                return None
            size = int.from_bytes(block[24:32], "little")
            doc = json.loads(bytes(block[32:32 + size]).decode("utf-8"))
            at = 32 + size
            lsize = int.from_bytes(block[at:at + 8], "little")
            s_items, h_items, n_s, n_h = _parsed_layout(bytes(block[at + 8:at + 8 + lsize]))
            body = block[at + 8 + lsize:]
            if 8 * (n_s + n_h) != len(body):
                return None
            stats = np.frombuffer(body, dtype="<f8", count=n_s).astype(np.float64)
            hists = np.frombuffer(body, dtype="<i8", offset=8 * n_s).astype(np.int64)
            agg = Aggregate(int(doc["n"]),
                            {name: stats[a:b].reshape(shape) for name, a, b, shape in s_items},
                            {name: hists[a:b].reshape(shape) for name, a, b, shape in h_items})
            return decode(doc, agg)
        except (*_BAD_RECORD, UnicodeDecodeError):
            return None

    def record(self, s: int, desc: Any, encoded: tuple[Any] | None = None) -> None:
        """Append the description of finished scenario ``s`` (a
        :class:`sim.described.Described`, after its last chunk was saved) to
        ``scenarios.rec``: one framed record (:meth:`_decode`), one ``write``. A description
        that would not read back exactly (:func:`sim.described.encode`) is not written (a
        resume then builds that scenario again). ``encoded``: ``(encode(desc),)`` already
        made (by the worker that computed the scenario's last chunk)."""
        from sim.described import encode

        if not self._decl:
            return
        t0 = time.perf_counter()
        doc = encode(desc) if encoded is None else encoded[0]
        if doc is not None:
            total = desc.total
            doc["n"] = int(total.n)
            text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
            layout = _layout_text(total)
            block = b"".join([self._decl[s].encode("ascii"), len(text).to_bytes(8, "little"),
                              text, len(layout).to_bytes(8, "little"), layout,
                              *_raw(total.stats.values(), "<f8"),
                              *_raw(total.hists.values(), "<i8")])
            if self._desc_fd is None:
                self._ensure()
                self._desc_fd = _open_nofollow(self.root / SCENARIOS_NAME,
                                               os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            _write_all(self._desc_fd, frame_record(block))
            self.described_written += 1
        self.seconds += time.perf_counter() - t0

    def close(self) -> None:
        """Close ``scenarios.rec`` if this run appended to it (:meth:`record`)."""
        if self._desc_fd is not None:
            fd, self._desc_fd = self._desc_fd, None
            os.close(fd)

    def _ensure(self) -> None:
        """Create the cache folder and its manifest on the first save (a run that fails
        before any chunk is done leaves nothing behind)."""
        if self._ready:
            return
        self._check_links()
        self.root.mkdir(parents=True, exist_ok=True)
        tag = self.root / "CACHEDIR.TAG"
        if not tag.is_file():
            atomic_write_bytes(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n"
                               b"# btsim chunk cache (sim.cache); btsim cache clean removes it\n")
        manifest = (json.dumps(self._run, indent=1) + "\n").encode()
        try:
            same = (self.root / "manifest.json").read_bytes() == manifest
        except OSError:
            same = False
        if not same:
            atomic_write_bytes(self.root / "manifest.json", manifest)
        self._ready = True

    def _logs(self, folder: Path) -> list[Path]:
        """The chunk logs of one scenario folder: ``chunks.agg`` first, then the shards'
        (listed only in a sharded cache, one with ``run.json``: a listing per scenario
        costs a large unsharded run more than reading its logs)."""
        if not self._sharded:
            return [folder / n for n in dict.fromkeys((LOG_NAME, self.log))]
        try:
            names = sorted(e.name for e in os.scandir(folder)
                           if e.name.endswith(".agg") and not e.name.startswith("."))
        except OSError:
            return []
        return [folder / n for n in sorted(names, key=lambda n: (n != LOG_NAME, n))]

    def _fits(self, s: int, agg: Aggregate, first: tuple[Any, ...] | None) -> bool:
        """Whether a cached chunk has the layout scenario ``s`` gives: the model's declared
        metric names and kinds, a row count of 1 or the scenario's, 3 stats columns, and the
        stats shapes of the scenario's other cached chunks."""
        stats, hists, rows = self._expect[s]
        if set(agg.stats) != stats or set(agg.hists) != hists or agg.n < 0:
            return False
        for v in agg.stats.values():
            if v.ndim != 2 or v.shape[1] != 3 or v.shape[0] not in (1, rows):
                return False
        for v in agg.hists.values():
            if v.ndim != 2 or v.shape[0] not in (1, rows):
                return False
        return first is None or _signature(agg)[:2] == first

    def load(self, s: int) -> dict[tuple[int, int], Aggregate]:
        """Cached chunks of scenario ``s``: (chunk index, trials) -> aggregate."""
        if s in self._loaded:
            return self._loaded[s]
        t0 = time.perf_counter()
        out: dict[tuple[int, int], Aggregate] = {}
        key = self.keys[s]
        folder = self.root / key
        from sim.results import refuse_link

        refuse_link(folder, "cache folder")
        first: tuple[Any, ...] | None = None
        bad = 0
        for path in self._logs(folder):
            try:
                fd = _open_nofollow(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                with os.fdopen(fd, "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            skipped: list[int] = []
            chunks, good = read_log(data, key=key, bad=skipped)
            bad += len(skipped)
            if good < len(data) and path.name == self.log:
                # a damaged tail of this run's own log (crash mid-write): drop it, recompute
                with contextlib.suppress(OSError):
                    tfd = _open_nofollow(path, os.O_WRONLY)
                    try:
                        os.ftruncate(tfd, good)
                    finally:
                        os.close(tfd)
            for c, agg in chunks:
                if c < 0 or not self._fits(s, agg, first):
                    bad += 1
                    continue
                first = first or _signature(agg)[:2]
                out.setdefault((c, agg.n), agg)
        if bad:
            self.rejected += bad
            self._say(f"cache {folder}: {bad} record(s) or chunk(s) did not match their file "
                      "(another scenario, model or layout); recomputing them")
        self._loaded[s] = out
        self.seconds += time.perf_counter() - t0
        return out

    def forget(self, s: int) -> None:
        """Drop what :meth:`load` remembers of scenario ``s`` (its next call reads the logs
        again: a shard polling for the chunks other shards append)."""
        self._loaded.pop(s, None)

    def save(self, task: Any, aggs: Sequence[Aggregate]) -> None:
        """Store the chunks of one finished task (one record appended to its scenario's
        log, :func:`append_record`)."""
        t0 = time.perf_counter()
        self._ensure()
        key = self.keys[task.scenario_index]
        folder = self.root / key
        if key not in self._folders:
            from sim.results import refuse_link

            refuse_link(folder, "cache folder")
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(key)
        chunks = list(zip(range(task.first_chunk, task.last_chunk), aggs, strict=True))
        append_record(folder / self.log, frame_record(dump_chunks(chunks, key)))
        self._loaded.pop(task.scenario_index, None)
        self.seconds += time.perf_counter() - t0
        self.flush_exact()   # with the first chunk: a run killed later keeps them

    def nbytes(self) -> int:
        """Size of the cache on disk (links not followed)."""
        total = 0
        for dirpath, _, files in os.walk(self.root):
            for f in files:
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(dirpath, f)).st_size
        return total


def _is_cache(p: Path) -> bool:
    return any(os.path.isfile(p / n) and not os.path.islink(p / n)
               for n in ("manifest.json", "CACHEDIR.TAG"))


def find_caches(folder: str | os.PathLike[str]) -> list[Path]:
    """Every btsim cache under ``folder`` (a results folder, a tree of them or a cache
    itself), walking without following links; UserError (one line) when a ``.cache`` found
    there is a symbolic link (nothing is removed then)."""
    from sim.results import refuse_link

    root = Path(folder)
    found: list[Path] = []
    if root.name == CACHE_DIR:
        refuse_link(root, "chunk cache")
        found.append(root)
    elif root.is_dir():
        for dirpath, dirs, _ in os.walk(root):  # os.walk never descends into links
            base = Path(dirpath)
            if CACHE_DIR in dirs:
                refuse_link(base / CACHE_DIR, "chunk cache")
                dirs.remove(CACHE_DIR)
                found.append(base / CACHE_DIR)
            for d in [d for d in dirs if os.path.islink(base / d)]:
                dirs.remove(d)
    return [p for p in found if _is_cache(p)]


def clean(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove every btsim cache under ``folder`` (a results folder or a tree of them);
    the removed folders. Links are never followed (a ``.cache`` link: UserError)."""
    found = find_caches(folder)
    for p in found:
        shutil.rmtree(p)
    return found
