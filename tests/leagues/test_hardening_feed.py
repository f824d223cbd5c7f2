"""Issue 28 item 4: a name holding characters XML 1.0 cannot carry (stored before names were
checked) no longer makes the league's Atom feed a 500 for every subscriber."""
from datetime import timedelta
from xml.etree import ElementTree

from games import services as games
from hanseweb.accounts.models import User
from hanseweb.leagues import feeds, services
from hanseweb.leagues.models import League, Table


def test_the_results_feed_survives_control_characters_in_names(client, running_season):
    season, organiser, members = running_season
    services.start_due_rounds(season.starts_at + timedelta(seconds=1))
    game = Table.objects.filter(round__season=season).first().game
    winner = game.seats.get(number=0).user
    # as an old row could hold them (update() skips the forms' checks)
    User.objects.filter(pk=winner.pk).update(display_name="Bob\x1b[0m\x0b")
    League.objects.filter(pk=season.league.pk).update(name="Winter\x01\x1f")
    type(game).objects.filter(pk=game.pk).update(title="Round\x08 1")
    for seat in game.seats.exclude(number=0):
        games.resign(game.pk, seat.user)
    response = client.get(feeds.league_results_url(season.league))
    assert response.status_code == 200
    root = ElementTree.fromstring(response.content)  # well-formed XML 1.0
    text = "".join(root.itertext())
    assert "Bob\ufffd[0m\ufffd wins" in text and "\x1b" not in response.content.decode()
