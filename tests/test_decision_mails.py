"""A mail for every new decision (issue 27). The behaviour chosen: a seat gets a turn mail (under
its notification policy) whenever it has a decision it was not asked before: it became due, or it
was due already and its choices changed. Its older mail is then stale: a reply to it is refused
("this mail answers an older position") and changes nothing, and the fresh mail is the one to answer.
The player who made the change in person is told where they are: on the page, or in the answer to
their reply by mail, which carries the new decision's menu and reply address.

Both windows by mail, end to end: Zanzibar's set-aside opened by the last placement, Die Hanse's
reaction window opened by a sailing; and a seat whose choices another seat's answer changed."""
import random
import re

import pytest
from django.core import mail

from games import email_replies, services
from games.engines import get_engine
from games.engines import _cache as engine_cache
from games.models import Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "reply_answers_per_sender": "100000/h",
                               "reply_answers_per_reply_address": "100000/h"}


def _opening(game):
    """(seat, menu number) of a move by the only seat to act that opens a window in which that
    seat decides again, or None."""
    engine, state = game.engine_obj, game.state_cache
    if len(game.to_act) != 1:
        return None
    seat = game.to_act[0]
    for number, move in enumerate(engine.legal_moves(state, seat), start=1):
        after = engine.to_act(engine.apply(state, seat, move))
        if seat in after and len(after) > 1:
            return seat, number
    return None


def _to_opening(started_game, slug, players, seed=1):
    options = {i: {"offer_special_cards": True} for i in range(players)} if slug == "die-hanse" else None
    game, _ = started_game(slug, players, seat_options=options)
    chooser = random.Random(f"{slug}-{players}-{seed}")
    for _ in range(3000):
        game.refresh_from_db()
        found = _opening(game)
        if found:
            return game, *found
        seat = chooser.choice(game.to_act)
        legal = game.engine_obj.legal_moves(game.state_cache, seat)
        # keep out of windows until the one we want: prefer moves after which one seat acts
        calm = [m for m in legal if len(game.engine_obj.to_act(game.engine_obj.apply(game.state_cache, seat, m))) == 1]
        act(game, seat, chooser.choice(calm or legal))
    raise AssertionError("no window opened")


def _reply(user, to, text):
    with committed():
        row = store(sender=user.email, recipients=[to], subject="Re: your turn", text=f"{text}\n\n> quoted mail\n")
    row.refresh_from_db()
    return row


def _first_choice(body):
    """The notation of choice 1 of the mail's menu: menus are worded, the notation in brackets
    ("  1. Keep your hand  [keep]")."""
    found = re.findall(r"^  1\. .+  \[([^\]]+)\]$", body, re.M)
    assert len(found) == 1, body
    return found[0]


def _mails(user, kind=None):
    found = [m for m in mail.outbox if m.to == [user.email]]
    return [m for m in found if kind is None or kind in m.subject or kind in m.body]


@pytest.mark.django_db
@pytest.mark.parametrize("slug, players", [("zanzibar", 3), ("zanzibar", 4), ("die-hanse", 3), ("die-hanse", 4)])
def test_the_window_my_own_move_opens_reaches_me_by_mail(started_game, slug, players):
    game, mover, number = _to_opening(started_game, slug, players)
    start = game.move_count
    player = user_of(game, mover)
    mail.outbox = []
    row = _reply(player, email_replies.reply_address(game.pk, mover, start), str(number))
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    game.refresh_from_db()
    window = list(game.to_act)
    assert mover in window and len(window) > 1 and game.move_count == start + 1
    # the mover: the answer to the reply is the mail of the new decision (menu and fresh address)
    (answer,) = _mails(player)
    address = answer.extra_headers["Reply-To"]
    assert address == email_replies.reply_address(game.pk, mover, game.move_count)
    legal = game.engine_obj.legal_moves(game.state_cache, mover)
    assert _first_choice(answer.body) == legal[0]
    # every other seat of the window: a turn mail of its own
    for seat in window:
        if seat != mover:
            (turn,) = _mails(user_of(game, seat))
            assert turn.extra_headers["Reply-To"] == email_replies.reply_address(game.pk, seat, game.move_count)
    # and every seat answers the window by replying to the mail it got
    addresses = {seat: email_replies.reply_address(game.pk, seat, game.move_count) for seat in window}
    choices = {seat: game.engine_obj.legal_moves(game.state_cache, seat)[0] for seat in window}
    for seat in window:
        row = _reply(user_of(game, seat), addresses[seat], "1")
        assert row.status == InboundEmail.ACCEPTED, row.outcome
    logged = list(game.moves.filter(seq__gt=start + 1).order_by("seq").values_list("seat", "text", "channel"))
    assert logged[:len(window)] == [(seat, choices[seat], Move.EMAIL) for seat in window]


@pytest.mark.django_db
def test_a_window_opened_by_the_deadline_is_mailed_to_the_seat_that_let_it_pass(started_game, monkeypatch):
    """The mover did not move in person (the deadline played its default): it is mailed."""
    game, mover, number = _to_opening(started_game, "zanzibar", 3, seed=4)
    engine = game.engine_obj
    opening = engine.legal_moves(game.state_cache, mover)[number - 1]
    real_default = type(engine).default_move

    def default_move(self, state, seat):  # the default of the placement opens the window; none in it
        return opening if state is game.state_cache or seat == mover and self.to_act(state) == [mover] else None

    monkeypatch.setattr(type(engine), "default_move", default_move)
    from django.utils import timezone

    from games.models import Game

    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now())
    game.refresh_from_db()
    mail.outbox = []
    with committed():
        made = services.time_out(game.pk, now=timezone.now())
    monkeypatch.setattr(type(engine), "default_move", real_default)
    game.refresh_from_db()
    assert made == 1 and mover in game.to_act and len(game.to_act) > 1
    assert game.moves.order_by("-seq").first().channel == Move.TIMEOUT
    (turn,) = _mails(user_of(game, mover))
    assert turn.extra_headers["Reply-To"] == email_replies.reply_address(game.pk, mover, game.move_count)


class RotatingMenus:
    """Zanzibar whose set-aside menu turns by one place each time a seat answers in the window:
    a seat still deciding finds its choices changed by another seat's answer (the kind of change
    the issue saw in Die Hanse's reaction windows). Same rules otherwise."""

    def __init__(self, engine):
        self._engine = engine

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def legal_moves(self, state, seat):
        moves = self._engine.legal_moves(state, seat)
        waiting = len(self._engine.to_act(state))
        turn = waiting % len(moves) if waiting > 1 and moves else 0
        return moves[turn:] + moves[:turn]


@pytest.mark.django_db
def test_a_seat_whose_choices_another_seat_changed_gets_a_fresh_mail_and_its_old_one_is_stale(started_game, monkeypatch):
    monkeypatch.setitem(engine_cache, "zanzibar", RotatingMenus(get_engine("zanzibar")))
    game, mover, number = _to_opening(started_game, "zanzibar", 4, seed=5)
    act(game, mover, game.engine_obj.legal_moves(game.state_cache, mover)[number - 1])
    game.refresh_from_db()
    window, opened = list(game.to_act), game.move_count
    assert len(window) >= 3
    first, second = [seat for seat in window if seat != mover][:2]
    engine = game.engine_obj
    old_menu = engine.legal_moves(game.state_cache, second)
    done = next(m for m in engine.legal_moves(game.state_cache, first)  # its answer that closes its window
                if first not in engine.to_act(engine.apply(game.state_cache, first, m)))
    mail.outbox = []
    row = _reply(user_of(game, first), email_replies.reply_address(game.pk, first, opened), done)
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    game.refresh_from_db()
    new_menu = game.engine_obj.legal_moves(game.state_cache, second)
    assert new_menu != old_menu and sorted(new_menu) == sorted(old_menu)  # the same choices, renumbered
    # every seat still deciding whose menu changed got a fresh mail at once: the mover too
    for seat in window:
        if seat == first:
            continue
        (fresh,) = _mails(user_of(game, seat), "your turn")
        assert fresh.extra_headers["Reply-To"] == email_replies.reply_address(game.pk, seat, game.move_count)
        assert _first_choice(fresh.body) == game.engine_obj.legal_moves(game.state_cache, seat)[0]
    # the old mail's "1" would now mean another card: it is refused, and nothing changes
    mail.outbox = []
    before = game.move_count
    row = _reply(user_of(game, second), email_replies.reply_address(game.pk, second, opened), "1")
    assert row.status == InboundEmail.REJECTED and "older position" in row.outcome
    game.refresh_from_db()
    assert game.move_count == before
    (answer,) = _mails(user_of(game, second))
    assert "older position" in answer.body
    # the fresh mail is the one to answer
    row = _reply(user_of(game, second), email_replies.reply_address(game.pk, second, before), "1")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    assert game.moves.order_by("-seq").first().text == new_menu[0]
