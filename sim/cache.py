"""Resume and extend: finished chunk aggregates cached in a run's results folder.

A Monte Carlo run with a cache (``btsim run`` always uses one, in
``results/<name>/.cache/``) stores, as each task ends, the aggregates of its chunks (counts,
sums, histograms: never per-trial data) in one small ``.npz`` file, written atomically.
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
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim import __version__
from sim.aggregate import Aggregate

#: Name of the cache folder inside a results folder.
CACHE_DIR = ".cache"
#: Bump when the cache file layout changes (old caches are then discarded).
FORMAT = 1


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


def dump_chunks(chunks: Sequence[tuple[int, Aggregate]]) -> bytes:
    """Chunk aggregates as ``.npz`` bytes (no pickles)."""
    arrays: dict[str, np.ndarray] = {}
    head = []
    for c, agg in chunks:
        entry: dict[str, Any] = {"c": c, "n": agg.n, "stats": {}, "hists": {}}
        for kind, table in (("stats", agg.stats), ("hists", agg.hists)):
            for name, arr in table.items():
                key = f"a{len(arrays)}"
                arrays[key] = arr
                entry[kind][name] = key
        head.append(entry)
    buf = io.BytesIO()
    np.savez(buf, head=np.array(json.dumps(head)), **arrays)
    return buf.getvalue()


def load_chunks(path: Path) -> list[tuple[int, Aggregate]]:
    """Read a file written by :func:`dump_chunks`."""
    with np.load(path, allow_pickle=False) as z:
        head = json.loads(str(z["head"]))
        out = []
        for e in head:
            agg = Aggregate(int(e["n"]))
            agg.stats = {k: z[v].copy() for k, v in e["stats"].items()}
            agg.hists = {k: z[v].copy() for k, v in e["hists"].items()}
            out.append((int(e["c"]), agg))
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

    def _say(self, text: str) -> None:
        self.messages.append(text)
        if not self.quiet:
            print(f"btsim: {text}", file=sys.stderr)

    def bind(self, model: Any, scenarios: Sequence[Any], params_list: Sequence[Mapping[str, Any]],
             seed: int, chunk_size: int, streams: Sequence[int] | None) -> None:
        """Compute the keys of this run, and drop what no longer matches (one line each)."""
        run = {"format": FORMAT, "model": model.name,
               "model_version": str(getattr(model, "version", "")),
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
        out: dict[tuple[int, int], Aggregate] = {}
        folder = self.root / self.keys[s]
        if folder.is_dir():
            for path in sorted(folder.glob("*.npz")):
                try:
                    chunks = load_chunks(path)
                except (OSError, ValueError, KeyError):  # a damaged file: recompute it
                    with contextlib.suppress(OSError):
                        path.unlink()
                    continue
                for c, agg in chunks:
                    out[(c, agg.n)] = agg
        self._loaded[s] = out
        return out

    def save(self, task: Any, aggs: Sequence[Aggregate]) -> None:
        """Store the chunks of one finished task (one atomic file)."""
        self._ensure()
        folder = self.root / self.keys[task.scenario_index]
        folder.mkdir(parents=True, exist_ok=True)
        chunks = list(zip(range(task.first_chunk, task.last_chunk), aggs, strict=True))
        name = f"{task.first_chunk}-{task.last_chunk}-{aggs[-1].n}.npz"
        atomic_write_bytes(folder / name, dump_chunks(chunks))
        self._loaded.pop(task.scenario_index, None)

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
