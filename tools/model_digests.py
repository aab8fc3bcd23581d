"""Fixed-seed digests of every model's Monte Carlo numbers (issue 21): the guard on
``Model.version``.

For each registered model (``sim.models.MODULES``) and its current ``version``, the SHA-256 of
the chunk aggregates (counts, sums, sums of squares, histograms; floats to 12 significant
digits, so that a change of summation order on another CPU does not count while any changed
roll does) of a small fixed-seed run of its first bench cases. ``tests/engine/digests.json``
holds them; ``tests/engine/test_digests.py`` fails when a model's numbers change while its
version stays (bump ``version`` in the model, then regenerate), and when a version has no
digest yet.

    python tools/model_digests.py            # print the digests, compare with the file
    python tools/model_digests.py --write    # regenerate tests/engine/digests.json
    python tools/model_digests.py --write --model heat   # one model only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "tests" / "engine" / "digests.json"
#: the run each digest is made of: seed, chunks per case, trials per chunk, bench cases
SEED, CHUNKS, TRIALS, CASES = 2026, 2, 96, 2


def digest(name: str) -> str:
    """The digest of model ``name``'s numbers (see the module docstring)."""
    import numpy as np

    from sim import engine
    from sim.models import get_model

    model = get_model(name)
    h = hashlib.sha256()
    for s, case in enumerate(model.bench_cases[:CASES]):
        scn = model.scenario(dict(case.params))
        for c in range(CHUNKS):
            agg = model.sample(scn, engine.chunk_rng(SEED, s, c), TRIALS)
            h.update(f"{s}/{c}/{agg.n}".encode())
            for key in sorted(agg.stats):
                vals = np.asarray(agg.stats[key], dtype=np.float64).ravel()
                h.update(key.encode() + b"=" + ",".join(f"{v:.12g}" for v in vals).encode())
            for key in sorted(agg.hists):
                h.update(key.encode() + b"#" + np.asarray(agg.hists[key], dtype="<i8").tobytes())
    return h.hexdigest()


def current(models: list[str] | None = None) -> dict[str, dict[str, str]]:
    """model -> {version: digest} for the code as it is."""
    from sim.models import MODULES, get_model

    return {n: {str(get_model(n).version): digest(n)} for n in (models or sorted(MODULES))}


def load() -> dict[str, dict[str, str]]:
    """The committed digests (empty when the file is missing)."""
    try:
        data: Any = json.loads(FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help="store the digests in " + str(FILE))
    p.add_argument("--model", action="append", help="only this model (repeatable)")
    args = p.parse_args(argv)
    now = current(args.model)
    stored = load()
    bad = 0
    for name, by_version in now.items():
        for version, d in by_version.items():
            old = stored.get(name, {}).get(version)
            state = "same" if old == d else ("new version" if old is None else "CHANGED")
            bad += state == "CHANGED"
            print(f"{name:14} version {version:>4}: {d[:16]}  {state}")
    if args.write:
        for name, by_version in now.items():  # older versions' digests are kept (history)
            stored.setdefault(name, {}).update(by_version)
        FILE.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {FILE}")
        return 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
