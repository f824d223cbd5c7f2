from __future__ import annotations

from datetime import date

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django_ratelimit.decorators import ratelimit

from games.engines import SLUG_MODULES, get_engine
from games.models import Game
from hanseweb import throttle
from hanseweb.accounts.models import User

from . import records

PAGE = 25


@login_required
@ratelimit(group="player_pages", key="user", rate=throttle.rate("search_pages_per_user"), method="GET")
def player(request, pk):
    from hanseweb.leagues.views import shared_league_life

    person = get_object_or_404(User, pk=pk, is_active=True)
    return render(request, "players/player.html", {
        "person": person,
        "running": records.games_of(person, request.user, Game.RUNNING, 50),
        "finished": records.games_of(person, request.user, Game.FINISHED, 50),
        "record": records.record_of(person, request.user),
        **shared_league_life(person, request.user),
    })


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


@login_required
@ratelimit(group="archive", key="user", rate=throttle.rate("search_pages_per_user"), method="GET")
def archive(request):
    form = ArchiveForm(request.GET or None)
    search = records.Search()
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        search = records.Search(engine=data["game"], player=data["player"], since=data["since"], until=data["until"])
    games = records.archive(search, request.user) if not form.is_bound or form.is_valid() else Game.objects.none()
    page = Paginator(games, PAGE).get_page(request.GET.get("page"))
    rows = []
    for game in page:
        result = game.result or {}
        ranking, scores = result.get("ranking") or [], result.get("scores") or []
        seats = sorted((s for s in game.seats.all() if s.number is not None), key=lambda s: s.number)
        rows.append({"game": game, "engine_name": get_engine(game.engine).name, "players": [
            {"user": s.user, "place": ranking[s.number] if s.number < len(ranking) else None,
             "score": scores[s.number] if s.number < len(scores) else None, "resigned": s.resigned}
            for s in sorted(seats, key=lambda s: (ranking[s.number] if s.number < len(ranking) else 99, s.number))]})
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "players/archive.html", {"form": form, "page": page, "rows": rows,
                                                    "query": query.urlencode()})
