"""gunicorn settings for the rules service (it stores no game): CPU-bound, so processes rather than threads.

Beside its public HTTP API each worker serves the internal hop (rules_service/hop.py) on ``RULES_HOP_BIND``
(127.0.0.1:8002 by default; empty: none): the master opens the socket once, before it forks, and every worker
answers the connections it accepts on one thread of its own."""

import os

from shared.wire import gunicorn_errors, gunicorn_writes, logs

gunicorn_errors.install()  # what gunicorn refuses itself gets the API's error body too, not an HTML page
gunicorn_writes.install()  # an answer's head and body in one write (shared/wire/gunicorn_writes.py)

bind = os.environ.get("RULES_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("RULES_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("RULES_THREADS", "4"))
# The master imports the games and builds the app once, before it forks: a worker starts (and a dead one is replaced)
# without importing them again. The app holds no connection, thread or state to share (the hop's thread starts in
# each worker, below). So new code needs the master restarted: a HUP forks workers from the code it loaded.
preload_app = True
timeout = 30
keepalive = 5
# gunicorn's largest request line: up to it the app itself answers an over-long URL (414 request/too_large past
# 4096 bytes); a line longer still is refused by gunicorn, with the same error body (shared/wire/gunicorn_errors.py).
limit_request_line = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
logconfig_dict = logs.gunicorn_logconfig()  # LOG_FORMAT=json: gunicorn's own lines as JSON too

# gunicorn (25+) opens a control socket for `gunicornc`, by default at one path for every master of the user
# ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): the rules and session masters of one host would share
# it, the second silently taking it. Each service gets its own where one is asked for (RULES_CONTROL_SOCKET), none by default.
if os.environ.get("RULES_CONTROL_SOCKET"):
    control_socket = os.environ["RULES_CONTROL_SOCKET"]
else:
    control_socket_disable = True


hop_bind = os.environ.get("RULES_HOP_BIND", "127.0.0.1:8002")
_hop = {}  # the hop's listening socket and secret, made by the master and inherited by each worker it forks


def when_ready(server):
    if hop_bind:
        from rules_service import hop
        from shared.wire import keys

        # Only holders of it may ask the hop anything (shared/wire/hop_frame.py): no hop starts without a good one.
        _hop["secret"] = keys.checked("HOP_SECRET", keys.read_secret(os.environ, "HOP_SECRET"), "the rules service, "
                                      "every session process and every worker", "Only a holder of it may use the rules "
                                      "service's internal hop (docs/operations.md); RULES_HOP_BIND= (empty) runs none.")
        _hop["listener"] = hop.listen(hop_bind)
        server.log.info("internal hop listening at %s", hop_bind)


def post_worker_init(worker):
    """The service's own lines (one per request) beside gunicorn's, in LOG_FORMAT at LOG_LEVEL; the hop's thread."""
    logs.configure()
    games = getattr(worker.wsgi, "extensions", {}).get("games")  # absent from the bench's echo and floor apps
    if "listener" in _hop and games is not None:
        from rules_service import hop

        config = worker.wsgi.config
        hop.start(_hop["listener"], games, config["POSITION_BOUNDS"], config["MAX_ANSWER_BYTES"], _hop["secret"],
                  config["HOP_KEPT_POSITIONS"])
