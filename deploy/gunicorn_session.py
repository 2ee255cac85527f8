"""gunicorn settings for the session service.

gevent workers: a live stream waits as a greenlet of a few kilobytes on the process's one stream hub instead
of holding a thread (see docs/performance.md, "Live streams", for the measurements behind the choice). Each
worker serves up to ``STREAMS_PER_PROCESS`` streams (answered 503 past it) plus ``worker_connections``' headroom
for ordinary requests. ``SESSION_WORKER_CLASS=gthread`` (with ``SESSION_THREADS``) is kept for comparison only.
"""

import os
import threading
import time

import shared.games  # noqa: F401 - see below
from shared.wire import gunicorn_errors, gunicorn_writes, logs

# The games' rules are imported here, in the master, so each worker forks with them instead of importing them again
# (a third of a worker's start). Only they: they are pure code that opens no socket and makes no lock or thread, so
# they need no gevent patching, which each worker does after its fork (the app itself is built there, patched).

gunicorn_errors.install()  # what gunicorn refuses itself gets the API's error body too, not an HTML page
gunicorn_writes.install()  # an answer's head and body in one write (shared/wire/gunicorn_writes.py)

bind = os.environ.get("SESSION_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SESSION_WORKERS", "2"))
worker_class = os.environ.get("SESSION_WORKER_CLASS", "gevent")
threads = int(os.environ.get("SESSION_THREADS", "32"))
worker_connections = int(os.environ.get("STREAMS_PER_PROCESS", "10000")) + 1000
timeout = 60
graceful_timeout = 10
keepalive = 5
# gunicorn's largest request line: up to it the app itself answers an over-long URL (414 request/too_large past
# 4096 bytes); a line longer still is refused by gunicorn, with the same error body (shared/wire/gunicorn_errors.py).
limit_request_line = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
logconfig_dict = logs.gunicorn_logconfig()  # LOG_FORMAT=json: gunicorn's own lines as JSON too

# gunicorn (25+) opens a control socket for `gunicornc`, by default at one path for every master of the user
# ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): the rules and session masters of one host would share
# it, the second silently taking it. Each service gets its own where one is asked for (SESSION_CONTROL_SOCKET), none by default.
if os.environ.get("SESSION_CONTROL_SOCKET"):
    control_socket = os.environ["SESSION_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def post_worker_init(worker):
    """Log the service's own lines (one per request, one per closed stream, …) beside gunicorn's, and end every
    open stream with a reconnect hint as soon as the worker is told to stop, rather than have the graceful timeout
    cut them."""
    logs.configure()  # LOG_FORMAT (text or json) and LOG_LEVEL: docs/operations.md
    streams = getattr(worker.wsgi, "extensions", {}).get("streams")  # absent from the bench's echo app
    if streams is None:
        return

    def shut_streams_on_stop():
        while worker.alive:
            time.sleep(0.25)
        streams.shutdown()

    threading.Thread(target=shut_streams_on_stop, name="streams-shutdown", daemon=True).start()
