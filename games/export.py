"""A game as a JSON document anyone can re-check (docs/fairness.md): ``/games/<id>/export.json``.

A finished game's export holds everything its replay needs (the seed and the salt, every seat's
settings, every move with its time and channel, the result), and is the same for everybody.
``games.engines.fairness.verify`` (``manage.py verify_game``, ``scripts/verify_game.py``) checks it.

A running game's export is made for one viewer and holds only what that viewer may know: no seed,
no salt, no other seat's private settings, and no move text that tells a hidden fact. Another
seat's move has its text ``null`` and ``hidden`` true when
- the engine declares such moves sealed (``Engine.sealed_moves``: Zanzibar's set-aside answers,
  Die Hanse's reaction answers and the value kept from a draw), or
- none of the move's log events can be read in full by the viewer (the per-seat filter of the
  log, ``games.engines.events.visible``: a decision nobody else is told about), or
- it was taken back (the page does not show undone steps either).
A move with a public log line (a placement that also deals private cards) keeps its text: the
text is the public part, the dealt cards are in the events, which the export does not hold.
Spectators get the public version.
"""
from __future__ import annotations

from games.engines.fairness import FORMAT, FORMAT_VERSION, HUMAN, UNDO

from . import presentation, services
from .models import Game, Move


def _iso(at) -> str | None:
    return at.isoformat() if at else None


def readable_by(event: dict, viewer) -> bool:
    """Can ``viewer`` (a seat number, or None for a spectator) read this log event in full?"""
    only = event.get("only")
    return only is None or (viewer is not None and viewer in only)


def hidden_from(engine, viewer, seat: int, text: str, events, undone: bool) -> bool:
    """Is this move's text (by ``seat``) a secret for ``viewer`` in a running game?"""
    if seat == viewer:
        return False
    if undone or engine.sealed(text):
        return True
    return bool(events) and not any(readable_by(ev, viewer) for ev in events)


def export(game: Game, viewer: int | None) -> dict:
    """The export of a started game for ``viewer`` (ignored once the game is finished)."""
    finished = game.status == Game.FINISHED
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    joining = sorted(game.seats.all(), key=lambda s: (s.joined_at, s.pk))
    names = presentation.player_names(game)
    engine = game.engine_obj
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": game.pk,
        "title": game.title,
        "engine": game.engine,
        "engine_name": engine.name,
        "engine_version": engine.version,
        "status": game.status,
        "players": game.players,
        "options": {k: v for k, v in (game.options or {}).items() if k != "seats"},
        "seat_order": {"mode": game.seat_order},
        "seats": [{"seat": s.number, "name": names[s.number], "joined": joining.index(s), "resigned": s.resigned,
                   "forfeited": s.forfeited}
                  for s in seats],
        # a seat that changed hands (a league's replacement): its moves up to after_seq were old's
        "takeovers": [{"seat": t.seat, "old": t.old_user.display_name, "new": t.new_user.display_name,
                       "after_seq": t.after_seq} for t in game.takeovers.select_related("old_user", "new_user")],
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "commitment_scheme": 'sha256(utf8("hanseweb-seed:v1:" + decimal(seed) + ":" + salt)), hex',
        "commitment": game.commitment,
        "commitment_made_after_start": game.commitment_late,
    }
    rows = list(Move.objects.filter(game_id=game.pk).order_by("seq")
                .values_list("seq", "seat", "text", "channel", "created_at", "events"))
    undone = {seq - 1 for seq, _, text, channel, _, _ in rows if text == UNDO and channel in HUMAN}
    moves = []
    for seq, seat, text, channel, at, events in rows:
        move = {"seq": seq, "seat": seat, "text": text, "channel": channel, "time": _iso(at)}
        if not finished and hidden_from(engine, viewer, seat, text, events, seq in undone):
            move.update(text=None, hidden=True)
        moves.append(move)
    data["moves"] = moves
    if finished:
        data.update(
            verifiable=True,
            seed=str(game.seed),
            salt=game.salt,
            seat_options=[dict(s.options) for s in seats],
            result=game.result,
        )
    else:
        data.update(
            verifiable=False,
            note="This game is still running: the seed and the salt stay secret until it ends, and this "
                 "export holds only what its viewer may know. Download it again when the game is over to "
                 "verify it.",
            viewer={"seat": viewer, "name": names[viewer] if viewer is not None else None},
            seat_options=[dict(s.options) if s.number == viewer else None for s in seats],
            result=None,
        )
    return data


def export_for(game: Game, user) -> dict:
    seat = services.seat_of(game, user)
    return export(game, seat.number if seat else None)
