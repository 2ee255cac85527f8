"""A TCP proxy in front of a server whose open connections can all be cut at once: the network a client sees drop
(its streams end mid-body, an answer on its way is lost), while the server runs on."""

from __future__ import annotations

import socket
import threading

from deploy.stacks.dev import free_port


class CutProxy:
    def __init__(self, target_port: int):
        self.target_port, self.port = target_port, free_port()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.cuts = 0
        threading.Thread(target=self.accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for s in (source, sink):
            self.drop(s)

    def drop(self, s: socket.socket) -> None:
        with self.lock:
            self.open.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def cut(self) -> int:
        """Cut every connection open now; how many there were."""
        with self.lock:
            now = list(self.open)
        for s in now:
            self.drop(s)
        self.cuts += 1
        return len(now) // 2

    def close(self) -> None:
        self.listener.close()
        self.cut()
