"""Claims of an ``Idempotency-Key`` on a create: the first request under a client's key claims what it makes (a
table's game id and secret; a challenge's id) for ``ttl_s``, and every retry under that key reads the same claim
(``<prefix>:{<kind>-<client hash>}:<key hash>``, ``kind`` ``create`` for tables and ``challenge`` for challenges, so
one key sent to both is two requests; neither hash is kept in the clear)."""

from __future__ import annotations

from session_service.storage.store import EventStore


class CreateClaims:
    def __init__(self, store: EventStore, kind: str = "create"):
        self._redis, self._prefix, self._kind = store.redis, store.prefix, kind

    def _key(self, client_hash: str, key_hash: str) -> str:
        return f"{self._prefix}:{{{self._kind}-{client_hash[:16]}}}:{key_hash[:32]}"

    def claim(self, client_hash: str, key_hash: str, claim: bytes, ttl_s: int) -> tuple[bool, bytes | None]:
        """Claim the key with ``claim``: (True, None) when this one is first, else (False, the claim made first; None
        if it expired between the two reads)."""
        key = self._key(client_hash, key_hash)
        if self._redis.set(key, claim, nx=True, ex=ttl_s):
            return True, None
        first: bytes | None = self._redis.get(key)
        return False, first

    def release(self, client_hash: str, key_hash: str) -> None:
        """Free the key again (what it claimed was refused before anything of it was written)."""
        self._redis.delete(self._key(client_hash, key_hash))
