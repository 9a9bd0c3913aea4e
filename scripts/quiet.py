"""Figures taken on a quiet machine, and said to be so.

A wall time measured while other work shares the cores says little: on two cores the same
import took 2.6 s at a load of 1 and over 5 s at a load of 4. So every figure of the
benchmark is taken through :class:`Gauge`, which

* reads the one-minute load average before the figure and, when it is over the limit,
  waits (bounded) for the machine to settle;
* keeps the load before and after, and the CPU time the figure cost (this process and the
  processes it waited for) beside the wall time;
* marks a figure taken over the limit as not a result, so that tables print it as such.

The limit is 1.5 per core, the load at which two cores are already shared with another
core's worth of work. The benchmark's own processes count towards the load after a
figure, not before it: the load before is the one judged.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TypeVar

T = TypeVar("T")

#: The load per core over which a figure is not a result.
LIMIT_PER_CORE = 1.5
#: How long to wait for the machine to settle before a figure, at most.
SETTLE_SECONDS = 180.0


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def load() -> float:
    """The one-minute load average."""
    return os.getloadavg()[0]


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of the children it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@dataclass
class Conditions:
    """The machine around one figure."""

    name: str
    wall_s: float
    cpu_s: float
    load_before: float
    load_after: float
    waited_s: float
    quiet: bool

    def line(self) -> str:
        """One line for the log and the conditions table."""
        verdict = "" if self.quiet else "  NOT A RESULT (load over the limit)"
        return (f"{self.name}: {self.wall_s:.2f} s wall, {self.cpu_s:.2f} s CPU, load "
                f"{self.load_before:.2f} → {self.load_after:.2f}"
                + (f", waited {self.waited_s:.0f} s to settle" if self.waited_s >= 1 else "")
                + verdict)


class Gauge:
    """Takes figures one at a time, each on a machine as quiet as it can be had."""

    def __init__(self, log: Callable[[str], None], *, settle: float = SETTLE_SECONDS,
                 limit_per_core: float = LIMIT_PER_CORE) -> None:
        self.log = log
        self.settle = settle
        self.limit = limit_per_core * cores()
        self.taken: list[Conditions] = []

    def wait_quiet(self) -> float:
        """Wait until the load is under the limit (at most ``settle`` seconds); the
        seconds waited."""
        started = time.monotonic()
        said = False
        while load() > self.limit and time.monotonic() - started < self.settle:
            if not said:
                self.log(f"load {load():.2f} is over {self.limit:.1f}: waiting for the "
                         f"machine to settle (at most {self.settle:.0f} s)")
                said = True
            time.sleep(5)
        return time.monotonic() - started

    def take(self, name: str, job: Callable[[], T]) -> tuple[T, Conditions]:
        """Run ``job`` as one figure; what it returned and the conditions it ran in."""
        waited = self.wait_quiet()
        before = load()
        cpu = cpu_seconds()
        started = time.perf_counter()
        value = job()
        conditions = Conditions(
            name=name, wall_s=time.perf_counter() - started, cpu_s=cpu_seconds() - cpu,
            load_before=before, load_after=load(), waited_s=waited,
            quiet=before <= self.limit,
        )
        self.taken.append(conditions)
        self.log(conditions.line())
        return value, conditions

    def figure(self, name: str, job: Callable[[], dict[str, object]]) -> dict[str, object]:
        """Run a job that returns a dict of figures; the dict, with its conditions under
        ``"conditions"``."""
        value, conditions = self.take(name, job)
        value["conditions"] = asdict(conditions)
        return value

    def all_quiet(self) -> bool:
        """Whether every figure so far was taken under the limit."""
        return all(each.quiet for each in self.taken)

    def table(self) -> str:
        """Every figure's conditions as a Markdown table."""
        lines = ["| figure | wall | CPU | load before → after | result? |",
                 "|---|---:|---:|---|---|"]
        for each in self.taken:
            lines.append(
                f"| {each.name} | {each.wall_s:.2f} s | {each.cpu_s:.2f} s | "
                f"{each.load_before:.2f} → {each.load_after:.2f} | "
                f"{'yes' if each.quiet else f'no: load over {self.limit:.1f}'} |")
        return "\n".join(lines)
