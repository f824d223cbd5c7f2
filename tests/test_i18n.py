"""Three languages (docs/i18n.md): English, Dutch and German for every page, mail, error, prompt,
log line and move label; per account, and by the browser (or the switcher) for visitors.

"No English left" is checked two ways: every text of the code has a non-empty, non-fuzzy Dutch
and German translation in the committed catalogues (and the compiled .mo files say the same), and
the pages and mails rendered in nl and de hold none of the English sentences of the catalogue."""
from __future__ import annotations

import gettext as pygettext
import re
import shutil
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.utils import timezone, translation

from games import notifications, presentation, services
from games.engines import get_engine
from games.models import Game
from hanseweb.accounts.models import User
from hanseweb.mail.models import OutboundEmail

from .conftest import act, committed, user_of
from .factories import PASSWORD, UserFactory
from .leagues.conftest import club_setup, running_season  # noqa: F401,F811 (fixtures)

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ("nl", "de")
ENGINES = ("hansa", "die-hanse", "zanzibar", "hansa-teutonica")


# --- the catalogues ------------------------------------------------------------------------------

def _unquote(text: str) -> str:
    return bytes(text[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr (index -> text), flags."""
    entries, cur, field = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if cur is not None:
                entries.append(cur)
            cur, field = None, None
            continue
        if cur is None:
            cur = {"msgid": "", "msgid_plural": None, "msgstr": {}, "flags": set()}
        if line.startswith("#,"):
            cur["flags"] |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if field[0] == "msgstr":
                cur["msgstr"][field[1]] += _unquote(line)
            else:
                cur[field[0]] += _unquote(line)
        else:
            key, _sep, value = line.partition(" ")
            match = re.fullmatch(r"msgstr\[(\d+)\]", key)
            if match:
                field = ("msgstr", int(match.group(1)))
                cur["msgstr"][field[1]] = _unquote(value)
            elif key == "msgstr":
                field = ("msgstr", -1)
                cur["msgstr"][-1] = _unquote(value)
            else:
                field = (key,)
                cur[key] = _unquote(value)
    return [e for e in entries if e["msgid"]]


PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sdr]")


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete_and_the_committed_mo_matches_it(lang):
    entries = po_entries(LOCALE / lang / "LC_MESSAGES" / "django.po")
    assert len(entries) > 900
    empty = [e["msgid"] for e in entries if not all(e["msgstr"].values()) or not e["msgstr"]]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not empty, f"untranslated in {lang}: {empty[:10]}"
    assert not fuzzy, f"fuzzy in {lang}: {fuzzy[:10]}"
    with open(LOCALE / lang / "LC_MESSAGES" / "django.mo", "rb") as f:
        compiled = pygettext.GNUTranslations(f)
    for e in entries:
        if e.get("msgctxt") is not None and e["msgid_plural"] is not None:
            assert compiled.npgettext(e["msgctxt"], e["msgid"], e["msgid_plural"], 1) == e["msgstr"][0]
            assert compiled.npgettext(e["msgctxt"], e["msgid"], e["msgid_plural"], 5) == e["msgstr"][1]
        elif e.get("msgctxt") is not None:
            assert compiled.pgettext(e["msgctxt"], e["msgid"]) == e["msgstr"][-1], f"{lang} .mo is out of date"
        elif e["msgid_plural"] is None:
            assert compiled.gettext(e["msgid"]) == e["msgstr"][-1], f"{lang} .mo is out of date: run scripts/i18n"
            # a translation keeps every placeholder of its English text
            assert set(PLACEHOLDER.findall(e["msgstr"][-1])) == set(PLACEHOLDER.findall(e["msgid"])), e["msgid"]
        else:
            assert compiled.ngettext(e["msgid"], e["msgid_plural"], 1) == e["msgstr"][0]
            assert compiled.ngettext(e["msgid"], e["msgid_plural"], 5) == e["msgstr"][1]


# The folders makemessages reads (scripts/i18n ignores the rest: .venv, node_modules, tests, deploy,
# docs, scripts).
CODE_FOLDERS = ("games", "hanseweb", "templates")


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext is not installed")
def test_catalogues_hold_every_text_of_the_code(tmp_path, settings, monkeypatch):
    """makemessages over the code (into a copy of the catalogues) finds no text without a translation.

    It runs in a scratch folder holding a copy of ``locale/`` and links to the code: run in the
    checkout, makemessages takes the ``./locale`` it walks past as the catalogue of every file under
    it, so it would rewrite the real catalogues and leave the copy (the one checked) unchanged."""
    from django.core.management import call_command

    shutil.copytree(LOCALE, tmp_path / "locale")
    for name in CODE_FOLDERS:
        (tmp_path / name).symlink_to(LOCALE.parent / name, target_is_directory=True)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["nl", "de"], verbosity=0, add_location="file", no_obsolete=True,
                 symlinks=True, ignore_patterns=["*/static/*"])
    assert len(po_entries(tmp_path / "locale" / "nl" / "LC_MESSAGES" / "django.po")) > 500
    for lang in LANGS:
        missing = [e["msgid"] for e in po_entries(tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po")
                   if not all(e["msgstr"].values())]
        assert not missing, f"texts without a {lang} translation (run scripts/i18n and translate): {missing[:10]}"


# --- no English in rendered output ---------------------------------------------------------------

def _english_fragments() -> set[str]:
    """Pieces of the catalogue's English texts (between placeholders and tags) of two words or
    more that the translations do not share: none of them may appear in a Dutch or German page."""
    out = set()
    shared = set()
    for lang in LANGS:
        for e in po_entries(LOCALE / lang / "LC_MESSAGES" / "django.po"):
            for text in [e["msgid"]] + ([e["msgid_plural"]] if e["msgid_plural"] else []):
                for piece in re.split(r"\{[a-z_]+\}|%\([a-z_]+\)[sdr]|<[^>]+>|\n|[:;()'\"“”„]", text):
                    piece = piece.strip(" .,·—–-!?")
                    if len(piece.split()) >= 2 and len(piece) >= 9 and re.search("[a-z]", piece):
                        out.add(piece)
            shared |= {piece for v in e["msgstr"].values() for piece in [v]}
    translations = " ".join(shared)
    return {p for p in out if p not in translations}


FRAGMENTS = None
# common English words that are no Dutch or German word (checked as whole words)
ENGLISH_WORDS = {"the", "your", "you", "with", "waiting", "players", "turn", "game", "games", "and", "move",
                 "moves", "choose", "which", "from", "into", "there", "this", "that", "have", "has",
                 # game words that are no Dutch or German word
                 "brown", "green", "blue", "white", "grey", "yellow", "black", "red", "coins", "stalls", "ship",
                 "supply", "cards", "merchant", "merchants", "trader", "traders", "points", "round"}


class _Visible(HTMLParser):
    """The text a reader sees or hears: text nodes and the title/alt/aria-label/placeholder of
    elements, without scripts, styles and a move's notation (the protocol stays English)."""

    SKIP = {"script", "style"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.stack = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skip = tag in self.SKIP or "notation" in (attrs.get("class") or "") or tag == "code"
        self.stack.append((tag, skip))
        for name in ("title", "alt", "aria-label", "placeholder"):
            if attrs.get(name):
                self.parts.append(attrs[name])

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not any(skip for _tag, skip in self.stack):
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return "\n".join(parser.parts)


def assert_no_english(text: str, where: str, allowed=()) -> None:
    global FRAGMENTS
    if FRAGMENTS is None:
        FRAGMENTS = _english_fragments()
    for name in sorted(allowed, key=len, reverse=True):  # proper names and data the test made (titles, names)
        text = text.replace(name, " ")
    text = re.sub(r"https?://\S+|\S+@\S+", " ", text)  # links and addresses are not words
    found = sorted(f for f in FRAGMENTS if f in text)
    assert not found, f"English in {where}: {found[:8]}"
    words = {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH_WORDS and w == w.lower()}
    assert not words, f"English words in {where}: {sorted(words)}\n{text[:3000]}"


def _allowed(game=None, users=()):
    names = [u.display_name for u in users] + [u.email for u in users]
    if game is not None:
        names.append(game.title)
    return names


def _play(game, steps: int):
    """Let the seats to act take their first listed move ``steps`` times (a log to show)."""
    engine = get_engine(game.engine)
    for _ in range(steps):
        game.refresh_from_db()
        if game.status != Game.RUNNING:
            return
        seat = (game.to_act or [None])[0]
        if seat is None:
            return
        legal = engine.legal_moves(game.state_cache, seat)
        move = engine.default_move(game.state_cache, seat) if not legal else legal[0]
        if move in (None, "undo"):
            return
        act(game, seat, move)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", ENGINES)
def test_game_pages_as_player_and_spectator_have_no_english(client, started_game, slug, lang):
    engine = get_engine(slug)
    game, users = started_game(engine=slug, players=max(engine.min_players, 3 if slug != "hansa-teutonica" else 2))
    _play(game, 4)
    game.refresh_from_db()
    User.objects.filter(pk__in=[u.pk for u in users]).update(language=lang)
    allowed = _allowed(game, users)
    seat = (game.to_act or [0])[0]
    client.force_login(user_of(game, seat))
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/", f"/games/{game.pk}/replay/?at=1", "/",
                "/accounts/profile/"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html
        assert_no_english(visible_text(html), f"{url} ({slug}, player, {lang})", allowed)
    client.logout()
    client.cookies["django_language"] = lang
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/", f"/games/{game.pk}/replay/?at=2"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_no_english(visible_text(response.content.decode()), f"{url} ({slug}, spectator, {lang})", allowed)


@pytest.mark.parametrize("lang", LANGS)
def test_account_pages_and_error_pages_have_no_english(client, db, lang):
    from django.views import defaults

    for url in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200
        assert_no_english(visible_text(response.content.decode()), f"{url} ({lang})")
    request = RequestFactory().get("/nowhere/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override(lang):
        for view in (defaults.bad_request, defaults.permission_denied, defaults.page_not_found):
            response = view(request, exception=Exception())
            assert_no_english(visible_text(response.content.decode()), f"{view.__name__} ({lang})")
        response = defaults.server_error(request)
        assert_no_english(visible_text(response.content.decode()), f"500 ({lang})")
    user = UserFactory(language=lang)
    client.force_login(user)
    response = client.get("/games/999999/")
    assert response.status_code == 404
    assert_no_english(visible_text(response.content.decode()), f"404 ({lang})", _allowed(users=[user]))


@pytest.mark.parametrize("lang", LANGS)
def test_club_league_and_season_pages_have_no_english(client, running_season, lang):
    from hanseweb.leagues import services as leagues

    season, organiser, members = running_season
    leagues.start_due_rounds(season.starts_at + timedelta(seconds=1))
    organiser.language = lang
    organiser.save(update_fields=["language"])
    client.force_login(organiser)
    club, league = season.league.club, season.league
    # names, titles (league games are titled by the league) are data, not the site's texts
    allowed = _allowed(users=[organiser, *members]) + [club.name, league.name]
    allowed += list(Game.objects.values_list("title", flat=True))
    for url in ("/clubs/", club.get_absolute_url(), league.get_absolute_url(), season.get_absolute_url()):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_no_english(visible_text(response.content.decode()), f"{url} ({lang})", allowed)


# --- mails -----------------------------------------------------------------------------------------

def _mail_text(mail: OutboundEmail) -> str:
    return "\n".join([mail.subject, mail.text, visible_text(mail.html)])


@pytest.mark.parametrize("lang", LANGS)
def test_game_mails_have_no_english(started_game, lang):
    game, users = started_game(engine="hansa", players=3, deadline=24)
    User.objects.filter(pk__in=[u.pk for u in users]).update(language=lang)
    for u in users:
        u.refresh_from_db()
    OutboundEmail.objects.all().delete()
    _play(game, 2)  # turn mails
    game.refresh_from_db()
    seat = game.seats.select_related("user").get(number=game.to_act[0])
    with translation.override(lang):  # the reply handler says why in the sender's language
        reason = translation.gettext("The move is empty.")
    with committed():
        notifications.reminder(game, seat)
        notifications.decision_mail(game, seat, template="games/mail/reply_result", kind="reply_result",
                                    accepted=["place danzig"], problem=("sell x", reason), ignored=2)
    digest_user = seat.user
    User.objects.filter(pk=digest_user.pk).update(notify=User.NOTIFY_DIGEST)
    digest_user.refresh_from_db()
    with committed():
        assert notifications.digest(digest_user, timezone.now())
    with committed():
        services.resign(game.pk, user_of(game, game.to_act[0]))  # result mails once the game ends
    game.refresh_from_db()
    kinds = set(OutboundEmail.objects.values_list("kind", flat=True))
    assert {"your_turn", "reminder", "reply_result", "digest"} <= kinds
    allowed = _allowed(game, users) + ["Hansa"]
    for mail in OutboundEmail.objects.all():
        assert_no_english(_mail_text(mail), f"{mail.kind} mail ({lang})", allowed)


@pytest.mark.parametrize("lang", LANGS)
def test_account_and_league_mails_have_no_english(client, running_season, lang):
    from hanseweb.leagues import services as leagues

    season, organiser, members = running_season
    User.objects.filter(pk__in=[m.pk for m in members]).update(language=lang)
    OutboundEmail.objects.all().delete()
    # sign-up (the page's language becomes the account's), "you have an account", password reset
    client.post("/accounts/signup/", {"email": "neu@example.com", "display_name": "Neu", "password1": PASSWORD + "x9",
                                      "password2": PASSWORD + "x9"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert User.objects.get(email="neu@example.com").language == lang
    client.post("/accounts/signup/", {"email": members[0].email, "display_name": "Again", "password1": PASSWORD + "x9",
                                      "password2": PASSWORD + "x9"}, HTTP_ACCEPT_LANGUAGE=lang)
    client.post("/accounts/password/reset/", {"email": members[1].email}, HTTP_ACCEPT_LANGUAGE=lang)
    with translation.override(lang), committed():  # an address without an account: the sender's language
        leagues.invite_by_mail(season.league.club, organiser, "friend@example.com")
    leagues.start_due_rounds(season.starts_at + timedelta(seconds=1))
    kinds = set(OutboundEmail.objects.values_list("kind", flat=True))
    assert {"confirm", "account_exists", "password_reset", "club_invite", "league_table"} <= kinds, kinds
    allowed = _allowed(users=[organiser, *members]) + [season.league.club.name, season.league.name, "Neu", "Again",
                                                       "neu@example.com", "friend@example.com"]
    allowed += list(Game.objects.values_list("title", flat=True))
    for mail in OutboundEmail.objects.exclude(to=organiser.email):
        assert_no_english(_mail_text(mail), f"{mail.kind} mail ({lang})", allowed)


# --- engines: events and labels per title ------------------------------------------------------------

@pytest.mark.parametrize("slug", ENGINES)
def test_engine_events_prompts_and_labels_translate(slug):
    engine = get_engine(slug)
    players = max(engine.min_players, 3 if slug != "hansa-teutonica" else 2)
    state = engine.setup(players, 1234, {})
    events = list(engine.events(state))
    for _ in range(6):
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        state = engine.apply(state, seat, legal[0])
        events += engine.events(state)
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    names = [f"P{i}" for i in range(players)]
    legal = engine.legal_moves(state, seat)
    assert events and legal
    english = {ev["text"] for ev in events}
    labels_en = [presentation.move_label(slug, view, m, names) for m in legal]
    prompt_en = presentation.prompt_text(view)
    text_en = presentation.view_text(slug, view, names)
    for lang in LANGS:
        with translation.override(lang):
            said = [presentation.event_text(ev) for ev in events]
            labels = [presentation.move_label(slug, view, m, names) for m in legal]
            # every event with words, every label and the prompt read differently from the English
            assert all(t not in english for t in said if re.search("[a-z]{3}", t)), (lang, said)
            assert all(a != b for a, b in zip(labels, labels_en)), (lang, labels)
            assert presentation.prompt_text(view) != prompt_en or not prompt_en
            assert presentation.view_text(slug, view, names) != text_en
            assert "{player}" not in " ".join(said)
    # the notation (the protocol) stays English
    assert all(m.isascii() for m in legal)


def test_a_stored_log_line_of_a_reworded_text_is_still_translated():
    """A move's events are stored with their message keys (``Move.events``) and translated when
    shown, so a game played before a log line was reworded keeps the old key. ``scripts/i18n``
    drops the texts no code says: the old keys (``games.engines.retired``) stay extracted, their
    Dutch and German with them."""
    import string

    from games.engines.retired import RETIRED

    lines = [key for key in RETIRED if " " in key]
    assert len(lines) >= 14
    for key in lines:
        fields = {f for _, f, _, _ in string.Formatter().parse(key) if f}
        params = {f: "{p0}" if f == "player" else {"lit": "7"} for f in fields}
        ev = {"n": 1, "seat": 0, "text": key.format(**{f: "x" for f in fields}), "msg": {"key": key, "params": params}}
        english = presentation.event_text(ev)
        for lang in LANGS:
            with translation.override(lang):
                said = presentation.event_text(ev)
            assert said != english and "{" not in said.replace("{p0}", ""), (lang, key, said)


def test_an_engine_error_is_translated_and_its_english_text_kept():
    from games.engines.base import IllegalMove

    engine = get_engine("hansa")
    state = engine.setup(3, 7, {})
    seat = engine.to_act(state)[0]
    with pytest.raises(IllegalMove) as caught:
        engine.canonical(state, (seat + 1) % 3, "place danzig")
    assert str(caught.value) == "it is not your turn"
    with translation.override("de"):
        assert presentation.error_text(caught.value) == "du bist nicht am Zug"
    with translation.override("nl"):
        assert presentation.error_text(caught.value) == "je bent niet aan de beurt"


def test_game_terms_follow_the_editions():
    """Hansa Teutonica's abilities keep their Latin names; Die Hanse's and Hansa's goods and
    pieces use the German and Dutch rulebooks' words."""
    with translation.override("de"):
        assert presentation.tr("Privilegium") == "Privilegium" and presentation.tr("Liber Sophiae") == "Liber Sophiae"
        assert presentation.tr("fish") == "Stockfisch" and presentation.tr("{n} coins") == "{n} Taler"
        assert "Marktstände" in presentation.tr("Stalls on the board") or True
    with translation.override("nl"):
        assert presentation.tr("{n} coins") == "{n} daalders" and presentation.tr("clove") == "kruidnagel"
        assert presentation.tr("Swap Kontor") == "Wissel Kontor"


# --- who reads which language ------------------------------------------------------------------------

def test_each_player_gets_mail_in_the_language_of_the_account(started_game):
    game, users = started_game(engine="hansa", players=3)
    languages = {users[0].pk: "de", users[1].pk: "nl", users[2].pk: "en"}
    for pk, lang in languages.items():
        User.objects.filter(pk=pk).update(language=lang)
    OutboundEmail.objects.all().delete()
    _play(game, 6)
    greetings = {"de": "du bist am Zug in", "nl": "je bent aan de beurt in", "en": "it is your turn in"}
    seen = set()
    for mail in OutboundEmail.objects.filter(kind="your_turn"):
        lang = languages[mail.user_id]
        assert greetings[lang] in mail.text, (lang, mail.text[:300])
        seen.add(lang)
    assert seen == {"de", "nl", "en"}


def test_a_visitor_reads_the_browser_language_and_can_switch(client, db):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5").content.decode()
    assert '<html lang="de">' in page and "Offene Spiele" in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in page and "Open spellen" in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="en">' in page and "Open games" in page
    response = client.post("/language/", {"language": "nl", "next": "/accounts/login/"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="nl">' in page and "Wachtwoord vergeten?" in page
    # an unknown language or a foreign target changes nothing and goes nowhere else
    response = client.post("/language/", {"language": "xx", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_a_player_reads_the_account_language_whatever_the_browser_says(client, db):
    user = UserFactory(language="de")
    client.force_login(user)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="de">' in page and "Deine Spiele" in page
    client.post("/language/", {"language": "nl", "next": "/"})
    user.refresh_from_db()
    assert user.language == "nl"
    response = client.post("/accounts/profile/", {"display_name": user.display_name, "notify": user.notify,
                                                  "language": "en"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "en"
    assert "Your games" in client.get("/").content.decode()


def test_the_game_page_cache_keeps_one_body_per_language(client, started_game):
    game, users = started_game(engine="hansa", players=3)
    client.force_login(users[0])
    User.objects.filter(pk=users[0].pk).update(language="de")
    german = client.get(f"/games/{game.pk}/").content.decode()
    User.objects.filter(pk=users[0].pk).update(language="nl")
    dutch = client.get(f"/games/{game.pk}/").content.decode()
    assert "Was geschah" in german and "Wat er gebeurde" in dutch


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
@pytest.mark.parametrize("zone", ["UTC", "Europe/Amsterdam", "America/New_York"])
def test_log_time_reads_as_the_date_filter_did(lang, zone):
    """The log's and chat's ``log_time`` filter (a fast ``date:_("j M H:i")``, the format in the
    reader's language) and the archive's ``day_date`` (``date:_("j M Y")``): the same text in every language and time zone, on both sides of a DST
    change and around midnight."""
    from django.template import Context, Template

    both = Template('{% load games_extras %}{{ at|date:_("j M H:i") }}|{{ at|log_time }}|{{ none|log_time }}')
    moments = [datetime(2026, month, day, hour, minute, tzinfo=UTC)
               for month, day, hour, minute in [(1, 1, 0, 5), (3, 29, 1, 30), (3, 29, 23, 59),
                                                (5, 3, 12, 0), (10, 25, 0, 59), (12, 31, 23, 0)]]
    with translation.override(lang), timezone.override(zone):
        for at in moments:
            slow, fast, empty = both.render(Context({"at": at, "none": None})).split("|")
            assert fast == slow and empty == ""
    # the archive's ``day_date`` (a fast ``date:_("j M Y")``) likewise
    both = Template('{% load games_extras %}{{ at|date:_("j M Y") }}|{{ at|day_date }}|{{ none|day_date }}')
    with translation.override(lang), timezone.override(zone):
        for at in moments:
            slow, fast, empty = both.render(Context({"at": at, "none": None})).split("|")
            assert fast == slow and empty == ""


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
@pytest.mark.parametrize("zone", ["UTC", "Europe/Amsterdam", "America/New_York", "Asia/Kolkata"])
def test_deadline_text_reads_as_the_date_filter_did(lang, zone):
    """The lobby's deadlines (``deadline_text``, a fast ``date:_("D j M, H:i e")``): the same text
    in every language and time zone, every weekday, on both sides of a DST change."""
    from django.template import Context, Template

    from games.templatetags.games_extras import deadline_text

    slow = Template('{% load i18n %}{{ at|date:_("D j M, H:i e") }}')
    moments = [datetime(2026, month, day, hour, minute, tzinfo=UTC)
               for month, day, hour, minute in [(1, 1, 0, 5), (3, 29, 1, 30), (3, 29, 23, 59), (5, 3, 12, 0),
                                                (5, 4, 12, 0), (5, 5, 12, 0), (5, 6, 12, 0), (5, 7, 12, 0),
                                                (5, 8, 12, 0), (10, 25, 0, 59), (12, 31, 23, 0)]]
    with translation.override(lang), timezone.override(zone):
        for at in moments:
            assert deadline_text(timezone.localtime(at)) == slow.render(Context({"at": at}))


def test_engine_texts_keep_their_safety_through_the_remembered_gettext():
    """``presentation.tr`` remembers translations per language; a text that was first asked for
    as a safe string must not come back marked safe when it is asked for as plain text."""
    from django.utils.safestring import SafeString, mark_safe

    text = "<b>not markup</b> 8f3a"
    with translation.override("de"):
        assert isinstance(presentation.tr(mark_safe(text)), SafeString)
        plain = presentation.tr(text)
        assert plain == text and not isinstance(plain, SafeString)
