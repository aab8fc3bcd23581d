"""The engine's numba cache guard (issue 21): a change of any engine source drops the
compiled files, and the guard tells whether a compiled turn loop is there (the CLI then says
it is compiling instead of looking hung)."""

from __future__ import annotations

from pathlib import Path

from sim.classic.engine import sampler


def _sources(root: Path) -> None:
    for name in sampler._SOURCES:
        (root / f"{name}.py").write_text(f"# {name}\n")


def test_the_guard_drops_a_stale_cache_and_reports_a_warm_one(tmp_path: Path) -> None:
    _sources(tmp_path)
    assert sampler._fresh_cache(tmp_path) is False  # no cache at all: cold
    cache = tmp_path / "__pycache__"
    (cache / "turn.duel-1.py311.nbi").write_bytes(b"i")
    (cache / "turn.duel-1.py311.1.nbc").write_bytes(b"c")
    assert sampler._fresh_cache(tmp_path) is True  # same sources, compiled loop: warm
    (tmp_path / "fire.py").write_text("# fire, changed\n")
    assert sampler._fresh_cache(tmp_path) is False  # a callee changed: dropped, cold
    assert not list(cache.glob("*.nbi")) and not list(cache.glob("*.nbc"))
    assert "compiling the Classic engine" in sampler.COMPILE_NOTICE
