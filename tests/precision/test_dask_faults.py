"""Dask faults end in one line and exit 2 (issue 18): a scheduler killed mid-run, and a
cluster with no worker for BTSIM_DASK_NO_WORKERS_TIMEOUT seconds (finished chunks stay
cached for the rerun)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXP = 'name = "d"\nmodel = "punch-demo"\ntrials = 1000000000\nseed = 1\n'


def _env(**extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0", **extra)


def _wait(ready, what: str, proc: subprocess.Popen | None = None) -> None:
    """Poll until ``ready()``; no wall-clock bound of its own (the suite's per-test timeout,
    pyproject's ``timeout``, catches a hang), so a slow machine waits longer instead of
    failing or skipping. Fails at once when ``proc`` ends first."""
    while not ready():
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"{what}: the process ended first (exit {proc.returncode})")
        time.sleep(0.2)


def _stop(proc: subprocess.Popen | None) -> None:
    """Kill ``proc`` if it still runs (a test interrupted by the suite's timeout)."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _accepts(address: str) -> bool:
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except OSError:
        return False


def _scheduler(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    if dask is None:
        pytest.skip("the dask command is not installed")
    f = tmp_path / "scheduler.json"
    proc = subprocess.Popen([dask, "scheduler", "--scheduler-file", str(f), "--port", "0",
                             "--no-dashboard", "--host", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait(lambda: f.exists() and bool(f.read_text().strip()), "the scheduler file", proc)
    address = json.loads(f.read_text())["address"]
    _wait(lambda: _accepts(address), "the scheduler's port", proc)
    return proc, address


def _run(tmp_path: Path, address: str, **env: str) -> subprocess.Popen:
    (tmp_path / "d.toml").write_text(EXP)
    return subprocess.Popen([sys.executable, "-m", "sim", "run", "d.toml", "--backend", "dask",
                             "--scheduler", address, "--chunk-size", "2000", "--quiet",
                             "--out", "r"], cwd=tmp_path, env=_env(**env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_no_worker_is_a_timeout_then_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    sched, address = _scheduler(tmp_path)
    proc = None
    try:
        proc = _run(tmp_path, address, BTSIM_DASK_NO_WORKERS_TIMEOUT="2")
        _, err = proc.communicate()     # no bound of its own: the suite's timeout is the guard
    finally:
        _stop(proc)
        sched.kill()
    assert proc.returncode == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "No Dask worker" in lines[0] and "2 s" in lines[0]


@pytest.mark.slow
def test_a_killed_scheduler_is_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    sched, address = _scheduler(tmp_path)
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    assert dask is not None
    worker = subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard",
                               "--no-nanny"], env=_env(), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    proc = None
    try:
        proc = _run(tmp_path, address)
        cache = tmp_path / "r" / "d" / ".cache"
        # the run is under way once a chunk is cached (however long that takes here)
        _wait(lambda: bool(list(cache.rglob("*.agg"))), "a first cached chunk", proc)
        sched.send_signal(signal.SIGKILL)
        _, err = proc.communicate()     # no bound of its own: the suite's timeout is the guard
    finally:
        _stop(proc)
        sched.kill()
        worker.kill()
        worker.wait()
    assert proc.returncode == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Dask scheduler" in lines[0] and "went away" in lines[0]
    assert list(cache.rglob("*.agg"))  # finished chunks stay cached for the rerun
