"""gunicorn settings for the stateless rules service: CPU-bound, so processes rather than threads."""

import os

bind = os.environ.get("RULES_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("RULES_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("RULES_THREADS", "4"))
timeout = 30
keepalive = 5
# gunicorn's largest request line: up to it the app itself answers an over-long URL with the API's error body
# (414 request/too_large past 4096 bytes); only a line longer still is refused by gunicorn, as plain HTML.
limit_request_line = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
