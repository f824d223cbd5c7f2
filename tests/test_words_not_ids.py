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
from django.core import mail as django_mail
from django.utils import translation

from games import presentation, services
from games.engines import get_engine
from games.models import Game, Move
from games.reply_tokens import reply_address
from hanseweb.accounts.models import User
from hanseweb.mail.inbound import store
from hanseweb.mail.models import OutboundEmail

from .board_ids import board_ids, found_ids, without_notation
from .conftest import act, committed, user_of
from .test_i18n import visible_text

TITLES = {"hansa-teutonica": (2, 3, 5), "die-hanse": (3, 4), "zanzibar": (3, 5), "hansa": (3,)}
LANGS = ("en", "nl", "de")
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]
# Two player counts of each title for the site's pages, mails and refusals: the fewest and the
# most the title seats.
COUNTS = {"hansa-teutonica": (2, 5), "die-hanse": (3, 6), "zanzibar": (2, 5), "hansa": (2, 4)}


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


def _play(game, steps: int, until=None):
    engine = get_engine(game.engine)
    rnd = random.Random(game.pk)
    for _ in range(steps):
        if until is not None and until():
            return
        game.refresh_from_db()
        if game.status != Game.RUNNING or not game.to_act:
            return
        seat = game.to_act[0]
        legal = [m for m in engine.legal_moves(game.state_cache, seat) if m != "undo"]
        if not legal:
            return
        act(game, seat, rnd.choice(legal))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug, players", [(slug, n) for slug in COUNTS for n in COUNTS[slug]])
def test_pages_and_mails_name_things_in_words(client, settings, started_game, slug, players, lang):
    settings.HANSEWEB_REPLY_DOMAIN = "play.hanseweb.test"
    game, users = started_game(engine=slug, players=players)
    User.objects.filter(pk__in=[u.pk for u in users]).update(language=lang)
    OutboundEmail.objects.all().delete()
    _play(game, 14)
    # and on until a turn has passed to another player (a mail for it): 14 steps can all be one
    # player's turn (a Die Hanse turn at 6 players, some seeds)
    _play(game, 200, until=OutboundEmail.objects.filter(kind="your_turn").exists)
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
    # a reply by mail that is not a move: the answer says why, in words, and shows the choices again
    user = user_of(game, seat)
    reply_to = reply_address(game.pk, seat, game.move_count)  # as the turn mail of this decision has it
    django_mail.outbox = []
    typed = "qq zz"
    with committed():
        store(sender=user.email, recipients=[reply_to], subject="Re: turn", text=typed + "\n")
    answers = [m for m in django_mail.outbox if m.to == [user.email]]
    assert answers
    text = without_notation(answers[-1].body).replace(game.title, " ")
    assert typed in text  # the refusal is in it
    assert not found_ids(slug, _words_only(text, typed)), f"mail answer ({lang}): {_around(slug, text)}"



def _bad_moves(slug, state, seat, rnd) -> list[str]:
    """Malformed and illegal texts for ``seat``'s decision: noise, a verb alone, a listed move with
    something after it, with a board id of the title in place of its last word, a bare board id,
    and a listed move of another kind. None of them is a legal move now."""
    engine = get_engine(slug)
    legal = [m for m in engine.legal_moves(state, seat) if m != "undo"]
    ids = sorted(board_ids(slug)[0])
    texts = ["qq zz", rnd.choice(ids), "to " + rnd.choice(ids)]
    for move in rnd.sample(legal, min(2, len(legal))):
        words = move.split()
        texts += [words[0], move + " extra"]
        if len(words) > 1:
            texts.append(" ".join(words[:-1] + [rnd.choice(ids)]))
    out = []
    for text in texts:
        try:
            if engine.canonical(state, seat, text) in legal:
                continue  # legal after all: not a refusal
        except Exception:
            pass
        out.append(text)
    return list(dict.fromkeys(out))


def _words_only(text: str, typed: str) -> str:
    """A plain-text refusal without the notation beside its words (``[to n1]``) and without what the
    player typed, which it quotes back as typed."""
    text = re.sub(r"\[[^\]\n]*\]", " ", text)
    for token in sorted(set(typed.split()), key=len, reverse=True):
        text = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(token), " ", text)
    return text


def _html_words(html: str) -> str:
    """The visible words of an HTML refusal or page, without the notation shown small beside them."""
    return visible_text(re.sub(r'<code class="notation">.*?</code>', " ", html, flags=re.S))


@pytest.mark.parametrize("slug", list(COUNTS))
def test_refusals_name_things_in_words(client, started_game, slug):
    """Every refusal of a random game's decisions, for malformed and illegal texts, in en, nl and de,
    as the mail answer and the API say it (plain text) and as the page shows it (HTML, and the page
    itself after a refused post): the places, pieces and actions in words, the notation only beside
    them (or what the player typed, quoted back). A refused move changes nothing."""
    engine = get_engine(slug)
    refusals = 0
    for players in COUNTS[slug]:
        game, users = started_game(engine=slug, players=players)
        rnd = random.Random(players * 101 + len(slug))
        pages = 0
        for step in range(36):
            game.refresh_from_db()
            if game.status != Game.RUNNING or not game.to_act:
                break
            seat = rnd.choice(game.to_act)
            state = game.state_cache
            if step % 3 == 0 or step < 3:
                user = user_of(game, seat)
                for text in _bad_moves(slug, state, seat, rnd):
                    for lang in LANGS:
                        with translation.override(lang), pytest.raises(services.GameError) as info:
                            services.submit_move(game.pk, user, text, expected_seq=game.move_count)
                        refusal = info.value
                        said = _words_only(str(refusal), text)
                        assert not found_ids(slug, said), \
                            f"{slug} ({players}, {lang}) refusing {text!r}: {found_ids(slug, said)}\n{refusal}"
                        shown = _words_only(_html_words(getattr(refusal, "html", None) or ""), text)
                        assert not found_ids(slug, shown), \
                            f"{slug} ({players}, {lang}) page refusing {text!r}: {found_ids(slug, shown)}\n{refusal.html}"
                        refusals += 1
                    game.refresh_from_db()
                    assert game.state_cache == state  # nothing changed
                if pages < 2:  # the page after a refused post, in the reader's language
                    pages += 1
                    lang = LANGS[(step + players) % 3]
                    User.objects.filter(pk=user.pk).update(language=lang)
                    client.force_login(user)
                    text = _bad_moves(slug, state, seat, rnd)[-1]
                    client.post(f"/games/{game.pk}/move/", {"move": text, "seq": game.move_count, "typed": "1"})
                    html = client.get(f"/games/{game.pk}/").content.decode()
                    assert 'id="refused"' in html
                    words = _html_words(html).replace(game.title, " ")
                    for example in re.findall(r'placeholder="([^"]*)"', html):  # the "type a move" box's example
                        words = words.replace(unescape(example), " ")
                    words = _words_only(words, text)
                    assert not found_ids(slug, words), f"{slug} ({players}, {lang}) page: {_around(slug, words)}"
            legal = [m for m in engine.legal_moves(state, seat) if m != "undo"]
            act(game, seat, rnd.choice(legal))
    assert refusals > 100


@pytest.mark.parametrize("slug", list(COUNTS))
def test_old_logs_read_in_words(client, started_game, slug):
    """A game logged before its moves stored their events (``Move.events`` NULL), and one whose
    stored events are English texts with ids (before the log named things in words): the log page
    reads in words all the same, in the reader's language. The log is append-only, so nothing is
    rewritten: the lines are made again from the stored moves (the engine's replay) or the ids in
    the stored text named when shown."""
    from django.core.cache import cache

    game, users = started_game(engine=slug, players=COUNTS[slug][0] + 1)
    engine = game.engine_obj
    rnd = random.Random(5)
    state = services.current_state(game)
    ids = sorted(i for i in board_ids(slug)[0] if i == i.lower())
    rows = []
    for seq in range(1, 25):
        seats = engine.to_act(state)
        if not seats:
            break
        seat = seats[0]
        move = rnd.choice([m for m in engine.legal_moves(state, seat) if m != "undo"])
        state = engine.apply(state, seat, move)
        # rows 1-12: no events (the oldest games); later rows: an English text naming a place by id
        events = None if seq <= 12 else [{"n": seq, "seat": seat, "text": "{p%d} went to %s" % (seat, ids[seq % len(ids)])}]
        rows.append(Move(game=game, seq=seq, seat=seat, user=user_of(game, seat), text=move, channel=Move.WEB, events=events))
    Move.objects.bulk_create(rows)
    Game.objects.filter(pk=game.pk).update(move_count=len(rows), state_cache=state, state_seq=len(rows),
                                           to_act=engine.to_act(state))
    cache.delete(f"hw:old-events:{game.pk}")
    game.refresh_from_db()
    for lang in LANGS:
        user = users[0]
        User.objects.filter(pk=user.pk).update(language=lang)
        client.force_login(user)
        html = client.get(f"/games/{game.pk}/log/").content.decode()
        text = visible_text(html).replace(game.title, " ")
        assert not found_ids(slug, text), f"old log ({lang}): {_around(slug, text)}"
        # the moves without events read as the engine says them today, not as "name: notation"
        for row in rows[:12]:
            assert f"{user_of(game, row.seat).display_name}: {row.text}" not in text, row.text
        assert " went to " in text if lang == "en" else True
    assert list(Move.objects.filter(game=game, seq__lte=12).values_list("events", flat=True)) == [None] * 12
