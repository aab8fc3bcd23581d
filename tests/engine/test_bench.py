"""``btsim bench`` reports figures (never pass/fail); this checks their shape, not speed."""

import json
import math

from sim import bench
from sim.cli import main


def test_bench_reports_every_figure(capsys):
    assert main(["bench", "--quick", "--json", "--model", "punch-demo",
                 "--big-trials", "200000"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["dice"]) == {"numpy_integers_d6_per_s", "d6_per_s", "two_d6_per_s"}
    (row,) = res["kernels"]
    for key in ("rate_one_core", "rate_engine_one_core", "engine_overhead", "rate_all_cores",
                "parallel_efficiency", "exact_ms"):
        assert math.isfinite(row[key]), key
    mem = res["memory"]
    assert mem["trials_large"] == 200000 and mem["peak_mib_large"] > 0
    text = bench.format_table(res)
    assert "punch-demo" in text and "peak traced memory" in text
