"""The engine contract every game follows (see docs/engine-contract.md)."""
from __future__ import annotations

import re

from .i18n import N_, lit, say
from .searching import SEARCHING


class IllegalMove(ValueError):
    """A move that is malformed, out of turn or against the rules.

    The message is shown to the player (web page, email reply), so it must say in plain words
    what was wrong. It is an English text marked ``N_`` or a ``say(...)`` (games/engines/i18n.py):
    ``str(exc)`` is English, ``exc.message`` the key and parameters the presentation layer
    translates (docs/i18n.md).
    """

    @property
    def message(self):
        return getattr(self.args[0], "message", self.args[0]) if self.args else ""


class Engine:
    """Base class of a game engine. Subclasses implement the rules.

    State is a JSON-serialisable dict. Every method is pure: ``apply`` returns a
    new state and never mutates its input.
    """

    slug: str = ""
    name: str = ""
    # The rules code's version: a seed and a move log give the same game under one version.
    # Recorded in game exports (docs/fairness.md); bumped when that stops being true.
    version: str = ""
    min_players: int = 2
    max_players: int = 4
    # Variants offered when a game is created: list of
    # {"key": str, "label": str, "choices": [[value, label], ...], "default": value}
    option_specs: list[dict] = []
    # Private per-seat settings chosen by each player when joining (e.g. Hansa's
    # "ask me which tile to lose"). Same shape as option_specs. They arrive in
    # options["seats"]: a list with one dict per seat. A seat's view shows only its own.
    seat_option_specs: list[dict] = []
    # Moves whose very text is a secret of the mover until the game ends (a sealed answer, the
    # value kept from a private draw): regular expressions a whole canonical move matches. A
    # running game's export shows such a move's text only to its own seat (docs/fairness.md).
    sealed_moves: tuple[str, ...] = ()

    # --- the contract -------------------------------------------------
    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        raise NotImplementedError

    def to_act(self, state: dict) -> list[int]:
        raise NotImplementedError

    def legal_moves(self, state: dict, seat: int) -> list[str]:
        raise NotImplementedError

    def apply(self, state: dict, seat: int, move: str) -> dict:
        raise NotImplementedError

    def view(self, state: dict, seat: int | None) -> dict:
        raise NotImplementedError

    def result(self, state: dict) -> dict | None:
        raise NotImplementedError

    def canonical(self, state: dict, seat: int, text: str) -> str:
        """The canonical text of ``text`` as a move of ``seat`` now; raises IllegalMove.

        Engines override this with their forgiving parser; this default accepts exactly the
        listed moves, ignoring case and spacing."""
        wanted = " ".join(str(text).lower().split())
        if wanted in self.legal_moves(state, seat):
            return wanted
        raise IllegalMove(say(N_("{move} is not one of the moves you can make now"), move=lit(repr(text))))

    def checked(self, state: dict, seat: int, move: str) -> str:
        """The move ``apply`` makes of ``move``: its canonical text (``canonical``, which refuses an
        illegal one), or, inside a bot's search (``searching``), ``move`` as listed."""
        return move if SEARCHING.get() else self.canonical(state, seat, move)

    def events(self, state: dict) -> list[dict]:
        """The log events of the step that produced ``state`` (the setup's events for the state
        ``setup`` returned), unfiltered: ``{"n", "seat", "text"}`` plus ``only``/``redacted`` for
        events some seats may not read (``games.engines.events``). The state keeps no history:
        the service stores these with the move and filters them per seat when it shows them."""
        return list(state.get("log") or [])

    def sealed(self, move: str) -> bool:
        """Is ``move``'s text a secret of the seat that made it (``sealed_moves``)?"""
        return any(re.fullmatch(pattern, move) for pattern in self.sealed_moves)

    # --- optional helpers the service uses ------------------------------
    def default_move(self, state: dict, seat: int) -> str | None:
        """The move taken for ``seat`` when its deadline passes (the spec's default).

        ``None`` means the service has no default and treats the timeout as a resignation.
        """
        return None

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise IllegalMove(say(N_("{game} is for {min}–{max} players, not {players}"), game=lit(self.name),
                                  min=self.min_players, max=self.max_players, players=lit(players)))

    def normalise_options(self, options: dict | None, players: int) -> dict:
        """Fill defaults and reject unknown or invalid options.

        Returns {variant key: value, ..., "seats": [ {seat option: value}, ... per seat ]}.
        """
        options = dict(options or {})
        seats = options.pop("seats", None)
        out = _checked(options, self.option_specs, self.name)
        if seats is None:
            seats = [{} for _ in range(players)]
        if not isinstance(seats, list) or len(seats) != players:
            raise IllegalMove(say(N_("options['seats'] must list one dict per seat ({players})"), players=players))
        out["seats"] = [_checked(dict(s or {}), self.seat_option_specs, self.name) for s in seats]
        return out


def _checked(options: dict, specs: list[dict], game: str) -> dict:
    known = {spec["key"]: spec for spec in specs}
    for key in options:
        if key not in known:
            raise IllegalMove(say(N_("unknown option {key} for {game}"), key=lit(repr(key)), game=lit(game)))
    out = {}
    for key, spec in known.items():
        value = options.get(key, spec["default"])
        allowed = [choice[0] for choice in spec["choices"]]
        # compare types too: True must not pass for 1
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise IllegalMove(say(N_("option {key} must be one of {allowed}, not {value}"), key=lit(repr(key)),
                                  allowed=lit(allowed), value=lit(repr(value))))
        out[key] = value
    return out
