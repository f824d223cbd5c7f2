"""Verifiable fairness (docs/fairness.md): the seed commitment and the check of a game export.

Pure Python, no Django: ``scripts/verify_game.py`` runs this with nothing but the repository on
``sys.path``, and ``manage.py verify_game`` runs the same code.

- The commitment: ``SHA-256`` of the UTF-8 bytes of ``"hanseweb-seed:v1:<seed>:<salt>"``, with
  the seed as a decimal integer (``-`` for a negative one, no leading zeros) and the salt as
  lower-case hex, given as 64 lower-case hex digits. The game stores it when it is created and
  shows it from the start; the seed and the salt are shown when the game is over.
- ``verify(export)`` checks a finished game's export from scratch: the commitment, the seat order
  drawn from the seed, every move replayed from the seed through the engine (legal in turn, in
  order), and the final result.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime

from . import IllegalMove, get_engine
from .rng import Rng, seed_state

FORMAT = "hanseweb-game"
FORMAT_VERSION = 1
COMMITMENT_PREFIX = "hanseweb-seed:v1:"
SALT_BYTES = 32
# The stream of the seat-order shuffle: the seed XOR this, so it is independent of the engine's
# own draws (games.services draws the random seat order with it).
SEAT_ORDER_STREAM = 0x5EA7_0DE5

# Move channels (games.models.Move): a player's own move, undo allowed; the deadline's default; a
# resigned seat's default; an administrator's entry.
HUMAN = ("web", "email")
TIMEOUT, AUTOPILOT, ADMIN = "timeout", "autopilot", "admin"
BOT = "bot"  # a practice game's bot: a listed move, never undone
UNDO = "undo"

_HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment_input(seed: int, salt: str) -> bytes:
    """The exact bytes that are hashed (docs/fairness.md)."""
    return f"{COMMITMENT_PREFIX}{int(seed)}:{salt}".encode("utf-8")


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 commitment to ``seed`` with ``salt``: 64 lower-case hex digits."""
    return hashlib.sha256(commitment_input(seed, salt)).hexdigest()


def seat_permutation(seed: int, players: int) -> list[int]:
    """A random seat order drawn from the seed: entry ``i`` is the place in the joining order
    (0 = the creator, who joined first) of the player who got seat ``i``."""
    return Rng(seed_state(int(seed) ^ SEAT_ORDER_STREAM)).shuffle(list(range(players)))


def rank_with_resignations(result: dict, resigned: list[int], players: int) -> dict:
    """The engine's result with resigned seats placed below every seat that played on, whatever
    their score (ties among the others and among the resigned keep sharing a place)."""
    if not resigned:
        return result
    order = sorted(range(players), key=lambda i: (i in resigned, result["ranking"][i]))
    ranking = [0] * players
    for pos, i in enumerate(order):
        prev = order[pos - 1] if pos else None
        same = prev is not None and (prev in resigned) == (i in resigned) and \
            result["ranking"][prev] == result["ranking"][i]
        ranking[i] = ranking[prev] if same else pos + 1
    return {**result, "ranking": ranking, "resigned": sorted(resigned)}


def undoable(engine, before: dict, after: dict, seat: int) -> bool:
    """Whether a player's step may be taken back (as ``games.services.undoable``): it revealed
    nothing hidden (no ``_`` key changed) and nobody else had or has to act."""
    if engine.to_act(before) != [seat] or engine.to_act(after) != [seat]:
        return False
    hidden = [k for k in set(before) | set(after) if k.startswith("_")]
    return all(before.get(k) == after.get(k) for k in hidden)


@dataclass
class Report:
    checks: list[str] = field(default_factory=list)     # what was checked and found right
    failures: list[str] = field(default_factory=list)   # what is wrong (empty: verified)
    unverifiable: str = ""                               # why nothing could be checked

    @property
    def ok(self) -> bool:
        return not self.failures and not self.unverifiable

    def text(self) -> str:
        lines = [f"  ok    {c}" for c in self.checks] + [f"  FAIL  {f}" for f in self.failures]
        if self.unverifiable:
            head = f"CANNOT VERIFY: {self.unverifiable}"
        elif self.failures:
            head = f"REJECTED: {len(self.failures)} check(s) failed"
        else:
            head = "VERIFIED: the seed matches the commitment, and every shuffle, move and the result follow from it"
        return "\n".join([head, *lines])


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def verify(data) -> Report:
    """Check a game export (the dict of ``/games/<id>/export.json``) from scratch."""
    report = Report()
    try:
        _verify(data, report)
    except _Stop as stop:
        report.failures.append(str(stop))
    return report


class _Stop(Exception):
    """A failure after which nothing further can be checked."""


def _need(data: dict, key: str, kind, what: str):
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _Stop(f"the file has no valid {what} ({key!r})")
    return value


def _verify(data, report: Report) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Stop(f"not a Hanseweb game export (expected \"format\": \"{FORMAT}\")")
    if data.get("format_version") != FORMAT_VERSION:
        raise _Stop(f"unknown format version {data.get('format_version')!r} (this checker reads {FORMAT_VERSION})")
    if data.get("status") != "finished" or data.get("seed") is None or data.get("salt") is None:
        report.unverifiable = ("the game is still running: its seed stays secret until the end, so it "
                               "can be verified only from the export made after it has finished")
        return

    # 1. the commitment
    salt = _need(data, "salt", str, "salt")
    claimed = _need(data, "commitment", str, "commitment")
    try:
        seed = int(_need(data, "seed", (str, int), "seed"))
    except ValueError:
        raise _Stop(f"the seed {data['seed']!r} is not an integer") from None
    if not _HEX64.fullmatch(claimed):
        raise _Stop("the commitment is not 64 lower-case hex digits")
    actual = commitment(seed, salt)
    if actual != claimed:
        report.failures.append(f"commitment mismatch: SHA-256 of seed and salt is {actual}, "
                               f"the file's commitment is {claimed} (seed, salt or commitment changed)")
    else:
        report.checks.append(f"commitment {claimed} = SHA-256 of the seed {seed} and the salt")
    if data.get("commitment_made_after_start"):
        report.checks.append("note: this game is older than commitments; its commitment was made after "
                             "it had started, so it proves nothing about the seed before then")

    # 2. the engine
    slug = _need(data, "engine", str, "engine")
    try:
        engine = get_engine(slug)
    except KeyError as exc:
        raise _Stop(f"engine: {exc.args[0]}") from None
    if str(data.get("engine_version")) != engine.version:
        raise _Stop(f"engine version: the file was made with {slug} version {data.get('engine_version')!r}, "
                    f"this checker has version {engine.version!r}; use a Hanseweb checkout of that version")
    report.checks.append(f"engine {slug} version {engine.version}")
    players = _need(data, "players", int, "player count")
    seats = _need(data, "seats", list, "seat list")
    if len(seats) != players or [s.get("seat") if isinstance(s, dict) else None for s in seats] != list(range(players)):
        raise _Stop(f"seats: expected seats 0..{players - 1} in order")

    # 3. the seat order
    mode = (data.get("seat_order") or {}).get("mode")
    joined = [s.get("joined") for s in seats]
    if mode == "random":
        drawn = seat_permutation(seed, players)
        if joined != drawn:
            report.failures.append(f"seat order: the seed draws joining places {drawn} for seats 0..{players - 1}, "
                                   f"the file has {joined}")
        else:
            report.checks.append("seat order drawn from the seed")
    else:
        report.checks.append(f"seat order set by {'the creator' if mode == 'creator' else 'joining order'} "
                             "(not drawn from the seed)")

    # 4. every move, replayed from the seed
    options = data.get("options") or {}
    seat_options = data.get("seat_options")
    if not isinstance(options, dict) or not isinstance(seat_options, list):
        raise _Stop("the file has no valid options / seat_options")
    try:
        state = engine.setup(players=players, seed=seed, options={**options, "seats": seat_options})
    except (IllegalMove, ValueError, TypeError, KeyError) as exc:
        raise _Stop(f"setup fails with these options: {exc}") from None
    resigned = sorted(s["seat"] for s in seats if s.get("resigned"))
    moves = _need(data, "moves", list, "move list")
    undo_state, undo_seat = None, None
    last_time = None
    for index, move in enumerate(moves, start=1):
        if not isinstance(move, dict):
            raise _Stop(f"move {index}: not an object")
        seq, seat, text, channel = move.get("seq"), move.get("seat"), move.get("text"), move.get("channel")
        where = f"move {index} (seq {seq}, seat {seat}, {text!r}, {channel})"
        if seq != index:
            raise _Stop(f"{where}: moves are not numbered 1, 2, 3 … in order (expected seq {index}); "
                        "moves were removed, added or reordered")
        if not isinstance(text, str) or not isinstance(seat, int) or not 0 <= seat < players:
            raise _Stop(f"{where}: no seat or no text (a move of a running game's export?)")
        at = _time(move.get("time"))
        if at is None:
            raise _Stop(f"{where}: no valid time (ISO 8601 with a time zone)")
        if last_time is not None and at < last_time:
            raise _Stop(f"{where}: made before the move before it; moves were reordered")
        last_time = at
        to_act = engine.to_act(state)
        if channel in HUMAN and text == UNDO:
            if undo_state is None or undo_seat != seat or to_act != [seat]:
                raise _Stop(f"{where}: nothing could be undone then")
            state, undo_state, undo_seat = undo_state, None, None
            continue
        if seat not in to_act:
            raise _Stop(f"{where}: not that seat's turn (to act: {to_act})")
        try:
            if channel in HUMAN or channel == BOT:
                if engine.canonical(state, seat, text) != text or text not in engine.legal_moves(state, seat):
                    raise IllegalMove(f"{text!r} is not one of that seat's legal moves then")
            elif channel == TIMEOUT:
                default = engine.default_move(state, seat)
                if text != default:
                    raise IllegalMove(f"a timeout makes the default move {default!r}, not {text!r}")
            elif channel == AUTOPILOT:
                if seat not in resigned:
                    raise IllegalMove("autopilot moves only for a resigned seat")
                # the autopilot is a bot (games.bots): any listed move, or the deadline's default
                if text not in engine.legal_moves(state, seat) and text != engine.default_move(state, seat):
                    raise IllegalMove(f"{text!r} is not one of that seat's moves then")
            elif channel != ADMIN:
                raise IllegalMove(f"unknown channel {channel!r}")
            after = engine.apply(state, seat, text)
        except (IllegalMove, ValueError, KeyError, IndexError, TypeError) as exc:
            raise _Stop(f"{where}: illegal: {exc}") from None
        if channel in HUMAN and undoable(engine, state, after, seat):
            undo_state, undo_seat = state, seat
        else:
            undo_state, undo_seat = None, None
        state = after
    report.checks.append(f"{len(moves)} moves replayed from the seed, each legal in turn")

    # 5. the result
    recorded = data.get("result")
    if not isinstance(recorded, dict):
        raise _Stop("the file has no result")
    if recorded.get("ended_by") == "resignation":
        expected = [2 if i in resigned else 1 for i in range(players)]
        if engine.to_act(state) == [] or recorded.get("ranking") != expected or recorded.get("scores") is not None:
            report.failures.append(f"result: a game ended by resignation ranks {expected} without scores; "
                                   f"the file has ranking {recorded.get('ranking')} and scores {recorded.get('scores')}")
        else:
            report.checks.append(f"result: ended by resignation, ranking {expected}")
        return
    final = engine.result(state)
    if final is None:
        report.failures.append("result: after the last move the game is not over")
        return
    final = rank_with_resignations(final, resigned, players)
    keys = ["scores", "ranking", "breakdown", "resigned"]
    keys += sorted(k for k in set(final) | set(recorded) if k not in keys)
    problems = [key for key in keys if _plain(final.get(key)) != _plain(recorded.get(key))]
    if problems:
        for key in problems:
            report.failures.append(f"result {key}: the replay gives {final.get(key)}, the file has {recorded.get(key)}")
    else:
        report.checks.append(f"result: scores {final['scores']}, ranking {final['ranking']}")


def _plain(value):
    return json.dumps(value, sort_keys=True)


def _time(value):
    if not isinstance(value, str):
        return None
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo is not None else None
