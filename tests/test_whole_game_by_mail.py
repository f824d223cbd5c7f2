"""A whole game of each title played only by replying to the mails: every seat reads its latest
mail's numbered menu and replies with a number (or, now and then, the move's text) to that mail's
reply address; nothing is played on the web. The inbound path is the real one (store → process)."""
import os
import random
import re

import pytest
from django.core import mail

from games.models import Game, Move
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import committed, user_of

DOMAIN = "play.hanseweb.test"
# Hansa Teutonica's games run to thousands of steps (2,000-4,000 replies, a quarter of an hour and
# more on a busy machine): the suite plays its first 300 replies; HANSEWEB_WHOLE_HT_GAME=1 plays it
# to the end. There the players aim to score, taking an offered "establish", "kontor" or "develop"
# choice when there is one (still only by replying with its number or text); the rest is random.
HT_CAP = None if os.environ.get("HANSEWEB_WHOLE_HT_GAME") else 300
TITLES = [("hansa", 2, None), ("hansa-teutonica", 2, HT_CAP), ("die-hanse", 3, None), ("zanzibar", 2, None)]
AIMS = {"hansa-teutonica": ("establish", "kontor", "develop")}


@pytest.fixture(autouse=True)
def reply_domain(settings):
    settings.HANSEWEB_REPLY_DOMAIN = DOMAIN
    # a whole game in seconds is far faster than any player: lift the answer rate limits
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "reply_answers_per_sender": "100000/h",
                               "reply_answers_per_reply_address": "100000/h"}


def _menu(body):
    part = body.split("Your choices now:", 1)[1]
    return [text for _, text in re.findall(r"^  (\d+)\. (.+)$", part, re.MULTILINE)]


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players,cap", TITLES)
def test_a_whole_game_played_only_by_replying_to_mails(started_game, slug, players, cap):
    game, users = started_game(slug, players)
    chooser = random.Random(slug)
    latest = {}  # address -> the latest mail with a reply address (the inbox, as the player reads it)

    def read_inbox():
        for message in mail.outbox:
            if "Reply-To" in message.extra_headers:
                latest[message.to[0]] = message
        mail.outbox = []

    read_inbox()
    replies = 0
    for _ in range(cap or 6000):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        seat = chooser.choice(game.to_act)
        player = user_of(game, seat)
        message = latest[player.email]
        menu = _menu(message.body)
        assert menu, message.body
        aimed = [i for i, choice in enumerate(menu) if choice.startswith(AIMS.get(slug, ()) or ("\0",))]
        n = chooser.choice(aimed) if aimed else chooser.randrange(len(menu))
        text = menu[n] if chooser.random() < 0.2 else str(n + 1)
        with committed():
            row = store(sender=player.email, recipients=[message.extra_headers["Reply-To"]],
                        subject="Re: " + message.subject, text=f"{text}\n\n> {message.body[:200]}")
        row.refresh_from_db()
        assert row.status == InboundEmail.ACCEPTED, (row.outcome, text, menu)
        replies += 1
        read_inbox()
    game.refresh_from_db()
    assert game.status == Game.FINISHED or (cap and replies == cap), f"not finished after {replies} replies"
    assert set(game.moves.exclude(channel=Move.AUTOPILOT).values_list("channel", flat=True)) == {Move.EMAIL}
