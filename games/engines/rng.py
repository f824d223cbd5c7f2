"""A small seeded generator whose whole state is one integer, so it lives in the
JSON game state (hidden part) and replays deterministically.

SplitMix64 (Steele, Lea & Flood 2014): fast, well distributed, trivially serialisable.
"""
from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Initial generator state for an arbitrary (possibly huge or negative) seed."""
    return int(seed) & _MASK


def next_u64(rng: int) -> tuple[int, int]:
    """Return (new_rng_state, 64-bit output)."""
    rng = (rng + 0x9E3779B97F4A7C15) & _MASK
    z = rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return rng, z ^ (z >> 31)


def randbelow(rng: int, n: int) -> tuple[int, int]:
    """Uniform integer in [0, n) without modulo bias. Returns (new_rng_state, value)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        rng, x = next_u64(rng)
        if x < limit:
            return rng, x % n


def shuffled(rng: int, items: list) -> tuple[int, list]:
    """Fisher–Yates shuffle of a copy of ``items``. Returns (new_rng_state, shuffled list)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        rng, j = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return rng, out


class Rng:
    """Convenience wrapper for code that draws several numbers in a row.

    ``Rng(state["_rng"])`` ... ``state["_rng"] = r.state`` when done.
    """

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state

    def below(self, n: int) -> int:
        self.state, value = randbelow(self.state, n)
        return value

    def shuffle(self, items: list) -> list:
        self.state, out = shuffled(self.state, items)
        return out

    def choice(self, items: list):
        return items[self.below(len(items))]
