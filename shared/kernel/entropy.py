"""Verifiable randomness: every random draw comes from HMAC(seed, version).

The session service keeps the seed secret while the game runs and publishes sha256(seed) at creation; once
the game is over the seed is revealed and anyone can re-derive each command's entropy and re-decide it.
"""

from __future__ import annotations

import hashlib
import hmac
import random


def entropy_for(seed: bytes, version: int) -> bytes:
    """Entropy for the command applied at ``version`` (setup is applied at version 0)."""
    return hmac.new(seed, str(version).encode(), hashlib.sha256).digest()


def rng(entropy: bytes) -> random.Random:
    """The only PRNG a game may use, seeded from the entropy it was handed."""
    return random.Random(int.from_bytes(entropy, "big"))


def seat_rng(seed: bytes, purpose: str, seat: int, version: int) -> random.Random:
    """The PRNG of a choice the server makes for a seat (``purpose``: "ai", "timeout") at ``version``.

    Drawn from the game's secret seed, so no player can predict an AI's or a timer's choice while the game runs
    (every input of a formula such as ``f"{game}:{seat}:{version}"`` is public), and the audit can reproduce it
    once the seed is revealed. The purpose keeps it apart from the entropy the rules draw at that version."""
    return rng(hmac.new(seed, f"{purpose}|{seat}|{version}".encode(), hashlib.sha256).digest())


def commitment(seed: bytes) -> str:
    """The public promise made at creation: sha256 of the secret seed, hex."""
    return hashlib.sha256(seed).hexdigest()
