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
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
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
FORMAT = 4


def _json(x: Any) -> str:
    from sim.result import jsonable

    return json.dumps(jsonable(x), sort_keys=True, default=str)


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
MAGIC = b"BTSIMCC4"
#: Signature of a record of a scenario's chunk log (length, CRC-32, a chunk block).
RECORD = b"BTSIMREC"
#: The chunk log of one scenario, in its key's folder.
LOG_NAME = "chunks.agg"


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


def dump_chunks(chunks: Sequence[tuple[int, Aggregate]]) -> bytes:
    """Chunk aggregates as bytes: ``MAGIC``, the header length (8 bytes, little endian), a
    JSON header (chunk indices, trials, and the metric layout: kind, name, shape; written
    once when every chunk has the same layout), then per chunk its stats (float64) and its
    histograms (int64), little endian. No pickles; reading is a few ``frombuffer`` calls."""
    sig0 = _signature(chunks[0][1])
    same = all(_signature(agg) == sig0 for _, agg in chunks[1:])
    head = {"c": [c for c, _ in chunks], "n": [agg.n for _, agg in chunks],
            "layout": _layout(chunks[0][1]) if same else [_layout(a) for _, a in chunks],
            "same": same}
    blobs: list[bytes] = []
    for _, agg in chunks:
        blobs += _raw(agg.stats.values(), "<f8")
        blobs += _raw(agg.hists.values(), "<i8")
    header = json.dumps(head, separators=(",", ":")).encode()
    return MAGIC + len(header).to_bytes(8, "little") + header + b"".join(blobs)


def parse_chunks(data: bytes | memoryview, where: str = "chunk block"
                 ) -> list[tuple[int, Aggregate]]:
    """The chunks of one block written by :func:`dump_chunks` (ValueError if damaged)."""
    data = memoryview(data)
    if bytes(data[:8]) != MAGIC:
        raise ValueError(f"{where}: not a btsim cache block")
    size = int.from_bytes(data[8:16], "little")
    head = json.loads(bytes(data[16:16 + size]))
    body = data[16 + size:]
    off = 0
    out = []
    for i, (c, n) in enumerate(zip(head["c"], head["n"], strict=True)):
        layout = head["layout"] if head["same"] else head["layout"][i]
        agg = Aggregate(int(n))
        for kind, dtype, target in (("s", "<f8", agg.stats), ("h", "<i8", agg.hists)):
            items = [(name, shape) for k, name, shape in layout if k == kind]
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


def read_log(data: bytes) -> tuple[list[tuple[int, Aggregate]], int]:
    """The chunks of a chunk log's records, and the length of its good part: reading stops
    at the first record that is cut short or fails its checksum (a crash mid-write)."""
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
            out += parse_chunks(block)
        except (ValueError, KeyError):
            break
        off = end
    return out, off


def append_record(path: Path, record: bytes) -> None:
    """Append ``record`` to ``path`` with one ``write`` (O_APPEND; no fsync)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        _write_all(fd, record)
    finally:
        os.close(fd)


class ChunkCache:
    """The chunk cache of one run (see the module docstring).

    ``ChunkCache(folder)`` then :meth:`bind` (the engine does it) before use; the engine
    calls :meth:`load` and :meth:`save`. ``messages`` keeps what was printed."""

    def __init__(self, folder: str | os.PathLike[str], quiet: bool = False) -> None:
        self.root = Path(folder)
        self.quiet = quiet
        self.keys: list[str] = []
        self.messages: list[str] = []
        self._loaded: dict[int, dict[tuple[int, int], Aggregate]] = {}
        self._run: dict[str, Any] = {}
        self._ready = False
        self._folders: set[str] = set()
        #: seconds spent reading and writing the cache (``btsim bench`` reports its share)
        self.seconds = 0.0

    def _say(self, text: str) -> None:
        self.messages.append(text)
        if not self.quiet:
            print(f"btsim: {text}", file=sys.stderr)

    def bind(self, model: Any, scenarios: Sequence[Any], params_list: Sequence[Mapping[str, Any]],
             seed: int, chunk_size: int, streams: Sequence[int] | None) -> None:
        """Compute the keys of this run, and drop what no longer matches (one line each)."""
        run = {"format": FORMAT, "model": model.name,
               "model_version": str(model.version),
               "btsim_version": __version__, "seed": seed, "chunk_size": chunk_size}
        self.keys = []
        for s, (scn, raw) in enumerate(zip(scenarios, params_list, strict=True)):
            ident = {**run, "params": _json(raw), "normalized": _json(model.params(scn)),
                     "options": _json(model.options(scn)),
                     "stream": s if streams is None else int(streams[s])}
            self.keys.append(hashlib.sha256(_json(ident).encode()).hexdigest()[:24])
        manifest = self.root / "manifest.json"
        if manifest.is_file():
            try:
                old = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = {}
            changed = [f"{k} {old.get(k)!r} -> {v!r}" for k, v in run.items()
                       if old.get(k) != v]
            if changed:
                self._say(f"cache {self.root} invalidated ({'; '.join(changed)}); "
                          "recomputing")
                shutil.rmtree(self.root, ignore_errors=True)
            else:
                stale = [p for p in self.root.iterdir()
                         if p.is_dir() and p.name not in set(self.keys)]
                if stale:
                    self._say(f"cache {self.root}: {len(stale)} scenario(s) changed "
                              "(parameters or options); their cached chunks were discarded")
                    for p in stale:
                        shutil.rmtree(p, ignore_errors=True)
        self._run = run
        self._ready = False
        self._folders = set()
        self._loaded = {}

    def _ensure(self) -> None:
        """Create the cache folder and its manifest on the first save (a run that fails
        before any chunk is done leaves nothing behind)."""
        if self._ready:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        tag = self.root / "CACHEDIR.TAG"
        if not tag.is_file():
            atomic_write_bytes(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n"
                               b"# btsim chunk cache (sim.cache); btsim cache clean removes it\n")
        atomic_write_bytes(self.root / "manifest.json",
                           (json.dumps(self._run, indent=1) + "\n").encode())
        self._ready = True

    def load(self, s: int) -> dict[tuple[int, int], Aggregate]:
        """Cached chunks of scenario ``s``: (chunk index, trials) -> aggregate."""
        if s in self._loaded:
            return self._loaded[s]
        t0 = time.perf_counter()
        out: dict[tuple[int, int], Aggregate] = {}
        path = self.root / self.keys[s] / LOG_NAME
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        chunks, good = read_log(data)
        if good < len(data):  # a damaged tail (crash mid-write): drop it, recompute it
            with contextlib.suppress(OSError):
                os.truncate(path, good)
        for c, agg in chunks:
            out[(c, agg.n)] = agg
        self._loaded[s] = out
        self.seconds += time.perf_counter() - t0
        return out

    def save(self, task: Any, aggs: Sequence[Aggregate]) -> None:
        """Store the chunks of one finished task (one record appended to its scenario's
        log, :func:`append_record`)."""
        t0 = time.perf_counter()
        self._ensure()
        key = self.keys[task.scenario_index]
        folder = self.root / key
        if key not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(key)
        chunks = list(zip(range(task.first_chunk, task.last_chunk), aggs, strict=True))
        append_record(folder / LOG_NAME, frame_record(dump_chunks(chunks)))
        self._loaded.pop(task.scenario_index, None)
        self.seconds += time.perf_counter() - t0

    def nbytes(self) -> int:
        """Size of the cache on disk."""
        return sum(p.stat().st_size for p in self.root.rglob("*") if p.is_file())


def clean(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove every btsim cache under ``folder`` (a results folder or a tree of them);
    the removed folders."""
    root = Path(folder)
    found = [root] if root.name == CACHE_DIR else []
    if root.is_dir():
        found += [p for p in root.rglob(CACHE_DIR) if p.is_dir()]
    removed = []
    for p in found:
        if (p / "manifest.json").is_file() or (p / "CACHEDIR.TAG").is_file():
            shutil.rmtree(p)
            removed.append(p)
    return removed
