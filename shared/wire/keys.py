"""The deployment's secrets (``TOKEN_SECRET``, ``HOP_SECRET``): read from the environment or a file it names, and
refused when they could be guessed, with a message that says how to make a good one."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

MIN_CHARACTERS = 32  # 64 hex characters are what `openssl rand -hex 32` prints
MIN_BITS = 72.0  # of ``estimated_bits``; 32 random hex characters estimate 76 and more, 64 of them over 200
PLACEHOLDER = "change-me"  # what the Kubernetes base's Secrets hold until an overlay replaces them


class BadSecret(RuntimeError):
    """A service will not start on a secret that is missing, short, a placeholder, or plainly not random."""


def read_secret(env: Mapping[str, str], name: str) -> str:
    """``name``, or the contents of the file ``<name>_FILE`` names (without surrounding whitespace); "" when
    neither is set."""
    if env.get(name):
        return env[name]
    if env.get(f"{name}_FILE"):
        with open(env[f"{name}_FILE"], encoding="utf-8") as handle:
            return handle.read().strip()
    return ""


def estimated_bits(secret: str) -> float:
    """A rough estimate of a secret's randomness: its characters' Shannon entropy times its length, discounted by
    how much it repeats itself (the share of its 3-character runs that are distinct). Forty spaces estimate 0,
    ``"0123456789abcdef" * 2`` 68, a line of `openssl rand -hex 32` over 200."""
    if not secret:
        return 0.0
    counts, n = Counter(secret), len(secret)
    entropy = -sum(c / n * math.log2(c / n) for c in counts.values()) * n
    runs = [secret[i:i + 3] for i in range(n - 2)]
    return entropy * (len(set(runs)) / len(runs) if runs else 0.0)


def checked(name: str, secret: str, shared_by: str, why: str) -> bytes:
    """``secret`` as bytes, or ``BadSecret`` saying what is wrong and how to make one (``shared_by``: the processes
    that must all be given the same; ``why``: what it protects)."""
    if len(secret) < MIN_CHARACTERS:
        problem = "is missing" if not secret else f"is {len(secret)} characters long"
    elif secret.startswith(PLACEHOLDER):
        problem = "is still the deployment files' placeholder"
    elif estimated_bits(secret) < MIN_BITS:
        problem = "is not random enough (it repeats itself, or uses few characters)"
    else:
        return secret.encode()
    raise BadSecret(f"{name} (or a file named by {name}_FILE) {problem}: it must hold at least {MIN_CHARACTERS} random "
                    f"characters; make one with `openssl rand -hex 32` (or `python3 -c 'import secrets; "
                    f"print(secrets.token_hex(32))'`), the same in {shared_by}. {why}")
