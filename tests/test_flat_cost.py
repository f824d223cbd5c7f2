"""A page, a move and a mail cost the same at move 400 as at move 10 (DESIGN: the state holds the
game, not its history): the same number of queries, none of them reading the whole log."""
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import notifications
from games.engines.events import visible

from .conftest import act, committed, user_of


def _played(started_game, moves, slug="hansa-teutonica", players=3):
    game, _ = started_game(slug, players)
    chooser = random.Random(7)
    for _ in range(moves):
        game.refresh_from_db()
        seat = chooser.choice(game.to_act)
        act(game, seat, chooser.choice(game.engine_obj.legal_moves(game.state_cache, seat)))
    game.refresh_from_db()
    return game


def _page_queries(client, game):
    """Queries of the first view of this version of the page (rendered) and of the second (cached)."""
    seat = game.to_act[0]
    client.force_login(user_of(game, seat))
    client.get("/")  # the session is warm
    out = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"/games/{game.pk}/")
        assert response.status_code == 200
        out.append(ctx)
    return out


def _whole_log_reads(ctx):
    """Queries on the move table that are not bounded by a seq range or a LIMIT."""
    return [q["sql"] for q in ctx.captured_queries
            if '"games_move"' in q["sql"] and "LIMIT" not in q["sql"] and '"seq" >' not in q["sql"]
            and not q["sql"].startswith("INSERT")]


@pytest.mark.django_db
def test_game_page_submit_and_mail_use_the_same_queries_at_any_length(client, started_game):
    short, long = _played(started_game, 10), _played(started_game, 400)
    assert long.move_count == 400
    (short_miss, short_hit), (long_miss, long_hit) = [_page_queries(client, g) for g in (short, long)]
    assert len(short_miss) == len(long_miss), [q["sql"][:80] for q in long_miss.captured_queries]
    assert len(short_hit) == len(long_hit) < len(long_miss)
    assert not _whole_log_reads(long_miss) and not _whole_log_reads(long_hit)

    def submit(game):
        game.refresh_from_db()
        seat = game.to_act[0]
        client.force_login(user_of(game, seat))
        move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
        with CaptureQueriesContext(connection) as ctx, committed():
            client.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count})
        game.refresh_from_db()
        assert game.moves.order_by("-seq").first().text == move
        return ctx

    for ctx in (submit(short), submit(long)):
        # a move that ends the mover's turn costs the most: the next player's turn mail (on commit)
        # and one bounded read of the mover's next game where it is their turn (views._next_turn,
        # kept in the session): 26 queries at move 10 as at move 400 (a move within a turn: 6)
        assert len(ctx) <= 26, [q["sql"][:80] for q in ctx.captured_queries]
        assert not _whole_log_reads(ctx)

    def mail(game):
        seat = game.seats.select_related("user").get(number=game.to_act[0])
        with CaptureQueriesContext(connection) as ctx, committed():
            notifications.decision_mail(game, seat, template="games/mail/your_turn", kind="your_turn", with_news=True)
        return ctx

    mails = [mail(g) for g in (short, long)]
    assert len(mails[0]) == len(mails[1])
    assert not _whole_log_reads(mails[1])


@pytest.mark.django_db
def test_the_log_page_reads_one_page_of_moves(client, started_game):
    game = _played(started_game, 300)
    client.force_login(user_of(game, 0))
    page = client.get(f"/games/{game.pk}/log/").content.decode()
    # the newest line is of the newest move that logged something seat 0 may read (a Hansa
    # Teutonica trader's move logs at its second step: the move before may have no line)
    newest = next(seq for seq, events in game.moves.order_by("-seq").values_list("seq", "events")
                  if visible(events or [], 0))
    assert newest > game.move_count - 5
    assert f"#{newest} " in page and "Earlier moves" in page
    response = client.get(f"/games/{game.pk}/log/?before=250")
    seqs = [line["seq"] for line in response.context["log"]]
    assert seqs and max(seqs) < 250 and min(seqs) >= 50 and seqs == sorted(seqs, reverse=True)
    assert "Later moves" in response.content.decode()
    assert client.get(f"/games/{game.pk}/log/?before=junk").status_code == 200
