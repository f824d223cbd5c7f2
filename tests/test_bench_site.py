"""The site builder of ``scripts/bench_site.py`` (issue 26) at a tiny size: what it copies in bulk
is a valid site, so the benchmark measures real games. Every copied game's log replays to the
snapshot, the players to act and the result stored on its row; its seats are its own players'
(a league table's game is played by that table's players); the heavy player, the biggest club and
the two-division season the benchmark opens exist."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

pytestmark = pytest.mark.django_db


def test_the_site_builder_makes_valid_games_leagues_and_history():
    import bench_site

    site = bench_site.build_site(120, seed=3, templates_per_title=4)  # one build for both checks (~20 s)
    every_copied_game_replays_to_its_stored_state(site)
    league_tables_heavy_player_and_the_rest(site)


def every_copied_game_replays_to_its_stored_state(site):
    import bench_site
    from games import services
    from games.models import Game, Move

    copies = Game.objects.exclude(title=bench_site.TEMPLATE_TITLE)
    assert copies.count() == site["games"] >= 120
    started = 0
    for game in copies:
        seats = sorted(game.seats.all(), key=lambda s: s.number if s.number is not None else -1)
        if game.status == Game.OPEN:
            assert len(seats) == 1 and game.move_count == 0 and not Move.objects.filter(game=game).exists()
            continue
        started += 1
        assert [s.number for s in seats] == list(range(game.players))
        assert len({s.user_id for s in seats}) == game.players
        moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "user_id"))
        assert [m[0] for m in moves] == list(range(1, game.move_count + 1))
        by_seat = {s.number: s.user_id for s in seats}
        assert all(user == by_seat[seat] for _seq, seat, user in moves)  # the copy's players made its moves
        for seat in seats:  # the record the write path keeps with each move (players' pages read it)
            assert seat.decisions_made == sum(1 for _seq, number, _u in moves if number == seat.number)
            assert seat.timed_out == 0
        state = services.replay(game)
        assert state == game.state_cache
        engine = game.engine_obj
        assert game.to_act == engine.to_act(state)
        assert (engine.result(state) is None) == (game.status == Game.RUNNING)
        if game.status == Game.FINISHED:
            assert game.result["ranking"] == engine.result(state)["ranking"]
            assert game.finished_at is not None and game.started_at < game.finished_at
        else:
            assert game.deadline_at is not None
        assert game.commitment_holds()
    assert started > 40
    statuses = set(copies.values_list("status", flat=True))
    assert statuses == {Game.OPEN, Game.RUNNING, Game.FINISHED}
    assert set(copies.values_list("engine", flat=True)) == set(bench_site.TITLES)


def league_tables_heavy_player_and_the_rest(site):
    from games.models import ChatMessage, Game, Seat
    from hanseweb.leagues.models import Club, Division, RatedGame, RatingChange, Season, Table
    from hanseweb.mail.models import InboundEmail, OutboundEmail

    tables = list(Table.objects.select_related("game", "round__season__league"))
    assert tables
    for table in tables:
        seats = list(Seat.objects.filter(game=table.game).order_by("number").values_list("user_id", flat=True))
        assert seats == table.seat_order
        assert table.game.engine == table.round.season.league.engine
    biggest = Club.objects.get(slug=site["club"])
    assert biggest.memberships.filter(user_id=site["heavy"]).exists()
    season = Season.objects.get(pk=site["season"])
    assert Division.objects.filter(season=season).count() == 2
    assert Seat.objects.filter(user_id=site["heavy"]).count() == site["heavy_games"] >= 3
    game = Game.objects.get(pk=site["game"])
    assert game.status == Game.RUNNING and game.seats.filter(user_id=site["heavy"]).exists()
    assert ChatMessage.objects.exists() and OutboundEmail.objects.count() >= 20 * site["finished"]
    assert InboundEmail.objects.exists()
    finished = Game.objects.filter(status=Game.FINISHED)
    assert finished.filter(rated__isnull=True).count() == 10  # the newest: work for the ratings task
    assert RatingChange.objects.count() == sum(
        g.players for g in finished.filter(rated__applied=True))
    assert RatedGame.objects.filter(applied=True).count() == site["finished"] - 10
