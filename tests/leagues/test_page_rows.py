"""hanseweb/leagues/rows.py: the club and season pages' rows made in Python say what the template
filters they replace said (issue 26)."""
import random
from datetime import datetime, timezone as dt_timezone

import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import timezone, translation

from hanseweb.leagues.rows import local_minute, numbers, url_of


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_numbers_are_floatformat_in_every_language(language):
    rng = random.Random(26)
    values = [0, 0.0, -0.0, -0.04, 0.05, 0.15, 0.25, 2.5, -2.5, 12.25, 1234567.891, -1e-9, 3.0, 7, 25.0 - 3 * 8.333]
    values += [rng.uniform(-50, 50) for _ in range(400)] + [round(rng.uniform(-50, 50), 2) for _ in range(400)]
    values += [rng.randint(-30, 30) / 2 for _ in range(100)]  # whole and half points
    with translation.override(language):
        for places in (-1, 1, 2):
            text = numbers(places)
            for value in values:
                assert text(value) == floatformat(value, places), (language, places, value)


def test_url_of_is_reverse():
    for name in ("game", "players:player"):
        url = url_of(name)
        for pk in (1, 7, 2147483647, 123456):
            assert url(pk) == reverse(name, args=[pk])


@pytest.mark.parametrize("zone", ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu"])
def test_local_minute_is_the_date_filter_in_the_active_zone(zone):
    at = datetime(2026, 3, 29, 0, 59, 30, tzinfo=dt_timezone.utc)
    with timezone.override(zone):
        assert local_minute(at) == Template('{{ at|date:"Y-m-d H:i" }}').render(Context({"at": at}))
        assert local_minute(at) != "2026-03-29 00:59" or zone == "UTC"


def test_html_lines_escape_every_field_but_safe_ones():
    from django.utils.html import format_html

    from hanseweb.leagues.rows import html_lines

    mark = format_html("<abbr>{}</abbr>", "<i>")
    out = html_lines('<li><a href="{url}">{name}</a>{mark}</li>', [{"url": "/x?a=1&b=2", "name": "<b>Eve</b>", "mark": mark},
                                                                  {"url": "/y", "name": "Bo", "mark": ""}])
    assert out == ('<li><a href="/x?a=1&amp;b=2">&lt;b&gt;Eve&lt;/b&gt;</a><abbr>&lt;i&gt;</abbr></li>'
                   '<li><a href="/y">Bo</a></li>')


@pytest.mark.django_db
def test_a_name_with_markup_is_text_on_the_club_and_season_pages(client, started):
    """Stored before names were checked, a name holding markup is shown as text in every list the
    pages make in Python (members, ratings, games, standings, log)."""
    from hanseweb.accounts.models import User
    from hanseweb.leagues.models import Table

    season, organiser, members = started
    player = Table.objects.filter(round__season=season).first().game.seats.get(number=0).user
    User.objects.filter(pk=player.pk).update(display_name="<b>Bold</b> Bert")
    client.force_login(organiser)
    for url in (season.league.club.get_absolute_url(), season.get_absolute_url()):
        page = client.get(url).content.decode()
        assert "&lt;b&gt;Bold&lt;/b&gt; Bert" in page and "<b>Bold</b>" not in page
