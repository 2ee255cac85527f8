"""``mythos run`` as people and supervisors run it (issue 22): every stop signal stops every part it started and
frees its ports, a taken port is refused by name, and readiness is that of its own processes."""

from __future__ import annotations

import http.server
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests

from deploy.stacks.dev import PortTaken, Stack, free_port, port_taken

pytestmark = pytest.mark.e2e
START_S = 90  # generous: the box is shared; nothing here asserts a duration


def ports() -> dict[str, int]:
    return {"PORT": free_port(), "RULES_PORT": free_port(), "REDIS_PORT": free_port()}


def launch(tmp: Path, settings: dict[str, int], in_background_shell: bool = False) -> subprocess.Popen:
    """``mythos run`` with the embedded Redis in ``tmp``; or started by ``sh`` with ``&``, which is how a script
    or a non-interactive shell runs it (SIGINT then arrives set to "ignore")."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update({k: str(v) for k, v in settings.items()})
    env.update(SESSION_WORKERS="1", RULES_WORKERS="1", MYTHOS_STOP_GRACE_S="10", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "session_service.cli.main", "run"]
    if in_background_shell:
        command = ["sh", "-c", '"$@" & echo "pid $!"; wait', "sh", *command]
    return subprocess.Popen(command, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def read_until(proc: subprocess.Popen, marker: str, lines: list[str], timeout_s: float = START_S) -> str:
    """The first output line holding ``marker`` (everything read goes to ``lines``)."""
    found: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        for line in proc.stdout:
            lines.append(line)
            if marker in line:
                found.put(line)
                return
        found.put(None)

    threading.Thread(target=reader, daemon=True).start()
    try:
        line = found.get(timeout=timeout_s)
    except queue.Empty:
        line = None
    assert line is not None, f"no {marker!r} from mythos run:\n{''.join(lines)}"
    return line


def descendants(root: int) -> set[int]:
    """Every process under ``root`` (from /proc), at this moment."""
    parents: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(name))
    found, todo = set(), [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent holds no port and runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.mark.parametrize("sig,in_background_shell", [
    (signal.SIGTERM, False),  # docker stop, systemd, a terminal multiplexer closing
    (signal.SIGHUP, False),   # the terminal went away
    (signal.SIGINT, False),   # Ctrl-C
    (signal.SIGINT, True),    # Ctrl-C's signal to a `mythos run &` of a script
], ids=["SIGTERM", "SIGHUP", "SIGINT", "SIGINT-started-by-sh-&"])
def test_a_stop_signal_stops_every_part_and_frees_every_port(tmp_path, sig, in_background_shell):
    settings = ports()
    proc = launch(tmp_path, settings, in_background_shell)
    lines: list[str] = []
    try:
        if in_background_shell:
            target = int(read_until(proc, "pid ", lines).split()[1])
        else:
            target = proc.pid
        read_until(proc, "ready:", lines)
        parts = descendants(target)
        assert len(parts) >= 5, f"expected Redis, two gunicorn masters with workers and a worker: {parts}"
        assert all(port_taken(p) for p in settings.values())
        asked = requests.get(f"http://127.0.0.1:{settings['PORT']}/v1/catalog", headers={"X-Request-Id": "lifecycle-1"}, timeout=10)
        assert asked.status_code == 200 and asked.headers["X-Request-Id"] == "lifecycle-1"
        os.kill(target, sig)
        proc.wait(timeout=60)
        output = "".join(lines) + proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "stopped" in output, output
    assert "mythos.request: GET /v1/catalog 200 request_id=lifecycle-1" in output  # the line, through gunicorn
    survivors = {pid for pid in parts if alive(pid)}
    assert not survivors, f"left running after {signal.Signals(sig).name}: {survivors}\n{output}"
    taken = {name: p for name, p in settings.items() if port_taken(p)}
    assert not taken, f"ports still held: {taken}"


def test_a_taken_port_is_refused_by_name_and_nothing_starts(tmp_path):
    settings = ports()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", settings["RULES_PORT"]))
        squatter.listen()
        proc = launch(tmp_path, settings)
        try:
            output, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 2, output
        assert f"port {settings['RULES_PORT']}" in output and "RULES_PORT" in output, output
        assert "ready:" not in output
        assert not port_taken(settings["PORT"]) and not port_taken(settings["REDIS_PORT"])


class Impostor(http.server.BaseHTTPRequestHandler):
    """Another server on the port: it answers every probe 200."""

    def do_GET(self):  # noqa: N802 - the standard library's name
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"status": "ok"}')

    def log_message(self, *args):
        pass


def test_readiness_is_that_of_its_own_processes_not_whatever_answers_on_the_port():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Impostor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        stack = Stack(port=server.server_address[1])
        assert not stack.ours(stack.url + "/readyz")
        assert port_taken(stack.port)
    finally:
        server.shutdown()
        server.server_close()


def test_a_second_run_on_the_same_data_is_refused_even_on_other_ports(tmp_path):
    """Two embedded Redis servers on one append-only file would corrupt it; the ports alone do not show it."""
    first = Stack(port=free_port(), rules_port=free_port(), redis_port=free_port(), data_dir=tmp_path)
    second = Stack(port=free_port(), rules_port=free_port(), redis_port=free_port(), data_dir=tmp_path)
    first.lock_data(tmp_path)
    try:
        with pytest.raises(PortTaken, match="in use by another mythos run"):
            second.lock_data(tmp_path)
    finally:
        first.stop()
    second.lock_data(tmp_path)  # free again once the first has stopped
    second.stop()
