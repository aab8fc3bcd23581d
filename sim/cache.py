"""Resume and extend: finished chunk aggregates cached in a run's results folder.

A Monte Carlo run with a cache (``btsim run`` always uses one, in
``results/<name>/.cache/``) stores, as each task ends, the aggregates of its chunks (counts,
sums, histograms: never per-trial data) in one small ``.agg`` file
(:func:`dump_chunks`), written atomically.
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
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim import __version__
from sim.aggregate import Aggregate

#: Name of the cache folder inside a results folder.
CACHE_DIR = ".cache"
#: Bump when the cache file layout changes (old caches are then discarded).
FORMAT = 3


def _json(x: Any) -> str:
    from sim.result import jsonable

    return json.dumps(jsonable(x), sort_keys=True, default=str)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` through a temporary file in the same folder and a rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


#: File signature of a cache file (header length, JSON header, raw arrays).
MAGIC = b"BTSIMCC3"


def _layout(agg: Aggregate) -> list[list[Any]]:
    return ([["s", k, list(v.shape)] for k, v in agg.stats.items()]
            + [["h", k, list(v.shape)] for k, v in agg.hists.items()])


def dump_chunks(chunks: Sequence[tuple[int, Aggregate]]) -> bytes:
    """Chunk aggregates as bytes: ``MAGIC``, the header length (8 bytes, little endian), a
    JSON header (chunk indices, trials, and the metric layout: kind, name, shape; written
    once when every chunk has the same layout), then per chunk its stats (float64) and its
    histograms (int64), little endian. No pickles; reading is a few ``frombuffer`` calls."""
    layouts = [_layout(agg) for _, agg in chunks]
    same = all(lay == layouts[0] for lay in layouts)
    head = {"c": [c for c, _ in chunks], "n": [agg.n for _, agg in chunks],
            "layout": layouts[0] if same else layouts, "same": same}
    blobs: list[bytes] = []
    for _, agg in chunks:
        if agg.stats:
            blobs.append(np.concatenate([v.ravel() for v in agg.stats.values()])
                         .astype("<f8").tobytes())
        if agg.hists:
            blobs.append(np.concatenate([v.ravel() for v in agg.hists.values()])
                         .astype("<i8").tobytes())
    header = json.dumps(head, separators=(",", ":")).encode()
    return MAGIC + len(header).to_bytes(8, "little") + header + b"".join(blobs)


def load_chunks(path: Path) -> list[tuple[int, Aggregate]]:
    """Read a file written by :func:`dump_chunks` (ValueError if damaged)."""
    data = path.read_bytes()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a btsim cache file")
    size = int.from_bytes(data[8:16], "little")
    head = json.loads(data[16:16 + size])
    body = memoryview(data)[16 + size:]
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
                raise ValueError(f"{path}: truncated")
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
        raise ValueError(f"{path}: unexpected length")
    return out


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
        folder = self.root / self.keys[s]
        if folder.is_dir():
            for path in sorted(folder.glob("*.agg")):
                try:
                    chunks = load_chunks(path)
                except (OSError, ValueError, KeyError):  # a damaged file: recompute it
                    with contextlib.suppress(OSError):
                        path.unlink()
                    continue
                for c, agg in chunks:
                    out[(c, agg.n)] = agg
        self._loaded[s] = out
        self.seconds += time.perf_counter() - t0
        return out

    def save(self, task: Any, aggs: Sequence[Aggregate]) -> None:
        """Store the chunks of one finished task (one atomic file)."""
        t0 = time.perf_counter()
        self._ensure()
        folder = self.root / self.keys[task.scenario_index]
        folder.mkdir(parents=True, exist_ok=True)
        chunks = list(zip(range(task.first_chunk, task.last_chunk), aggs, strict=True))
        name = f"{task.first_chunk}-{task.last_chunk}-{aggs[-1].n}.agg"
        atomic_write_bytes(folder / name, dump_chunks(chunks))
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
