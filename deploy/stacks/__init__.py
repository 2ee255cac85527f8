"""The stacks that start the project as local processes, for development, tests and benches: ``dev`` (``mythos run``:
Redis, both services under gunicorn, a worker), ``cluster`` (``mythos cluster``: Redis Cluster, the queue's Redis
with Sentinel, HAProxy), ``rediscluster`` (forms a cluster; compose's and Kubernetes' init job run it too) and
``supervise`` (starts again a part that exits). They import the services; the services never import them."""
