"""gunicorn settings for the session service. Threads, because SSE streams hold a request open."""

import os

bind = os.environ.get("SESSION_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SESSION_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("SESSION_THREADS", "32"))
timeout = 60
graceful_timeout = 10
keepalive = 5
# gunicorn's largest request line: up to it the app itself answers an over-long URL with the API's error body
# (414 request/too_large past 4096 bytes); only a line longer still is refused by gunicorn, as plain HTML.
limit_request_line = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
