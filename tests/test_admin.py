"""The admin leaves started games alone: no edit or delete of the game or its seats (the log was
played against them); open games may still be edited and deleted."""
import pytest

from games import services
from games.models import Game, Move, Seat

from .conftest import act
from .embedded_server import forms_of

ENGINE_FIELDS = ("engine", "players", "options", "status", "created_by")


@pytest.fixture
def admin_client_(client, make_user):
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def _change_form(client, game) -> dict:
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    return forms_of(page.content.decode()).forms.get("game_form", {"fields": {}})["fields"]


@pytest.mark.django_db
def test_a_started_game_and_its_seats_are_read_only(admin_client_, started_game):
    client = admin_client_
    game, users = started_game("hansa", 3)
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    game.refresh_from_db()
    before = Game.objects.filter(pk=game.pk).values().get()
    fields = _change_form(client, game)
    assert not set(fields) & {*ENGINE_FIELDS, "title", "listed"}  # shown, not editable
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Hansa" in page or "hansa" in page
    # a forged change form is refused
    forged = {"title": "renamed", "engine": "zanzibar", "players": "4", "status": "finished", "options": "{}",
              "seats-TOTAL_FORMS": "3", "seats-INITIAL_FORMS": "3", "moves-TOTAL_FORMS": "1", "moves-INITIAL_FORMS": "1"}
    assert client.post(f"/admin/games/game/{game.pk}/change/", forged).status_code == 403
    # no delete: not the game, not from the list, not a seat
    assert client.get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    assert client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = client.post("/admin/games/game/", {"action": "delete_selected", "_selected_action": [game.pk], "post": "yes"})
    assert bulk.status_code == 200 and "Cannot delete game" in bulk.content.decode()
    seat = game.seats.get(number=1)
    assert client.post(f"/admin/games/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = client.post("/admin/games/seat/", {"action": "delete_selected", "_selected_action": [seat.pk], "post": "yes"})
    assert bulk.status_code == 403
    seat_page = client.get(f"/admin/games/seat/{seat.pk}/change/")
    assert seat_page.status_code == 200 and not forms_of(seat_page.content.decode()).forms.get("seat_form", {}).get("fields", {}).keys() - {"csrfmiddlewaretoken"}
    assert client.post(f"/admin/games/seat/{seat.pk}/change/", {"resigned": "on", "number": "2"}).status_code == 403

    assert Game.objects.filter(pk=game.pk).values().get() == before
    assert game.seats.count() == 3 and Move.objects.filter(game=game).count() == 1
    assert not game.seats.filter(resigned=True).exists()
    # and the game still works
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert services.replay(game) == game.state_cache


@pytest.mark.django_db
def test_an_open_game_can_still_be_edited_and_deleted(admin_client_, make_user):
    client = admin_client_
    creator, joiner = make_user(), make_user()
    game = services.create_game(creator=creator, engine="hansa", title="Club night", players=3,
                                seat_order=Game.SEAT_ORDER_JOINED)
    services.join_game(game.pk, joiner)
    fields = _change_form(client, game)
    assert "title" in fields and not set(fields) & set(ENGINE_FIELDS)
    fields.update(title="Thursday club", move_deadline_hours="48", players="4", engine="zanzibar", status="running")
    fields.pop("_addanother", None)
    fields.pop("_continue", None)
    response = client.post(f"/admin/games/game/{game.pk}/change/", fields)
    assert response.status_code == 302, response.content.decode()[-3000:]
    game.refresh_from_db()
    assert (game.title, game.move_deadline_hours) == ("Thursday club", 48)
    assert (game.engine, game.players, game.status) == ("hansa", 3, Game.OPEN)  # not editable here
    # a seat of an open game can be removed (the player leaves), then the game deleted
    seat = game.seats.get(user=joiner)
    assert client.post(f"/admin/games/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


@pytest.mark.django_db
def test_games_are_not_added_through_the_admin(admin_client_):
    assert admin_client_.get("/admin/games/game/add/").status_code == 403
    assert admin_client_.get("/admin/games/seat/add/").status_code == 403
