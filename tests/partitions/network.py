"""Hosts made of network namespaces on this machine (issue 47, "Hosts and partitions for real").

Each host is a namespace of its own with one interface, ``eth0``, at ``10.47.0.<n>/24``: the host end of a veth pair
whose other end is a port of the bridge ``br0`` in a namespace of its own (the switch), so the machine's own network
is never touched and no address outside these namespaces is used. A host's link down (its switch port) cuts it off
from every other host at once, as a pulled cable would: packets to and from it are dropped, no one is told.

Every name begins with ``PREFIX``: a run first removes what an earlier one left (namespaces, and the processes in
them), under a lock, so two campaigns never share the names. Needs root (``ip netns``).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TypeVar

PREFIX = "mt47p"  # namespaces mt47p-<host>, switch ports mt47p-<host>-s, data in <tmp>/mt47p-*
SUBNET = "10.47.0"
SWITCH = f"{PREFIX}-switch"
CLONE_NEWNET = 0x40000000
NETNS_DIR = Path("/run/netns")
T = TypeVar("T")
_libc = ctypes.CDLL(None, use_errno=True)


class NeedsRoot(RuntimeError):
    """The campaign makes namespaces, veth pairs and a bridge: only root may."""


def check_root() -> None:
    if os.geteuid() != 0:
        raise NeedsRoot("the partition campaign needs root: it makes network namespaces, veth pairs and a bridge "
                        "(ip netns); run it as root, e.g. sudo make partitions")
    if not shutil.which("ip"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "iproute2"], check=True, env=env,
                       stdout=subprocess.DEVNULL)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def namespace(host: str) -> str:
    return f"{PREFIX}-{host}"


def enter(ns: str) -> None:
    """Move the calling thread (only it: a network namespace is per thread) into ``ns``; the sockets it opens
    from now on live there. Checked, since a thread left in the machine's own namespace would reach the outside."""
    descriptor = os.open(NETNS_DIR / ns, os.O_RDONLY)
    try:
        if _libc.setns(descriptor, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into {ns}")
    finally:
        os.close(descriptor)
    if os.stat(f"/proc/self/task/{threading.get_native_id()}/ns/net").st_ino != os.stat(NETNS_DIR / ns).st_ino:
        raise RuntimeError(f"this thread is not in {ns}")


@contextlib.contextmanager
def inside(ns: str) -> Iterator[None]:
    """The calling thread in ``ns`` for the block, then back where it was."""
    back = os.open(f"/proc/self/task/{threading.get_native_id()}/ns/net", os.O_RDONLY)
    try:
        enter(ns)
        yield
    finally:
        if _libc.setns(back, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns back")
        os.close(back)


def run_in(ns: str, call: Callable[[], T]) -> T:
    """``call()`` on a thread of its own inside ``ns`` (the caller's thread stays where it is)."""
    result: list[T] = []
    failed: list[BaseException] = []

    def body() -> None:
        try:
            enter(ns)
            result.append(call())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            failed.append(exc)

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return result[0]


def pids_in(ns: str) -> list[int]:
    """Every process whose network namespace is ``ns`` (this one excepted: its threads visit the hosts)."""
    try:
        inode = os.stat(NETNS_DIR / ns).st_ino
    except FileNotFoundError:
        return []
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                if os.stat(f"/proc/{name}/ns/net").st_ino == inode:
                    found.append(int(name))
            except OSError:
                pass
    return found


def kill_all_in(ns: str, timeout_s: float = 15) -> int:
    """SIGKILL every process in ``ns`` until none is left; returns how many were killed."""
    killed: set[int] = set()
    deadline = time.monotonic() + timeout_s
    while (pids := [p for p in pids_in(ns) if not _zombie(p)]) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
        time.sleep(0.05)
    left = [pid for pid in pids_in(ns) if not _zombie(pid)]
    if left:
        raise RuntimeError(f"processes {left} outlived SIGKILL in {ns}")
    return len(killed)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2:].split()[0] == "Z"


def leftovers() -> list[str]:
    return sorted(p.name for p in NETNS_DIR.glob(f"{PREFIX}-*")) if NETNS_DIR.exists() else []


def remove_leftovers() -> None:
    """What an earlier run left: its processes, namespaces (their veths and bridge go with them) and data."""
    for ns in leftovers():
        kill_all_in(ns)
        ip("netns", "del", ns)
    for stale in Path(tempfile.gettempdir()).glob(f"{PREFIX}-run-*"):
        shutil.rmtree(stale, ignore_errors=True)


@dataclass
class Network:
    """The hosts (name -> last byte of its address) on one switch, and a scratch directory for their files; a
    context manager that removes all of it."""

    hosts: dict[str, int]
    lock: IO[str] | None = None
    made: list[str] = field(default_factory=list)
    root: Path | None = None

    def address(self, host: str) -> str:
        return f"{SUBNET}.{self.hosts[host]}"

    def port(self, host: str) -> str:
        return f"{PREFIX}-{host}-s"  # the host's port on the switch (15 characters at most)

    def __enter__(self) -> Network:
        check_root()
        self.lock = open(Path(tempfile.gettempdir()) / f"{PREFIX}.lock", "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.lock.close()
            raise RuntimeError(f"another partition campaign holds {self.lock.name}: one at a time") from None
        try:
            remove_leftovers()
            self.root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}-run-"))
            self._make()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _make(self) -> None:
        ip("netns", "add", SWITCH)
        self.made.append(SWITCH)
        ip("-n", SWITCH, "link", "add", "br0", "type", "bridge")
        ip("-n", SWITCH, "link", "set", "br0", "up")
        for host in self.hosts:
            ns = namespace(host)
            ip("netns", "add", ns)
            self.made.append(ns)
            ip("-n", SWITCH, "link", "add", self.port(host), "type", "veth", "peer", "name", "eth0", "netns", ns)
            ip("-n", SWITCH, "link", "set", self.port(host), "master", "br0", "up")
            ip("-n", ns, "addr", "add", f"{self.address(host)}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def cut(self, host: str) -> None:
        """The host's link down: it reaches no other host, and none reaches it."""
        ip("-n", SWITCH, "link", "set", self.port(host), "down")

    def mend(self, host: str) -> None:
        ip("-n", SWITCH, "link", "set", self.port(host), "up")

    def __exit__(self, *_: object) -> None:
        try:
            for ns in reversed(self.made):
                kill_all_in(ns)
                with contextlib.suppress(subprocess.CalledProcessError):
                    ip("netns", "del", ns)
            self.made.clear()
        finally:
            if self.root is not None:
                shutil.rmtree(self.root, ignore_errors=True)
                self.root = None
            if self.lock is not None:  # removed while held: a run that opened it meanwhile found it taken
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.lock.name)
                self.lock.close()
                self.lock = None
