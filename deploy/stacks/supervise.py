"""Supervision for ``mythos run`` and ``mythos cluster``: a part that exits is started again, after a backoff and with
a line that says which part, how it ended and when it comes back, instead of the whole stack stopping (issue 47: one
process's kill -9 stopped ``make cluster``; a supervisor had to be written outside the project). Ctrl-C still stops
everything (``dev.serve``)."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TextIO

FIRST_S = 0.5  # the first restart's delay; each exit in a row doubles it
MOST_S = 30.0
STEADY_S = 30.0  # a part that ran this long before it exited starts again after FIRST_S


class Supervised(Protocol):
    def parts(self) -> Mapping[str, Process]: ...

    def restart(self, name: str) -> None: ...


class Process(Protocol):
    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...


@dataclass
class Part:
    started: float
    exits: int = 0  # exits in a row, each within STEADY_S of its start
    due: float | None = None  # when it is started again, while it is down


def how(returncode: int | None) -> str:
    """How a process ended, as its exit status or the signal that killed it."""
    if returncode is not None and returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


class Supervisor:
    """Looks at every part of ``stack`` on each ``tick`` (``serve`` ticks five times a second)."""

    def __init__(self, stack: Supervised, clock: Callable[[], float] = time.monotonic, out: TextIO | None = None):
        self.stack, self.clock, self.out = stack, clock, out or sys.stderr
        self.state: dict[str, Part] = {}

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def tick(self) -> None:
        now = self.clock()
        for name, proc in list(self.stack.parts().items()):
            part = self.state.setdefault(name, Part(now))
            if part.due is None and proc.poll() is not None:
                part.exits = part.exits + 1 if now - part.started < STEADY_S else 1
                part.due = now + self.backoff(part)
                self.say(f"{name} exited ({how(proc.returncode)}); starting it again in {part.due - now:.1f} s"
                         + (f" ({part.exits} exits in a row)" if part.exits > 1 else ""))
            elif part.due is not None and now >= part.due:
                self.start_again(name, part)

    def backoff(self, part: Part) -> float:
        return float(min(FIRST_S * 2 ** (part.exits - 1), MOST_S))

    def start_again(self, name: str, part: Part) -> None:
        try:
            self.stack.restart(name)
        except Exception as exc:  # noqa: BLE001 - a port still held, a node that would not come up: try again later
            part.exits += 1
            part.due = self.clock() + self.backoff(part)
            self.say(f"{name} did not start again ({exc}); trying again in {part.due - self.clock():.1f} s")
            return
        part.started, part.due = self.clock(), None
        self.say(f"{name} is running again (pid {self.stack.parts()[name].pid})")
