"""What a seat reads of a game's history: the log events stored with the moves, read by index.

The state holds no history (DESIGN). Each ``Move`` row carries the events of its step
(``engine.events``, unfiltered) and the game row the events of its setup. A page, a mail or a
log page reads only the rows it shows, through the ``(game, seq)`` index, and filters every event
for the viewing seat (``games.engines.events.visible``), so its cost does not grow with the game.

An ``undo`` row takes back the row just before it: neither the undone step's events nor anything
else of it are shown; the undo row's own event says that a step was taken back.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engines.events import visible
from hanseweb import fastsql

from .models import Game, Move
from .presentation import event_text, fill_names, ids_in_words
from .services import HUMAN, UNDO

PAGE = 40  # moves per screenful of log (game page, mails, each page of the full log)


@dataclass
class Window:
    lines: list[dict]          # oldest first: {"seq", "seat", "text", "at", "channel"}
    older: int | None          # ``before`` of the next older window; None: this one starts the game
    newer: int | None          # ``before`` of the next newer window (0: the latest); None: this is it


_FIELDS = ("seq", "seat", "text", "channel", "created_at", "events")


def _window_rows():  # its SQL is made once (fastsql.rows); parameters: game, seq above, seq up to
    return (Move.objects.filter(game_id=0).filter(seq__gt=0).filter(seq__lte=0)
            .order_by("seq").values_list(*_FIELDS))


def _after_rows():  # parameters: game, seq above
    return Move.objects.filter(game_id=0).filter(seq__gt=0).order_by("seq").values_list(*_FIELDS)


def _lines(game: Game, rows: list[tuple], viewer, names: list[str], with_setup: bool) -> list[dict]:
    """Log lines of ``rows`` (oldest first, consecutive seqs) for ``viewer`` (a seat or None)."""
    undone = {seq - 1 for seq, _, text, channel, _, _ in rows if text == UNDO and channel in HUMAN}
    out = []
    if with_setup:
        for ev in visible(game.setup_events or [], viewer):
            out.append({"seq": 0, "seat": ev["seat"], "text": fill_names(event_text(ev), names),
                        "at": game.started_at, "channel": ""})
    replayed = _replayed_events(game) if any(row[5] is None for row in rows) else {}
    for seq, seat, text, channel, at, events in rows:
        if seq in undone:
            continue
        if events is None:  # logged before events were stored with their move: made again
            events = replayed[seq] if seq in replayed else [{"n": seq, "seat": seat, "text": "{p%d}: %s" % (seat, text)}]
        shown = "" if channel == Move.WEB else dict(Move.CHANNEL_CHOICES).get(channel, channel)
        for ev in visible(events, viewer):
            out.append({"seq": seq, "seat": ev["seat"], "text": fill_names(_said(game, ev), names),
                        "at": at, "channel": shown})
    return out


def _said(game: Game, ev: dict) -> str:
    """An event in words: its message in the reader's language; a text stored before the log
    named things in words (an id as a parameter or in the English text) with each place and
    route id in its name (``presentation.ids_in_words``)."""
    return ids_in_words(game.engine, event_text(ev))


def _replayed_events(game: Game) -> dict[int, list]:
    """The log events of the moves logged before events were stored with their move (``events``
    NULL), made again from the seed and the stored moves by the engine of today, so an old game
    reads in words too; the log itself is never rewritten. Made once per game and cached (those
    rows never change); {} when the stored moves no longer replay."""
    from django.core.cache import cache

    from games.engines.events import event
    from games.engines.i18n import msg

    from .services import UNDONE, advance, initial_state

    key = f"hw:old-events:{game.pk}"
    found = cache.get(key)
    if found is not None:
        return found
    last = Move.objects.filter(game_id=game.pk, events__isnull=True).order_by("-seq").values_list("seq", flat=True).first()
    found = {}
    if last is not None:
        engine, carry = game.engine_obj, None
        try:
            carry = (initial_state(game), None, None)
            rows = (Move.objects.filter(game_id=game.pk, seq__lte=last).order_by("seq")
                    .values_list("seq", "seat", "text", "channel", "events"))
            for seq, seat, text, channel, events in rows.iterator(chunk_size=2000):
                carry = advance(engine, carry, [(seat, text, channel)])
                if events is None:
                    found[seq] = ([event(0, seat, msg(UNDONE, player="{p%d}" % seat))] if text == UNDO and channel in HUMAN
                                  else engine.events(carry[0]))
        except Exception:  # an old log the engine of today refuses: its lines stay as stored
            found = {}
    cache.set(key, found, timeout=None)
    return found


def recent(game: Game, viewer, names: list[str], *, before: int | None = None, limit: int = PAGE,
           as_of: bool = False) -> Window:
    """The last ``limit`` moves' lines (before move ``before`` when given), oldest first.

    ``as_of``: the log as it read when move ``before - 1`` was the last one (the replay): a later
    ``undo`` row does not take the window's last move back."""
    end = game.move_count if before is None else max(0, min(int(before) - 1, game.move_count))
    # one row past the window too: an undo there takes back the window's last move
    rows = fastsql.rows(_window_rows, [game.pk, max(0, end - limit), end + 1])
    beyond = [r for r in rows if r[0] > end]
    rows = [r for r in rows if r[0] <= end]
    undone_last = not as_of and bool(beyond) and beyond[0][2] == UNDO and beyond[0][3] in HUMAN
    first = rows[0][0] if rows else end + 1
    lines = _lines(game, rows, viewer, names, with_setup=first <= 1)
    if undone_last:
        lines = [line for line in lines if line["seq"] != end]
    newer = None if end >= game.move_count else (0 if end + 1 + limit > game.move_count else end + 1 + limit)
    return Window(lines=lines, older=first if first > 1 else None, newer=newer)


def since(game: Game, viewer, names: list[str], after_seq: int, *, limit: int = 2 * PAGE) -> tuple[list[dict], int]:
    """What ``viewer`` has not been told: lines of the moves after ``after_seq`` (the newest
    ``limit`` moves of them), oldest first, and how many earlier moves were left out."""
    after_seq = max(0, int(after_seq or 0))
    start = max(after_seq, game.move_count - limit)
    rows = fastsql.rows(_after_rows, [game.pk, start])
    return _lines(game, rows, viewer, names, with_setup=after_seq == 0 and start == 0), start - after_seq
