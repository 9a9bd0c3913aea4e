"""The benchmark's gauge: a figure taken over the load limit is never printed as a result."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _quiet_module():
    spec = importlib.util.spec_from_file_location("quiet", SCRIPTS / "quiet.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("quiet", module)
    spec.loader.exec_module(module)
    return module


def test_a_figure_over_the_limit_is_marked_and_cpu_time_is_kept() -> None:
    quiet = _quiet_module()
    said: list[str] = []
    # A limit no machine is under: the figure is taken after the (zero) wait, and marked.
    gauge = quiet.Gauge(said.append, settle=0.0, limit_per_core=-1.0)
    value = gauge.figure("spin", lambda: {"n": sum(range(200_000))})
    conditions = value["conditions"]
    assert conditions["quiet"] is False
    assert conditions["cpu_s"] > 0 and conditions["wall_s"] > 0
    assert not gauge.all_quiet()
    assert "NOT A RESULT" in said[-1]
    assert "no: load over" in gauge.table()


def test_a_figure_under_the_limit_is_a_result() -> None:
    quiet = _quiet_module()
    gauge = quiet.Gauge(lambda _: None, settle=0.0, limit_per_core=1e9)
    _, conditions = gauge.take("nothing", lambda: None)
    assert conditions.quiet and gauge.all_quiet()
    assert "| nothing |" in gauge.table() and "| yes |" in gauge.table()
