"""The long lists of the club and season pages as plain rows of text (issue 26).

A page of 80 members, 70 games, 80 ratings and 100 log lines spent most of its time in the
template's per-row work: a ``{% url %}`` per link, a ``floatformat`` per number, an include and a
seat loop per game, model instances per row. These helpers make each row's text in Python, from
``values_list`` rows, at a fraction of that cost; the templates print them."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.models import Game, Seat


def html_lines(pattern: str, rows) -> SafeString:
    """``pattern`` (``format_html``'s, fields by name) filled in for each row (a dict) and joined:
    the lines of a long list at a few microseconds each (a template spent about ten on every
    ``{{ field }}``), every field escaped unless it is safe already."""
    return mark_safe("".join(format_html(pattern, **row) for row in rows))


def url_of(name: str):
    """``pk -> reverse(name, args=[pk])`` for many rows at the cost of one ``reverse``."""
    marker = "2147483647"
    head, tail = reverse(name, args=[int(marker)]).split(marker)
    return lambda pk: f"{head}{pk}{tail}"


def user_name(display_name: str, email: str) -> str:
    """``str(user)`` from the two columns it reads (``User.__str__``)."""
    return display_name or email


def local_minute(value) -> str:
    """``value|date:"Y-m-d H:i"`` in the active time zone, without the date filter's parser."""
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else ""


def numbers(places: int):
    """``value -> value|floatformat:places`` in the active language (its decimal separator; no
    grouping, as ``floatformat`` without ``g``), without the filter's cost per call: rounded half
    up from the value's shortest decimal text, no "-0.0"; a negative ``places`` leaves a whole
    number without decimals."""
    separator = formats.get_format("DECIMAL_SEPARATOR")
    step = Decimal(1).scaleb(-abs(places))

    def text(value) -> str:
        d = Decimal(str(value))
        if places <= 0 and d == d.to_integral_value():
            return "%d" % int(d)
        d = d.quantize(step, ROUND_HALF_UP)
        return format(d if d else abs(d), "f").replace(".", separator)

    return text


class Seated:
    """A seat as a list shows it: ``number``, ``user_id``, ``name``, ``resigned``, ``forfeited``
    (what ``standings.result_of``, the pages and the results feed read of a ``games.models.Seat``)."""

    __slots__ = ("number", "user_id", "name", "resigned", "forfeited")

    def __init__(self, number, user_id, name, resigned, forfeited):
        self.number, self.user_id, self.name, self.resigned, self.forfeited = number, user_id, name, resigned, forfeited


def seats_of(game_ids) -> dict[int, list[Seated]]:
    """{game id: its seats in seat order, with the players' names}, in one query."""
    seats: dict[int, list[Seated]] = {}
    for game_id, number, uid, display_name, email, resigned, forfeited in (
            Seat.objects.filter(game_id__in=list(game_ids)).order_by("game_id", "number")
            .values_list("game_id", "number", "user_id", "user__display_name", "user__email", "resigned", "forfeited")):
        seats.setdefault(game_id, []).append(Seated(number, uid, user_name(display_name, email), resigned, forfeited))
    return seats


def game_rows(games: list[tuple[int, str, str]], seats: dict[int, list[Seated]] | None = None) -> list[dict]:
    """A list line per game (``(id, title, status)``): its link, title, players in seat order (a
    resigned one marked) and status, as text; the seats of all of them read in one query unless
    given (``seats_of``)."""
    seats = seats_of([g[0] for g in games]) if seats is None else seats
    resigned = _("(resigned)")
    url = url_of("game")
    status = {k: str(v) for k, v in Game.STATUS_CHOICES}
    return [{"id": pk, "url": url(pk), "title": title, "status": status.get(st, st),
             "players": ", ".join(f"{s.name} {resigned}" if s.resigned else s.name for s in seats.get(pk, ()))}
            for pk, title, st in games]


# A game's line in a list (``game_rows``).
GAME_LINE = '<li><a href="{url}">{title}</a>: {players} — {status}</li>\n'
