from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone
from html import escape  # Django's escape is this, behind a lazy-string wrapper that costs per call

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import localize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_ratelimit.decorators import ratelimit

from games.engines import SLUG_MODULES, get_engine
from games.models import Game, Seat
from games.services import GAMES_SCOPE
from games.templatetags.games_extras import day_dates
from hanseweb import pagecache, pageversion, throttle
from hanseweb.accounts.models import User
from hanseweb.leagues import changes as leagues_changes
from hanseweb.leagues.rows import url_of

from . import records

PAGE = 25


@login_required
@ratelimit(group="player_pages", key="user", rate=throttle.rate("search_pages_per_user"), method="GET")
def player(request, pk):
    from hanseweb.leagues.views import shared_league_life

    kept = pagecache.enabled()
    version = _player_version(pk) if kept else None
    if version is not None and version[0].endswith(":0"):  # no such active player
        raise Http404  # as get_object_or_404 in make()

    def make():
        person = get_object_or_404(User, pk=pk, is_active=True)
        return render(request, "players/player.html", {
            "person": person,
            "running": _rows(records.games_of(person, request.user, Game.RUNNING, 50)),
            "finished": _rows(records.games_of(person, request.user, Game.FINISHED, 50)),
            # counted with the page when the page is kept (its version holds what the record counts)
            "record": records.record_of(person, request.user, cached=not kept),
            **shared_league_life(person, request.user),
        })

    if not kept:
        return make()
    return pagecache.respond(request, "player", make, scopes=("names", GAMES_SCOPE, leagues_changes.SCOPE),
                             version=version)


def _rows(found: list) -> list[dict]:
    """A player's games as the page lists them, each line's texts made here once (a heavy
    player's page lists a hundred: a template tag or filter a row cost more than the reads)."""
    url, day = url_of("game"), day_dates()
    move, place, points = gettext("move %(n)s"), gettext("place %(place)s"), gettext("%(score)s points")
    rows = []
    for row in found:
        game, names = row.game, ", ".join(row.names)
        if game.status == Game.FINISHED:
            meta = f"{row.engine_name} · {day(game.finished_at)} · {names}"
        else:
            meta = f"{row.engine_name} · {names} · " + move % {"n": localize(game.move_count)}
        rows.append({"url": url(game.pk), "title": game.title, "meta": meta, "my_turn": row.my_turn,
                     "resigned": row.resigned, "place": place % {"place": localize(row.place)} if row.place else "",
                     "score": points % {"score": localize(row.score)} if row.score is not None else ""})
    return rows


def _player_version(pk: int) -> tuple:
    return pageversion.digest_of(_player_parts, pk)


def _player_parts(pid: int) -> list:
    """What a player's page shows that moves change, as values-list parts of its version
    (``pageversion``): the player (none: no page; their name and since when they play), the
    player's seats, each game's status, move count, who is to act, end and last move, and the
    seat's resignation and decision counters (the record). The rest is in the scopes: ``"games"``
    (seats joined, left, resigned, taken over, handed over; games started and finished),
    ``"leagues"`` (ratings and their changes, clubs, memberships, seasons, entries, a league made
    public: what the page lists and which games another viewer may see), ``"names"``."""
    return [User.objects.filter(pk=pid, is_active=True).values_list("display_name", "date_joined"),
            Seat.objects.filter(user_id=pid, number__isnull=False).order_by()
            .values_list("game_id", "number", "resigned", "decisions_made", "timed_out", "game__status",
                         "game__move_count", "game__to_act", "game__finished_at", "game__last_move_at")]


class ArchiveForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    player = forms.CharField(label=_("Player"), required=False, max_length=60,
                             help_text=_("part of a player's name"))
    since = forms.DateField(label=_("Ended on or after"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("Ended on or before"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("any game"))] + [(slug, get_engine(slug).name) for slug in SLUG_MODULES]

    def clean_player(self):
        text = self.cleaned_data["player"]
        if any(ord(c) < 32 for c in text):
            raise forms.ValidationError(_("A name holds no control characters."))
        return " ".join(text.split())

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The first date comes after the second."))
        for name in ("since", "until"):
            if data.get(name) and not date(1900, 1, 1) <= data[name] <= date(9000, 1, 1):
                self.add_error(name, _("Give a date between the years 1900 and 9000."))
        return data


def _cursor(text: str | None):
    """A page key from a link: "<finished_at in microseconds since 1970>-<id>"; None if it is not one."""
    try:
        micros, pk = (int(part) for part in (text or "").split("-"))
        if micros < 0 or pk < 1 or pk > 2 ** 63:
            return None
        return datetime.fromtimestamp(0, dt_timezone.utc) + timedelta(microseconds=micros), pk
    except (ValueError, OverflowError):
        return None


def _link(key) -> str:
    at, pk = key
    return f"{(at - datetime.fromtimestamp(0, dt_timezone.utc)) // timedelta(microseconds=1)}-{pk}"


def _archive_rows(games, seats) -> list[dict]:
    """The archive's rows as plain text, each players' cell as ready markup (places, linked names,
    scores, resignations): one pass in Python, where the template's loops, ifs and ``{% url %}``
    per player cost more than the rest of the page (issue 26)."""
    game_url, player_url, day_date = url_of("game"), url_of("players:player"), day_dates()
    moves, resigned = gettext("%(n)s moves"), f' <span class="muted">{escape(gettext("resigned"))}</span>'
    rows = []
    for game in games:
        result = game.result or {}
        ranking, scores = result.get("ranking") or [], result.get("scores") or []
        players = []
        for number, user_id, name, gone in sorted(
                seats.get(game.pk, []), key=lambda s: (ranking[s[0]] if s[0] < len(ranking) else 99, s[0])):
            place = ranking[number] if number < len(ranking) else None
            score = scores[number] if number < len(scores) else None
            cell = f'{place}. ' if place else ""
            cell += f'<a href="{player_url(user_id)}">{escape(name)}</a>'
            if score is not None:
                # an int reads the same localized (no thousands separator on this site); a float may not
                cell += f" ({score if type(score) is int else escape(localize(score))})"
            players.append(cell + resigned if gone else cell)
        rows.append({"url": game_url(game.pk), "title": game.title, "engine_name": get_engine(game.engine).name,
                     "moves": moves % {"n": game.move_count}, "ended": day_date(game.finished_at),
                     "players": mark_safe(", ".join(players))})  # noqa: S308 - every part escaped above
    return rows


@login_required
@ratelimit(group="archive", key="user", rate=throttle.rate("search_pages_per_user"), method="GET")
def archive(request):
    """Finished games, a page at a time: "older" and "newer" links carry the key (finished_at, id)
    of the page's last or first game (records.archive), every filter kept.

    A page is kept whole in the cache (``hanseweb.pagecache``; per viewer, path with the query,
    language and time zone) until the scope "games" (a game finished, who sits at a game:
    ``games.services``), "leagues" (who may see a club's games: a membership, a league made public;
    ``hanseweb.leagues.changes``) or "names" (a display name, which the page shows and searches)
    moves on: a finished game's row never changes otherwise."""
    return pagecache.respond(request, "archive", functools.partial(_archive, request),
                             scopes=(GAMES_SCOPE, leagues_changes.SCOPE, "names"))


def _archive(request):
    form = ArchiveForm(request.GET or None)
    search = records.Search()
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        search = records.Search(engine=data["game"], player=data["player"], since=data["since"], until=data["until"])
    if form.is_bound and not form.is_valid():
        page = records.Page([], None, None)
    else:
        page = records.archive(search, request.user, after=_cursor(request.GET.get("older")),
                               before=_cursor(request.GET.get("newer")), size=PAGE)
    rows = _archive_rows(page.games, records.seats_of([g.pk for g in page.games]))
    query = request.GET.copy()
    for name in ("page", "older", "newer"):
        query.pop(name, None)
    return render(request, "players/archive.html", {
        "form": form, "rows": rows, "query": query.urlencode(),
        "newer": _link(page.newer) if page.newer else None, "older": _link(page.older) if page.older else None})
