"""Words, never internal names (issue 24, item 3): no place, route, piece or action id of a board
(``tests/board_ids.py``) in what a player reads — log lines, prompts, move labels, the mail's text
view and menu, the board's texts and titles, the game page and the mails — in English, Dutch and
German; the notation a player may type is shown small beside the words and left out here."""
from __future__ import annotations

import random
import re
from html import unescape
from xml.etree import ElementTree

import pytest
from django.utils import translation

from games import presentation
from games.engines import get_engine
from games.models import Game
from hanseweb.accounts.models import User
from hanseweb.mail.models import OutboundEmail

from .board_ids import board_ids, found_ids, without_notation
from .conftest import act, user_of
from .test_i18n import visible_text

TITLES = {"hansa-teutonica": (2, 3, 5), "die-hanse": (3, 4), "zanzibar": (3, 5), "hansa": (3,)}
LANGS = ("en", "nl", "de")
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]


def _svg_text(svg: str) -> str:
    """The texts and titles of a board's SVG a reader sees or hears, without the notation."""
    root = ElementTree.fromstring(svg)
    out = []
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("text", "title", "desc") and "notation" not in (el.get("class") or ""):
            out.append("".join(el.itertext()))
        for name in ("aria-label",):
            if el.get(name):
                out.append(el.get(name))
    return "\n".join(out)


def _playout(slug, players, seed, steps=260):
    """Positions of a random game: (state, seat, view, legal, events so far)."""
    engine = get_engine(slug)
    rnd = random.Random(seed)
    state = engine.setup(players, seed, {})
    events = list(engine.events(state))
    for i in range(steps):
        seats = engine.to_act(state)
        if not seats:
            return
        seat = rnd.choice(seats)
        legal = engine.legal_moves(state, seat)
        if i % 13 == 0 or i < 4:
            yield state, seat, engine.view(state, seat), legal, events
        moves = [m for m in legal if m != "undo"] or legal
        state = engine.apply(state, seat, rnd.choice(moves))
        events = events[-30:] + list(engine.events(state))


def test_the_id_lists_are_not_empty_and_catch_the_old_texts():
    # the texts the issue found, as the engines wrote them before
    assert found_ids("hansa-teutonica", "Ann places a merchant on bremen-osnabruck (space 1)") == ["bremen-osnabruck"]
    assert found_ids("hansa-teutonica", "Ann assigns 3 trader(s) and 0 merchant(s) from stock") == ["merchant(s)", "trader(s)"]
    assert found_ids("hansa-teutonica", "Coellen: [Ws$:_] [Ps:_]") == ["[Ps:", "[Ws$:"]
    assert "Brunswick" in found_ids("hansa-teutonica", "Place on Brunswick–Stendal")
    assert found_ids("die-hanse", "Sail the green ship to field luebeck") == ["field luebeck", "luebeck"]
    assert not found_ids("die-hanse", "Sail the green ship to Baltic field h6")  # a square printed on the edges
    assert "canal4" in found_ids("die-hanse", "field canal4") and "ruegen" in found_ids("die-hanse", "raid from ruegen")
    assert found_ids("zanzibar", "Bob placed yellow-7 on s6") == ["s6", "yellow-7"]
    assert found_ids("zanzibar", "choose which one ('place <number>').")
    for slug in TITLES:
        words, patterns = board_ids(slug)
        assert len(words) > 8, slug


@pytest.mark.parametrize("slug", list(TITLES))
def test_engine_texts_name_things_in_words(slug):
    names_seen = 0
    for players in TITLES[slug]:
        for state, seat, view, legal, events in _playout(slug, players, seed=players * 31 + 7):
            names = NAMES[:players]
            for lang in LANGS:
                with translation.override(lang):
                    texts = {
                        "prompt": presentation.prompt_text(view),
                        "labels": "\n".join(presentation.move_label(slug, view, m, names) for m in legal),
                        "log": "\n".join(presentation.event_text(ev) for ev in events),
                        "text view": presentation.view_text(slug, view, names),
                        "board": _svg_text(presentation.board_svg(slug, view, names, legal=legal)),
                    }
                for where, text in texts.items():
                    text = presentation.fill_names(text, names)
                    names_seen += 1
                    assert not found_ids(slug, text), f"{slug} {where} ({lang}): {found_ids(slug, text)}\n{text[:1500]}"
    assert names_seen > 50


def _around(slug, text):
    """Each id found with the text around it (for the failure message)."""
    return [text[max(0, m.start() - 60):m.end() + 30] for hit in found_ids(slug, text)
            for m in [re.search(re.escape(hit), text)] if m]


def _play(game, steps: int):
    engine = get_engine(game.engine)
    rnd = random.Random(game.pk)
    for _ in range(steps):
        game.refresh_from_db()
        if game.status != Game.RUNNING or not game.to_act:
            return
        seat = game.to_act[0]
        legal = [m for m in engine.legal_moves(game.state_cache, seat) if m != "undo"]
        if not legal:
            return
        act(game, seat, rnd.choice(legal))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", list(TITLES))
def test_pages_and_mails_name_things_in_words(client, started_game, slug, lang):
    engine = get_engine(slug)
    game, users = started_game(engine=slug, players=3)
    User.objects.filter(pk__in=[u.pk for u in users]).update(language=lang)
    OutboundEmail.objects.all().delete()
    _play(game, 14)
    game.refresh_from_db()
    seat = (game.to_act or [0])[0]
    client.force_login(user_of(game, seat))
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/", f"/games/{game.pk}/replay/?at=3"):
        html = client.get(url).content.decode()
        text = visible_text(html).replace(game.title, " ")
        # the "type a move" box's example is notation (what a player may type), by design
        for example in re.findall(r'<input[^>]*name="move"[^>]*placeholder="([^"]*)"', html) + \
                re.findall(r'<input[^>]*placeholder="([^"]*)"[^>]*name="move"', html):
            text = text.replace(unescape(example), " ")
        assert not found_ids(slug, text), f"{url} ({lang}): {_around(slug, text)}"
    mails = list(OutboundEmail.objects.filter(kind="your_turn"))
    assert mails
    for mail in mails:
        text = "\n".join([without_notation(mail.text), visible_text(mail.html or "")]).replace(game.title, " ")
        assert not found_ids(slug, text), f"{mail.kind} mail ({lang}): {_around(slug, text)}"
        # the menu: each choice in words, the notation beside it
        assert re.search(r"^  1\. .+", mail.text, re.M)
