"""The embedded default's demo club (``manage.py demo_club``, run by scripts/serve) and the
``league_rounds`` command."""
import pytest
from django.core.management import call_command

from hanseweb.leagues.models import Club, Season, Table

pytestmark = pytest.mark.django_db


def test_demo_club_once_with_a_running_league(settings, client):
    settings.EMBEDDED = True
    call_command("demo_club")
    call_command("demo_club")
    club = Club.objects.get(slug="demo-club")
    assert club.memberships.count() == 6
    season = Season.objects.get(league__club=club)
    assert season.status == Season.RUNNING
    assert Table.objects.filter(round__season=season).count() == 2
    client.force_login(club.created_by)
    assert "Demo Hansa League" in client.get(club.get_absolute_url()).content.decode()


def test_demo_club_only_on_the_embedded_default(settings):
    settings.EMBEDDED = False
    call_command("demo_club")
    assert not Club.objects.exists()


def test_league_rounds_command(running_season, capsys):
    call_command("league_rounds")
    assert "3 league games created" in capsys.readouterr().out
