"""``mythos run`` and ``mythos cluster`` start again a part that exits, after a backoff that grows while it keeps
exiting, with a line that says which part and how it ended (issue 47: one part's exit stopped the whole stack)."""

from __future__ import annotations

import io
import signal
from dataclasses import dataclass, field

from deploy.stacks.supervise import FIRST_S, MOST_S, STEADY_S, Supervisor, how


@dataclass
class FakeProcess:
    pid: int
    returncode: int | None = None

    def poll(self) -> int | None:
        return self.returncode


@dataclass
class FakeStack:
    processes: dict[str, FakeProcess] = field(default_factory=lambda: {"session": FakeProcess(1), "worker": FakeProcess(2)})
    restarted: list[str] = field(default_factory=list)
    refuse: int = 0  # restarts to refuse first (a port still held)

    def parts(self) -> dict[str, FakeProcess]:
        return self.processes

    def restart(self, name: str) -> None:
        if self.refuse:
            self.refuse -= 1
            raise RuntimeError("port 8000 is still held")
        self.restarted.append(name)
        self.processes[name] = FakeProcess(self.processes[name].pid + 100)


def supervised(stack: FakeStack) -> tuple[Supervisor, list[float], io.StringIO]:
    now, out = [0.0], io.StringIO()
    supervisor = Supervisor(stack, clock=lambda: now[0], out=out)
    supervisor.tick()
    return supervisor, now, out


def test_a_part_killed_is_started_again_after_the_first_delay_and_the_others_are_left_alone():
    stack = FakeStack()
    supervisor, now, out = supervised(stack)
    stack.processes["worker"].returncode = -signal.SIGKILL
    now[0] = 40.0
    supervisor.tick()
    assert stack.restarted == [] and "worker exited (killed by SIGKILL); starting it again in 0.5 s" in out.getvalue()
    now[0] += FIRST_S
    supervisor.tick()
    assert stack.restarted == ["worker"] and "worker is running again (pid 102)" in out.getvalue()
    assert stack.processes["session"].pid == 1  # never touched


def test_a_part_that_keeps_exiting_waits_longer_each_time_up_to_the_most():
    stack = FakeStack()
    supervisor, now, out = supervised(stack)
    delays = []
    for _ in range(10):
        stack.processes["session"].returncode = 3
        supervisor.tick()
        due = supervisor.state["session"].due
        delays.append(due - now[0])
        now[0] = due
        supervisor.tick()
    assert delays[:4] == [FIRST_S, 2 * FIRST_S, 4 * FIRST_S, 8 * FIRST_S] and delays[-1] == MOST_S
    assert "session exited (exit status 3); starting it again in 1.0 s (2 exits in a row)" in out.getvalue()
    now[0] += STEADY_S  # it ran long enough: the next exit waits the first delay again
    stack.processes["session"].returncode = 3
    supervisor.tick()
    assert supervisor.state["session"].due - now[0] == FIRST_S


def test_a_restart_that_fails_is_tried_again_later_and_said():
    stack = FakeStack(refuse=1)
    supervisor, now, out = supervised(stack)
    stack.processes["worker"].returncode = 1
    supervisor.tick()
    now[0] += FIRST_S
    supervisor.tick()
    assert stack.restarted == [] and "worker did not start again (port 8000 is still held)" in out.getvalue()
    now[0] = supervisor.state["worker"].due
    supervisor.tick()
    assert stack.restarted == ["worker"]


def test_how_a_process_ended_reads_as_a_sentence():
    assert how(-9) == "killed by SIGKILL" and how(0) == "exit status 0" and how(-200) == "killed by signal 200"
