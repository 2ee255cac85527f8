"""The Redis adapters: the event store and its append script, the listing's indexes, and every Redis client
(one Redis or a Redis Cluster)."""
