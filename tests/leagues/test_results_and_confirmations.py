"""Issue 25 items 1 and 2: results that say what happened (no "to act" in a finished game; a
forfeit is a forfeit on the game page, in the result mail, the standings, the Atom feed and the
export; a replacement takes over the seat in running games, the autopilot being a separate named
choice; the forfeit form offers that table's players still in the game, several at once, with
errors addressed to the organiser; the fairness line counts the place), and confirmations naming
the consequence for leave, drop, replace, forfeit and finish (the leave button not the page's
primary action)."""
import json
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import services as games
from games.models import Game, Move, SeatTakeover
from hanseweb.leagues import feeds, services
from hanseweb.leagues.models import Entry, Season, Table
from hanseweb.leagues.services import LeagueError

from ..conftest import committed
from ..factories import UserFactory

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _post(client, user, season, action, data):
    client.force_login(user)
    return client.post(reverse("leagues:organise", args=[season.pk, action]), data, follow=True)


def _errors(response):
    return [str(m) for m in response.context["messages"] if m.level_tag == "error"]


# --- item 1: results ----------------------------------------------------------------

def test_a_finished_game_shows_nobody_to_act(client, started_game):
    game, users = started_game("hansa", 3)
    to_act = game.to_act[0]
    others = [s for s in range(3) if s != to_act]
    # the two players who are not to act resign: the game ends with the third's decision pending
    for number in others:
        games.resign(game.pk, game.seats.get(number=number).user)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    client.force_login(game.seats.get(number=to_act).user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Final result" in page
    assert '<span class="badge">to act</span>' not in page
    assert "Waiting for" not in page


def test_a_forfeit_is_a_forfeit_on_every_channel(client, started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season).select_related("game").first()
    seats = list(table.game.seats.order_by("number"))
    losers = [seats[1].user, seats[2].user]
    mail.outbox = []
    with committed():
        services.award_forfeit(season, organiser, table.game_id, losers)  # both at once: the game ends
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.FINISHED
    assert game.result["ended_by"] == "forfeit" and game.result["forfeited"] == [1, 2]

    # the game page
    client.force_login(seats[0].user)
    page = _text(client.get(game.get_absolute_url()).content.decode())
    assert "The game ended by forfeit" in page and "(forfeit)" in page
    assert "resignation" not in page and "(resigned)" not in page
    # the result mail
    (over,) = [m for m in mail.outbox if m.to == [seats[1].user.email] and "over" in m.subject.lower()]
    assert "is over by forfeit" in over.body and "(forfeit)" in over.body and "(resigned)" not in over.body
    # the standings (page and CSV)
    season_page = _text(client.get(season.get_absolute_url()).content.decode())
    assert "(forfeit)" in season_page
    csv = client.get(reverse("leagues:standings_csv", args=[season.pk])).content.decode()
    forfeits = {line.split(",")[2]: line.split(",")[-1].strip() for line in csv.splitlines()[1:]}
    assert forfeits[str(losers[0])] == "1" and forfeits[str(seats[0].user)] == "0"
    # the Atom feed
    client.logout()
    feed = client.get(feeds.league_results_url(season.league)).content.decode()
    assert f"{losers[0]} (forfeit)" in feed and "(resigned)" not in feed and "Ended by forfeit." in feed
    # the export
    client.force_login(seats[0].user)
    data = json.loads(client.get(reverse("game_export", args=[game.pk])).content)
    assert [s["forfeited"] for s in data["seats"]] == [False, True, True]


def test_a_players_own_resignation_stays_a_resignation(started_game):
    game, users = started_game("hansa", 3)
    games.resign(game.pk, users[1])
    game.refresh_from_db()
    assert not game.seats.get(user=users[1]).forfeited
    assert "forfeited" not in (game.result or {})


def test_replacement_takes_over_the_seat_in_running_games(client, started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season).select_related("game").first()
    game = table.game
    old = game.seats.get(number=game.to_act[0]).user  # the seat to act now: the takeover is tested at once
    number = game.seats.get(user=old).number
    newcomer = UserFactory(display_name="Erik")
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    mail.outbox = []
    with committed():
        response = _post(client, organiser, season, "replace", {
            "player": old.pk, "replacement": newcomer.pk, "running": "take-over", "confirm": "yes"})
    assert not _errors(response)
    game.refresh_from_db()
    seat = game.seats.get(number=number)
    assert seat.user == newcomer and not seat.resigned  # the same seat, not resigned (no autopilot)
    table.refresh_from_db()
    assert table.seat_order[number] == newcomer.pk and old.pk not in table.seat_order
    takeover = SeatTakeover.objects.get(game=game)
    assert (takeover.old_user, takeover.new_user, takeover.seat) == (old, newcomer, number)
    # the newcomer hears of it, and plays the seat from now on; the old player no longer can
    assert any(m.to == [newcomer.email] and "take over" in m.subject for m in mail.outbox)
    move = game.engine_obj.legal_moves(game.state_cache, number)[0]
    with pytest.raises(games.GameError):
        games.submit_move(game.pk, old, move, expected_seq=game.move_count)
    games.submit_move(game.pk, newcomer, move, expected_seq=game.move_count)
    assert Move.objects.filter(game=game).order_by("-seq").first().user == newcomer
    # the page and the log say who played which moves
    client.force_login(newcomer)
    page = _text(client.get(game.get_absolute_url()).content.decode())
    if takeover.after_seq:
        assert f"Erik took over the seat of {old} after move {takeover.after_seq}" in page
    else:
        assert f"Erik took over the seat of {old} before the first move" in page
    log = _text(client.get(reverse("game_log", args=[game.pk])).content.decode())
    assert f"Erik took over the seat of {old}" in log
    # the season: old dropped, newcomer active in the same division
    assert Entry.objects.get(season=season, user=old).status == Entry.DROPPED
    assert Entry.objects.get(season=season, user=newcomer).replaces.user == old


def test_autopilot_is_a_separate_named_choice(client, started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season).select_related("game").first()
    old = table.game.seats.get(number=1).user
    newcomer = UserFactory(display_name="Erik")
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    client.force_login(organiser)
    page = client.get(season.get_absolute_url()).content.decode()
    assert 'name="running" value="take-over" checked' in page and 'name="running" value="autopilot"' in page
    response = _post(client, organiser, season, "replace", {
        "player": old.pk, "replacement": newcomer.pk, "running": "autopilot", "confirm": "yes"})
    assert not _errors(response)
    seat = table.game.seats.get(number=1)
    assert seat.user == old and seat.resigned and not seat.forfeited
    assert not SeatTakeover.objects.exists()


def test_forfeit_form_offers_the_tables_players_still_in_and_several_at_once(client, started):
    season, organiser, members = started
    tables = list(Table.objects.filter(round__season=season).select_related("game"))
    table = tables[0]
    seats = list(table.game.seats.order_by("number"))
    services.drop_player(season, organiser, seats[2].user)  # resigned from the game by the drop
    client.force_login(organiser)
    page = client.get(season.get_absolute_url()).content.decode()
    form = page[page.index(f'name="game" value="{table.game_id}"'):]
    form = form[:form.index("</form>")]
    offered = set(map(int, re.findall(r'name="player" value="(\d+)"', form)))
    assert offered == {seats[0].user_id, seats[1].user_id}  # this table's, still in the game
    assert 'type="checkbox" name="player"' in form  # several may be ticked

    # errors speak to the organiser
    other = tables[1].game.seats.first().user
    response = _post(client, organiser, season, "forfeit", {"game": table.game_id, "player": other.pk, "confirm": "yes"})
    assert _errors(response) == [f"{other} does not play in {table.game.title}."]
    response = _post(client, organiser, season, "forfeit", {"game": table.game_id, "player": seats[2].user_id,
                                                            "confirm": "yes"})
    assert _errors(response) == [f"{seats[2].user} has already left {table.game.title} (resigned or forfeited)."]
    response = _post(client, organiser, season, "forfeit", {"game": table.game_id, "confirm": "yes",
                                                            "player": [seats[0].user_id, seats[1].user_id]})
    assert "At least one player must stay in" in _errors(response)[0]
    assert not any("You " in e for e in _errors(response))
    # two at once in a game of three
    game = tables[1].game
    two = [s.user_id for s in game.seats.order_by("number")][:2]
    response = _post(client, organiser, season, "forfeit", {"game": game.pk, "player": two, "confirm": "yes"})
    assert not _errors(response)
    assert sorted(game.seats.filter(forfeited=True).values_list("user_id", flat=True)) == sorted(two)


def test_fairness_line_counts_the_place_not_the_person(client, started):
    season, organiser, members = started
    client.force_login(organiser)
    before = re.search(r"pair meetings [^.]*\.", _text(client.get(season.get_absolute_url()).content.decode())).group(0)
    assert before.startswith("pair meetings 2–2")
    old = Table.objects.filter(round__season=season).first().game.seats.get(number=0).user
    newcomer = UserFactory(display_name="Erik")
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    services.replace_player(season, organiser, old, newcomer)
    after = re.search(r"pair meetings [^.]*\.", _text(client.get(season.get_absolute_url()).content.decode())).group(0)
    assert after == before


# --- item 2: confirmations ------------------------------------------------------------

@pytest.mark.parametrize("action", ["drop", "replace", "forfeit", "finish"])
def test_irreversible_organiser_actions_need_a_confirmation(client, started, action):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season).select_related("game").first()
    player = table.game.seats.get(number=1).user
    newcomer = UserFactory()
    services.join_club(services.create_invite(season.league.club, organiser).code, newcomer)
    data = {"player": player.pk, "replacement": newcomer.pk, "game": table.game_id}
    response = _post(client, organiser, season, action, data)  # no ticked box
    (error,) = _errors(response)
    assert error.startswith("Tick the box to confirm")
    season.refresh_from_db()
    assert season.status == Season.RUNNING
    assert Entry.objects.get(season=season, user=player).status == Entry.ACTIVE
    assert not table.game.seats.get(user=player).resigned
    # the page names the consequence next to the box
    page = _text(client.get(season.get_absolute_url()).content.decode())
    consequence = {"drop": "they cannot come back this season",
                   "replace": "the replaced player leaves the season for good",
                   "forfeit": "ranked below everyone who plays on, shown as a forfeit",
                   "finish": "A finished season starts no more rounds and cannot be resumed"}[action]
    assert consequence in page
    response = _post(client, organiser, season, action, {**data, "confirm": "yes"})
    assert not _errors(response)


def test_leaving_asks_first_and_is_not_the_primary_action(client, started):
    season, organiser, members = started
    player = members[0]
    client.force_login(player)
    html = client.get(season.get_absolute_url()).content.decode()
    leave = html[html.index('class="card leave-season"'):]
    assert leave.index("<summary>") < leave.index(reverse("leagues:withdraw", args=[season.pk]))  # folded away
    assert html.index("leave-season") > html.index('class="standings"')  # not at the top
    assert '<button class="danger" type="submit">Leave the season</button>' in leave
    response = client.post(reverse("leagues:withdraw", args=[season.pk]), follow=True)
    assert _errors(response)[0].startswith("Tick the box to confirm that you leave the season")
    assert Entry.objects.get(season=season, user=player).status == Entry.ACTIVE
    client.post(reverse("leagues:withdraw", args=[season.pk]), {"confirm": "yes"})
    assert Entry.objects.get(season=season, user=player).status == Entry.DROPPED


def test_forfeit_service_errors_are_for_the_organiser(started):
    season, organiser, members = started
    table = Table.objects.filter(round__season=season).select_related("game").first()
    with pytest.raises(LeagueError, match="Tick the player"):
        services.award_forfeit(season, organiser, table.game_id, [])
