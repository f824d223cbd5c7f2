"""The numbered menu: turn, reminder and answer mails number the seat's choices; a reply line of
just ``2`` plays the second choice of the decision the mail was about, and a chained reply reads
each later number against the menu of the decision current at that point."""
import random
import re

import pytest
from django.core import mail

from games import email_replies, notifications, services
from games.models import Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import act, committed, user_of

DOMAIN = "play.hanseweb.test"


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN


def _mails_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _menu(body: str) -> list[str]:
    """The numbered menu of a mail's text part, checked to be numbered 1, 2, 3, ...: each move in
    words with its notation beside it in brackets (issue 24); returns the notations."""
    part = body.split("Your choices now:", 1)[1]
    items = re.findall(r"^  (\d+)\. (.+)$", part, re.MULTILINE)
    assert [int(n) for n, _ in items] == list(range(1, len(items) + 1))
    said = [re.fullmatch(r"(.+?)  \[(.+)\]", text) for _, text in items]
    assert all(said), items  # every choice in words, never the bare notation alone
    return [m.group(2) for m in said]


def _reply(user, to, text):
    mail.outbox = []
    with committed():
        row = store(sender=user.email, recipients=[to], subject="Re: your turn", text=text)
    row.refresh_from_db()
    return row


def _main_phase(started_game):
    """A 2-player Hansa game past the initial placement (turns of several steps)."""
    game, _ = started_game("hansa", 2)
    while game.state_cache["phase"] == "place":
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_the_turn_mail_numbers_the_choices_and_a_reply_of_2_plays_the_second(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    (turn,) = [m for m in _mails_to(player) if "Your turn" in m.subject]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    assert _menu(turn.body) == legal and len(legal) >= 3
    html = turn.alternatives[0][0]
    assert "<ol>" in html and html.count("<li>") >= len(legal)
    row = _reply(player, turn.extra_headers["Reply-To"], "2\n\nOn Monday, Hanseweb wrote:\n> 1. something\n")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    move = game.moves.get()
    assert (move.seat, move.text, move.channel) == (seat, legal[1], Move.EMAIL)
    (answer,) = _mails_to(player)
    assert f"  - {legal[1]} (your choice 2)" in answer.body


@pytest.mark.django_db
def test_a_line_copied_from_the_numbered_menu_counts_as_its_text(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    row = _reply(player, email_replies.reply_address(game.pk, seat, 0), f"3. {legal[2]}")
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    assert game.moves.get().text == legal[2]


@pytest.mark.django_db
@pytest.mark.parametrize("line", ["99", "0", "123456"])
def test_a_number_outside_the_menu_changes_nothing(started_game, line):
    game, _ = started_game("hansa", 3)
    seat = game.to_act[0]
    player = user_of(game, seat)
    n = len(game.engine_obj.legal_moves(game.state_cache, seat))
    reply_to = email_replies.reply_address(game.pk, seat, 0)
    row = _reply(player, reply_to, line)
    assert row.status == InboundEmail.REJECTED
    assert game.moves.count() == 0
    (answer,) = _mails_to(player)
    assert f"There is no choice {int(line)}: the menu had {n} choices (1 to {n})." in answer.body
    assert "Nothing was changed" in answer.body and answer.extra_headers["Reply-To"] == reply_to
    assert _menu(answer.body) == game.engine_obj.legal_moves(game.state_cache, seat)


@pytest.mark.django_db
def test_a_number_in_a_reply_to_an_old_mail_plays_nothing(started_game):
    game = _main_phase(started_game)
    seat = game.to_act[0]
    player = user_of(game, seat)
    old = email_replies.reply_address(game.pk, seat, game.move_count)
    act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])  # the decision changes on the web
    game.refresh_from_db()
    before = game.move_count
    row = _reply(player, old, "1")
    assert row.status == InboundEmail.REJECTED and "moved on" in row.outcome
    game.refresh_from_db()
    assert game.move_count == before


@pytest.mark.django_db
def test_a_chained_reply_reads_each_number_against_the_menu_current_at_that_point(started_game):
    game = _main_phase(started_game)
    engine = game.engine_obj
    seat = game.to_act[0]
    player = user_of(game, seat)
    state = game.state_cache
    lines, expected = [], []
    chooser = random.Random(5)
    while seat in engine.to_act(state) and len(lines) < 4:
        menu = engine.legal_moves(state, seat)
        if len(lines) == 2:  # the third step by its text, the others by number
            move = menu[-1]
            lines.append(move)
        else:  # by number; a step that keeps the turn going where there is one
            going = [i for i, m in enumerate(menu) if seat in engine.to_act(engine.apply(state, seat, m))]
            n = chooser.choice(going or range(len(menu))) + 1
            move = menu[n - 1]
            lines.append(str(n))
        expected.append(move)
        state = engine.apply(state, seat, move)
    assert len(lines) >= 2
    before = game.move_count
    row = _reply(player, email_replies.reply_address(game.pk, seat, before), "\n".join(lines))
    assert row.status == InboundEmail.ACCEPTED, row.outcome
    played = list(game.moves.filter(seq__gt=before).order_by("seq").values_list("text", flat=True))
    assert played == expected
    (answer,) = _mails_to(player)
    for i, (line, move) in enumerate(zip(lines, expected)):
        suffix = f" (your choice {line})" if line.isdigit() else ""
        assert f"  - {move}{suffix}\n" in answer.body
    game.refresh_from_db()
    if seat in game.to_act:  # what is asked now: a fresh numbered menu and reply address
        assert _menu(answer.body) == engine.legal_moves(game.state_cache, seat)
        assert answer.extra_headers["Reply-To"] == email_replies.reply_address(game.pk, seat, game.move_count)


@pytest.mark.django_db
def test_a_chain_stops_at_the_first_step_that_is_not_legal(started_game):
    game = _main_phase(started_game)
    engine = game.engine_obj
    seat = game.to_act[0]
    player = user_of(game, seat)
    before = game.move_count
    first = engine.legal_moves(game.state_cache, seat)[0]
    state = engine.apply(game.state_cache, seat, first)
    assert seat in engine.to_act(state)
    row = _reply(player, email_replies.reply_address(game.pk, seat, before), "1\n500\n1\n")
    assert row.status == InboundEmail.ACCEPTED and "stopped at '500'" in row.outcome
    assert list(game.moves.filter(seq__gt=before).values_list("text", flat=True)) == [first]
    (answer,) = _mails_to(player)
    assert f"  - {first} (your choice 1)" in answer.body
    assert 'Not accepted: "500"' in answer.body and "Nothing after it was taken." in answer.body
    assert _menu(answer.body) == engine.legal_moves(state, seat)


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", [("zanzibar", 3), ("die-hanse", 4)])
def test_in_a_simultaneous_window_each_number_is_read_against_its_own_seats_menu(started_game, slug, players):
    seat_options = {i: {"offer_special_cards": True} for i in range(players)} if slug == "die-hanse" else None
    game, _ = started_game(slug, players, seat_options=seat_options)
    chooser = random.Random(f"{slug}-{players}")
    for _ in range(3000):
        game.refresh_from_db()
        if len(game.to_act) >= 2:
            break
        seat = chooser.choice(game.to_act)
        act(game, seat, chooser.choice(game.engine_obj.legal_moves(game.state_cache, seat)))
    window, start = list(game.to_act), game.move_count
    assert len(window) >= 2
    menus = {seat: game.engine_obj.legal_moves(game.state_cache, seat) for seat in window}
    for seat in reversed(window):  # everyone answers the mail they had before anyone answered
        n = len(menus[seat])
        row = _reply(user_of(game, seat), email_replies.reply_address(game.pk, seat, start), str(n))
        assert row.status == InboundEmail.ACCEPTED, row.outcome
    logged = list(game.moves.filter(seq__gt=start).order_by("seq").values_list("seat", "text"))
    assert logged == [(seat, menus[seat][-1]) for seat in reversed(window)]


@pytest.mark.django_db
def test_the_reminder_numbers_the_choices(started_game):
    game, _ = started_game("hansa", 3)
    seat = game.seats.get(number=game.to_act[0])
    mail.outbox = []
    with committed():
        notifications.reminder(game, seat)
    (reminder,) = mail.outbox
    assert _menu(reminder.body) == game.engine_obj.legal_moves(game.state_cache, seat.number)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"])
def test_the_turn_mail_states_the_decision_once(started_game, slug):
    """The mail's first lines ask for the decision; the view below them does not ask again (it
    did: "Choose your move." at the top and "YOUR DECISION: Choose your move." in the view)."""
    from games import presentation

    game, _ = started_game(slug, 3)
    seat = game.to_act[0]
    view = game.engine_obj.view(game.state_cache, seat)
    prompt = str(presentation.prompt_text(view))
    assert prompt
    (turn,) = [m for m in _mails_to(user_of(game, seat)) if "Your turn" in m.subject]
    assert turn.body.count(prompt) == 1, turn.body
    assert turn.alternatives[0][0].count(prompt) == 1
    # one blank line between the mail's parts, never two (the view ended in blank lines)
    assert "\n\n\n" not in turn.body.split("\n--\n")[0], turn.body
    # the game page's text view still asks (it has no prompt line of its own there)
    assert prompt in presentation.view_text(slug, view, presentation.player_names(game))
