"""A private PostgreSQL for the peer with a real database (boardgame.io with bgio-postgres, issue 32).

Debian's PostgreSQL (``/usr/lib/postgresql/<version>/bin``; installed with apt-get when missing, as root), in a
data directory of its own made by ``initdb`` in a temporary folder, on a free port of 127.0.0.1, with ``fsync``
and ``synchronous_commit`` on (a commit is on disk before it is acknowledged, as our Redis's append is in its
append-only file once a second at most: see docs/performance.md for how the two compare). As root it runs as the
``postgres`` user (the server refuses root). Its processes' CPU is counted with the peer's, as Redis's is with ours.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from deploy.stacks.dev import free_port

INSTALL = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "postgresql"]


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parent.parent.name))
    return found[-1].parent if found else None


def unavailable() -> str | None:
    """Why PostgreSQL cannot run here (after trying to install it as root), or None."""
    if binaries() is not None:
        return None
    if os.geteuid() != 0:
        return "PostgreSQL is not installed (as root: " + " ".join(INSTALL) + ")"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, capture_output=True, timeout=600)
        subprocess.run(INSTALL, check=True, env=env, capture_output=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as exc:
        return f"PostgreSQL could not be installed ({exc})"
    return None if binaries() is not None else "PostgreSQL is not installed"


class Postgres:
    """One private server: ``start``, ``url``, ``pid`` (the postmaster: its backends are its children), ``stop``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="mythos-bench-pg-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    @property
    def url(self) -> str:
        return f"postgresql://bench@127.0.0.1:{self.port}/bench"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def _as_user(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", self.user, "--", *command] if os.geteuid() == 0 else command

    def start(self) -> Postgres:
        bin_dir = binaries()
        assert bin_dir is not None, "call unavailable() first"
        data = self.dir / "data"
        if os.geteuid() == 0:
            shutil.chown(self.dir, self.user)
        subprocess.run(self._as_user([str(bin_dir / "initdb"), "-D", str(data), "-U", "bench", "-A", "trust",
                                      "--encoding", "UTF8", "--no-instructions", "--no-sync"]),
                       check=True, capture_output=True, timeout=120)
        log = open(self.dir / "postgres.log", "ab")
        self.process = subprocess.Popen(
            self._as_user([str(bin_dir / "postgres"), "-D", str(data), "-p", str(self.port), "-k", str(self.dir),
                           "-c", "listen_addresses=127.0.0.1", "-c", "fsync=on", "-c", "synchronous_commit=on",
                           "-c", "full_page_writes=on"]),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            ready = subprocess.run([str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                                   capture_output=True, timeout=30)
            if ready.returncode == 0:
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start; see {self.dir / 'postgres.log'}")
            time.sleep(0.2)
        subprocess.run(self._as_user([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "bench",
                                      "bench"]), check=True, capture_output=True, timeout=60)
        return self

    def settings(self) -> dict[str, str]:
        """What the server runs with, as it says (for the report)."""
        bin_dir = binaries()
        assert bin_dir is not None
        found = {}
        for name in ("server_version", "fsync", "synchronous_commit", "wal_sync_method"):
            said = subprocess.run([str(bin_dir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "bench", "-d",
                                   "bench", "-Atc", f"SHOW {name}"], capture_output=True, text=True, timeout=30)
            found[name] = said.stdout.strip()
        return found

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)  # an immediate shutdown: the data goes with it
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)
