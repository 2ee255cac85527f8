"""How the project is deployed: the configuration files (gunicorn, Redis, Sentinel, HAProxy, compose, Kubernetes) and,
in stacks/, the processes that run them on one machine for development and tests."""
