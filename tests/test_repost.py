"""Issue 29.6: a web worker killed after the commit leaves the player without an answer; they post
the same move again from the same page. That re-post answers "your move was already made" and
names it (not "the game has moved on ... nothing was changed"), and changes nothing."""
import pytest
from django.test import Client

from games.models import Move

from .conftest import act, committed, user_of


def _client(game, seat):
    client = Client()
    client.force_login(user_of(game, seat))
    return client


@pytest.mark.django_db
def test_a_repost_of_the_move_just_made_is_told_it_stands(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    client = _client(game, seat)
    seq = game.move_count
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    with committed():
        assert client.post(f"/games/{game.pk}/move/", {"move": move, "seq": seq}).status_code == 302
    game.refresh_from_db()
    assert game.move_count == 1
    # the response never arrived; the player sends the same form again
    with committed():
        again = client.post(f"/games/{game.pk}/move/", {"move": move, "seq": seq}, follow=True)
    page = again.content.decode()
    assert again.status_code == 200
    assert "was already made (move 1); it stands" in page
    assert "moved on since you looked at it" not in page
    game.refresh_from_db()
    assert game.move_count == 1 and Move.objects.filter(game=game).count() == 1
    from games import presentation, services

    label = presentation.move_label(game.engine, game.engine_obj.view(services.current_state(game), seat), move,
                                    presentation.player_names(game))
    assert f"Your move “{label}” was already made" in page.replace("&quot;", '"')


@pytest.mark.django_db
def test_a_different_move_or_an_older_page_is_still_refused_as_stale(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    client = _client(game, seat)
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    act(game, seat, legal[0])
    other = client.post(f"/games/{game.pk}/move/", {"move": legal[1], "seq": 0}, follow=True).content.decode()
    assert "already made" not in other and "moved on since you looked at it" in other
    game.refresh_from_db()
    if seat in game.to_act:  # the seat moves again: the first move is no longer the one it "just made"
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        page = client.post(f"/games/{game.pk}/move/", {"move": legal[0], "seq": 0}, follow=True).content.decode()
        assert "already made" not in page and "moved on since you looked at it" in page


@pytest.mark.django_db
def test_another_players_repost_is_not_taken_for_theirs(started_game):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    act(game, seat, move)
    game.refresh_from_db()
    other_seat = next(n for n in range(3) if n != seat)
    page = _client(game, other_seat).post(f"/games/{game.pk}/move/", {"move": move, "seq": 0},
                                          follow=True).content.decode()
    assert "already made" not in page
