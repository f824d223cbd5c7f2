"""Simultaneous decisions (DESIGN "Stale checks are per seat"): in Zanzibar's set-aside window
and Die Hanse's reaction windows several seats decide at once. Every seat answers from the page
or the mail it had *before anyone answered*, and every answer counts; a page or mail goes stale
only when that seat's own decision changed."""
import random
import re

import pytest
from django.core import mail
from django.test import Client

from games import email_replies, services
from games.models import Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"
ZANZIBAR = [("zanzibar", n) for n in range(2, 6)]
DIE_HANSE = [("die-hanse", n) for n in range(3, 7)]


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


def _seat_options(slug, players):
    # Die Hanse's reaction window opens for seats that asked to be offered their special cards
    return {i: {"offer_special_cards": True} for i in range(players)} if slug == "die-hanse" else None


def _to_window(started_game, slug, players, seed=1):
    """A running game driven by random moves until two or more seats decide at once."""
    game, _ = started_game(slug, players, seat_options=_seat_options(slug, players))
    chooser = random.Random(f"{slug}-{players}-{seed}")
    for _ in range(3000):
        game.refresh_from_db()
        if len(game.to_act) >= 2:
            return game
        assert game.to_act, "the game ended before any window opened"
        seat = chooser.choice(game.to_act)
        act(game, seat, chooser.choice(game.engine_obj.legal_moves(game.state_cache, seat)))
    raise AssertionError("no window opened")


def _page(client, game):
    html = client.get(f"/games/{game.pk}/").content.decode()
    seq = re.search(r'name="seq" value="(\d+)"', html).group(1)
    moves = re.findall(r'<button type="submit" name="move" value="([^"]+)" class="move">', html)
    return seq, moves


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", ZANZIBAR + DIE_HANSE)
def test_every_seat_answers_from_the_page_it_loaded_before_anyone_answered(started_game, slug, players):
    game = _to_window(started_game, slug, players)
    window = list(game.to_act)
    start = game.move_count
    pages = {}
    for seat in window:  # every page is loaded before anyone answers
        client = Client()
        client.force_login(user_of(game, seat))
        pages[seat] = (client, *_page(client, game))
        assert pages[seat][1] == str(start) and pages[seat][2]
    for seat in reversed(window):
        client, seq, moves = pages[seat]
        with committed():
            client.post(f"/games/{game.pk}/move/", {"move": moves[0], "seq": seq})
    logged = list(game.moves.filter(seq__gt=start).order_by("seq").values_list("seat", "text"))
    assert logged == [(seat, pages[seat][2][0]) for seat in reversed(window)]
    # the seat that answered first has a new decision (or none): its old page is stale now
    first = window[-1]
    client, seq, moves = pages[first]
    with committed():
        response = client.post(f"/games/{game.pk}/move/", {"move": moves[0], "seq": seq}, follow=True)
    assert "moved on" in response.content.decode()
    assert game.moves.count() == start + len(window)


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", ZANZIBAR + DIE_HANSE)
def test_every_seat_answers_by_replying_to_the_mail_it_had_before_anyone_answered(started_game, slug, players):
    game = _to_window(started_game, slug, players, seed=2)
    window = list(game.to_act)
    start = game.move_count
    addresses = {seat: email_replies.reply_address(game.pk, seat, start) for seat in window}
    turn_mails = {m.to[0]: m for m in mail.outbox if "Reply-To" in m.extra_headers}
    for seat in window:  # the seats told by this move got exactly this address in their turn mail
        sent = turn_mails.get(user_of(game, seat).email)
        if sent is not None and f"-{start}-" in sent.extra_headers["Reply-To"]:
            assert sent.extra_headers["Reply-To"] == addresses[seat]
    choices = {seat: game.engine_obj.legal_moves(game.state_cache, seat)[0] for seat in window}
    for seat in window:
        with committed():
            row = store(sender=user_of(game, seat).email, recipients=[addresses[seat]],
                        subject="Re: your turn", text=f"{choices[seat]}\n\n> quoted turn mail\n")
        row.refresh_from_db()
        assert row.status == InboundEmail.ACCEPTED, row.outcome
    logged = list(game.moves.filter(seq__gt=start).order_by("seq").values_list("seat", "text", "channel"))
    assert logged == [(seat, choices[seat], Move.EMAIL) for seat in window]
    # a reply address is spent once its seat's own decision has changed
    mail.outbox = []
    with committed():
        row = store(sender=user_of(game, window[0]).email, recipients=[addresses[window[0]]],
                    subject="Re: your turn", text=choices[window[0]])
    row.refresh_from_db()
    assert row.status == InboundEmail.REJECTED and game.moves.count() == start + len(window)


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", [("zanzibar", 4), ("die-hanse", 4)])
def test_another_seats_answer_leaves_my_decision_number_alone(started_game, slug, players):
    game = _to_window(started_game, slug, players, seed=3)
    first, other = game.to_act[0], game.to_act[1]
    before = {s.number: s.decision_seq for s in game.seats.all()}
    act(game, first, game.engine_obj.legal_moves(game.state_cache, first)[0])
    game.refresh_from_db()
    after = {s.number: s.decision_seq for s in game.seats.all()}
    assert after[other] == before[other] <= game.move_count - 1
    assert after[first] == game.move_count
    seat = game.seats.get(number=other)
    assert services.decision_current(seat, game.move_count - 1, game.move_count)
    assert not services.decision_current(seat, game.move_count + 1, game.move_count)  # from the future
    assert not services.decision_current(seat, -1, game.move_count)


@pytest.mark.django_db
def test_a_garbled_or_future_move_number_is_stale(started_game):
    game, _ = started_game("zanzibar", 2)
    seat = game.seats.get(number=game.to_act[0])
    for bad in ("junk", "", -3, game.move_count + 1, None.__class__):
        assert not services.decision_current(seat, bad, game.move_count)
    assert services.decision_current(seat, str(game.move_count), game.move_count)
    assert services.decision_current(seat, None, game.move_count)  # the write path without a page (sweeps)
