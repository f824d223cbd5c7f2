"""Dutch and German as a native speaker writes them (issue 24, item 5), and the club and league
pages' words (item 3): the undo line, the player counts, the zoom buttons, league game titles and
division names, adjectives inflected, plural forms, the rulebooks' terms; the organiser log and
rating words instead of keys and symbols."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import holdings, presentation
from games.engines import get_engine
from games.engines.events import event
from hanseweb.accounts.models import User

from .conftest import act, committed
from .factories import UserFactory
from .leagues.conftest import club_setup  # noqa: F401 (fixture)


def _said(message, lang):
    with translation.override(lang):
        return presentation.tr(message)


@pytest.mark.django_db
def test_the_undo_line_is_translated_also_when_stored_before(started_game):
    game, users = started_game("hansa-teutonica", 3)
    seat = game.to_act[0]
    act(game, seat, "place")  # an action begun: the seat still decides, and may take it back
    act(game, seat, "undo")
    game.refresh_from_db()
    ev = game.moves.order_by("-seq").first().events[0]
    names = presentation.player_names(game)
    with translation.override("de"):
        assert presentation.fill_names(presentation.event_text(ev), names) == \
            f"{names[seat]} hat den letzten Schritt zurückgenommen."
    old = event(0, 2, "{p2} took back their last step.")  # as stored before this change
    with translation.override("nl"):
        assert presentation.event_text(old) == "{p2} heeft de laatste stap teruggenomen."


@pytest.mark.django_db
@pytest.mark.parametrize("lang,word,fit", [("nl", "3 spelers", "Passend"), ("de", "3 Spieler", "Einpassen"),
                                           ("en", "3 players", "Fit")])
def test_new_game_form_and_zoom_buttons_speak_the_language(client, started_game, lang, word, fit):
    game, users = started_game("zanzibar", 3)
    User.objects.filter(pk=users[0].pk).update(language=lang)
    client.force_login(users[0])
    page = client.get("/games/new/?engine=zanzibar").content.decode()
    assert re.search(rf'<option value="3"[^>]*>{word}</option>', page), page[:200]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'data-fit="{fit}"' in page and "'board-zoom.js'" not in page


def _form_words(client, user, lang: str, slug: str) -> list[str]:
    """The labels and the options (but the titles' names) of the new-game form of ``slug``."""
    User.objects.filter(pk=user.pk).update(language=lang)
    page = client.get(f"/games/new/?engine={slug}").content.decode()
    page = re.sub(r'<select name="engine".*?</select>', "", page, flags=re.S)
    return [re.sub(r"<[^>]+>|\s+", " ", t).strip() for t in re.findall(r"<label[^>]*>(.*?)</label>|<option[^>]*>(.*?)</option>",
                                                                  page, flags=re.S) for t in t if t]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"])
def test_every_label_and_choice_of_the_new_game_form_is_translated(client, slug):
    """A field without a translated label (Django's "Title" from the field's name) or an engine's
    option texts not marked for the catalogue stay English on a Dutch or German form."""
    user = UserFactory()
    client.force_login(user)
    english = _form_words(client, user, "en", slug)
    assert "Title" in english and len(english) > 8
    for lang in ("nl", "de"):
        words = _form_words(client, user, lang, slug)
        assert len(words) == len(english)
        same = [e for e, w in zip(english, words) if e == w and re.search("[a-z]{3}", e) and not e.startswith("Bot")]
        assert not same, f"{lang}: {same}"


def test_ship_adjectives_are_inflected_and_card_names_capitalised():
    from games.engines.die_hanse.board import THE_SHIP
    from games.engines.i18n import msg

    sail = msg("{player} sails {ship} to {field}", player="Alice", ship=THE_SHIP["green"], field=msg("canal field {n}", n=2))
    assert _said(sail, "de") == "Alice segelt das grüne Schiff auf Kanalfeld 2"
    assert _said(sail, "nl") == "Alice vaart het groene schip naar kanaalveld 2"
    plunder = msg("{player} plunders {ship}: {goods}", player="Alice", ship=THE_SHIP["red"], goods="salt")
    assert _said(plunder, "de") == "Alice plündert das rote Schiff: Salz"
    declared = msg("{player} declares {cards}", player="Bob", cards=["Kaperbrief"])
    assert _said(declared, "de") == "Bob sagt Kaperbrief an"


def test_piece_counts_use_one_and_many_forms():
    from games.engines.hansa_teutonica.state import pieces

    assert _said(pieces(3, 0), "nl") == "3 handelaars"
    assert _said(pieces(0, 1), "nl") == "1 koopman"
    assert _said(pieces(2, 2), "nl") == "2 handelaars en 2 kooplieden"
    assert _said(pieces(1, 1), "de") == "1 Händler und 1 Kaufmann"
    assert _said(pieces(0, 2), "de") == "2 Kaufleute"
    assert _said(pieces(1, 0), "en") == "1 trader" and _said(pieces(0, 0), "en") == "nothing"


def test_one_dutch_word_for_merchants_in_every_text():
    """The rulebooks say "handelaars"; no Dutch text says "handelaren"."""
    from pathlib import Path

    from django.conf import settings

    po = (Path(settings.BASE_DIR) / "locale" / "nl" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    translations = "\n".join(line for line in po.splitlines() if not line.startswith(("msgid", "#")))
    assert "handelaars" in translations and "handelaren" not in translations.lower()


@pytest.mark.django_db
def test_league_titles_and_divisions_in_the_players_language(club_setup):  # noqa: F811
    from hanseweb.leagues import services as leagues
    from hanseweb.leagues.models import Table

    club, organiser, members = club_setup
    User.objects.filter(pk__in=[m.pk for m in members] + [organiser.pk]).update(language="nl")
    for m in members:
        m.refresh_from_db()
    league = leagues.create_league(club, organiser, name="Lente", engine="hansa", table_size=3)
    season = leagues.create_season(league, organiser, starts_at=timezone.now() - timedelta(minutes=1),
                                   rounds=2, round_days=7, deadline_hours=48)
    for member in members:
        leagues.sign_up(season, member)
    with translation.override("nl"):  # the organiser's page
        leagues.seed_divisions(season, organiser, 2)
    leagues.start_season(season, organiser)
    with committed():
        leagues.start_due_rounds()
    titles = sorted(Table.objects.filter(round__season=season).values_list("game__title", flat=True))
    assert titles and all(re.fullmatch(r"Lente \d+, ronde 1, Divisie \d, tafel \d", t) for t in titles), titles
    assert sorted(season.divisions.values_list("name", flat=True)) == ["Divisie 1", "Divisie 2"]


@pytest.mark.django_db
def test_club_and_league_pages_name_games_and_log_in_words(client, club_setup):  # noqa: F811
    from hanseweb.leagues import services as leagues

    club, organiser, members = club_setup
    league = leagues.create_league(club, organiser, name="Spring", engine="hansa-teutonica", table_size=3)
    leagues.create_season(league, organiser, starts_at=timezone.now() + timedelta(days=2),
                          rounds=2, round_days=7, deadline_hours=48)
    client.force_login(organiser)
    for url in (club.get_absolute_url(), league.get_absolute_url()):
        page = client.get(url).content.decode()
        assert "Hansa Teutonica" in page, url
        assert "hansa-teutonica" not in re.sub(r'(href|action|value|name|id)="[^"]*"', "", page), url
        assert "Game: hansa" not in page
        assert not re.search(r"starts_at|resigned_games|table_size|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", page), url
        assert "μ" not in page and "σ" not in page


# Colour words of the four titles as the catalogues say them (Hansa's goods and players, Die Hanse's
# ships, Zanzibar's and Hansa Teutonica's players), uninflected.
_DE_COLOURS = r"(?:blau|rot|grün|gelb|weiß|schwarz|braun|lila|orange|grau|olivgrün|oliv|rosa|violett|pink)"
_NL_COLOURS = r"(?:blauw|rood|groen|geel|wit|zwart|bruin|lila|grijs|olijfgroen|paars|roze)"
_NL_INFLECTED = r"(?:blauwe|rode|groene|gele|witte|zwarte|bruine|grijze|olijfgroene|paarse|roze)"
_NL_HET_NOUNS = r"(?:schip|fiche|vat|plaatje|veld|privilege)"
BAD = {
    "de": [
        # article + bare colour + noun: "das weiß Fass", "Segle das grün Schiff"
        (r"\b(?:das|der|die|dem|den|des|ein|eine|einen|einem|einer|kein|keine|keinen)\s+%s\s+[A-ZÄÖÜ]" % _DE_COLOURS,
         "uninflected colour"),
        (r"\bmit\s+(?:das|die|ein|einen)\b", "accusative after 'mit'"),
        (r"\bSchiff\s+%s\b" % _DE_COLOURS, "colour after the noun"),
        (r"\b(?:Baltic Sea|Gulf of \w+|Scandinavia|Continent|Zealand)\b", "an English name on the map"),
        (r", und (?:zahlt|gibt)\b", "a comma before 'und'"),
        (r"\b[Ww]ähle (?:welche[nrs]?|wo|wohin|ob)\b", "no comma before an indirect question"),
        (r"(?<![\w-])%s +(?:Schiff|Fass|Plättchen|Händler|Kaufmann|Kontor)\b" % _DE_COLOURS, "uninflected colour"),
        (r"\b(?:treibt|segelt|plündert|bewegt|kauft|verkauft|verliert)\s+%s\b" % _DE_COLOURS, "a colour for a thing"),
        (r"\b(?:Fass|Fässer|Schiff|Plättchen)\s+%s\b" % _DE_COLOURS, "colour after the noun"),
        (r"\b%s/\d" % _DE_COLOURS, "a tile's notation in a sentence"),
        (r"\b1 +(?:Fässer|Fässern|Kaufleute|Marktstände|Taler\w|Karten|Aktionen|Schritte|Spielern)\b", "one + plural"),
        (r"\b(?:[02-9]|\d\d+) +(?:Fass|Kaufmann|Marktstand|Karte|Aktion|Schritt)\b", "many + singular"),
        (r"\b(?:kaperbrief|händler|kaufmann|kaufleute|marktstand|marktstände|plättchen|fass|fässer|taler|schiff)\b",
         "a German noun in lower case"),
    ],
    "nl": [
        # "het blauw schip", "de rood ..." (after de/het the adjective takes -e)
        (r"\b(?:het|de|dit|deze|dat|die)\s+%s\s+\w" % _NL_COLOURS, "colour without -e after de/het"),
        (r"\been\s+%s\s+%s\b" % (_NL_INFLECTED.replace("roze|", ""), _NL_HET_NOUNS), "colour with -e after een (het-woord)"),
        (r"\b(?:vat|vaten|fiche|schip)\s+%s\b" % _NL_COLOURS, "colour after the noun"),
        (r"\bschip\s+(?:oranje|paars|lila)\b", "colour after the noun"),
        (r"\b%s/\d" % _NL_COLOURS, "a tile's notation in a sentence"),
        (r"\b1 +(?:vaten|kooplieden|handelaars|handelaren|marktkramen|daalders|kaarten|acties|stappen|spelers)\b",
         "one + plural"),
        (r"\b(?:[02-9]|\d\d+) +(?:vat|koopman|handelaar|marktkraam|kaart|actie|stap)\b", "many + singular"),
        (r"\bhandelaren\b", "not the rulebook's word (handelaars)"),
        (r"\b(?:Baltic Sea|Gulf of \w+|Scandinavia|Continent|Zealand)\b", "an English name on the map"),
        (r", en betaalt\b", "a comma before 'en'"),
        (r"/(?:kooplieden|handelaren|vaten)\b|\(s\)", "both forms at once"),
    ],
}


def test_the_bad_patterns_catch_the_texts_the_issue_found():
    found = lambda lang, text: [why for pat, why in BAD[lang] if re.search(pat, text)]  # noqa: E731
    assert found("de", "Baue einen Marktstand in Riga und bezahle mit das weiß Fass (2)")
    assert found("de", "Kaufe das blau Fass (1) in Riga") and found("de", "Segle das grün Schiff")
    assert found("de", "Alice plündert das rot Schiff") and found("de", "Bob sagt kaperbrief an")
    assert found("de", "Ann kauft rot/2 in Riga") and found("de", "Verkaufe 2 Fässer rot (1, 2) in Riga")
    assert found("de", "grün Schiff") and found("de", "der Sturm treibt rot in die Helgoländer Bucht")
    assert found("de", "Ann kauft das rote Plättchen mit 2 Fässern in Riga, und zahlt 1 Taler an die Bank.")
    assert found("nl", "Baltic Sea") and found("de", "Gulf of Finland")
    assert found("nl", "Vaar het blauw schip") and found("nl", "1 kooplieden")
    assert found("nl", "3 handelaar/handelaren en 0 koopman/kooplieden") and found("nl", "Koop het rood vat (2)")
    assert not found("de", "Kaufe das blaue Plättchen mit 2 Fässern in Riga")
    assert not found("de", "Baue einen Marktstand in Riga und gib dafür das orangefarbene Plättchen mit 1 Fass ab")
    assert not found("nl", "Koop het rode fiche met 2 vaten in Riga; er is geen rood fiche met 1 vat")


@pytest.mark.parametrize("slug", ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"])
def test_random_games_read_as_a_native_speaker_writes(slug):
    """Seeded random games of each title (the fewest and the most players of ``TITLES``), every
    prompt, move label, log line, mail text view, board text and holdings panel in Dutch and German: no colour
    left uninflected before a noun, no singular after a count above one (or plural after one),
    no tile notation inside a sentence, German nouns capitalised."""
    from .test_words_not_ids import NAMES, TITLES, _playout, _svg_text

    seen = 0
    for players in TITLES[slug]:
        for state, seat, view, legal, events in _playout(slug, players, seed=players * 31 + 7, steps=400):
            names = NAMES[:players]
            for lang in ("nl", "de"):
                with translation.override(lang):
                    texts = [presentation.prompt_text(view), presentation.view_text(slug, view, names),
                             _svg_text(presentation.board_svg(slug, view, names, legal=legal))]
                    texts += [presentation.move_label(slug, view, m, names) for m in legal]
                    texts += [presentation.event_text(ev) for ev in events]
                    panel = holdings.holdings(slug, view, names)  # "what you hold" beside the board
                    texts += [f"{f['label']}: {f['value']}" for f in (panel or {}).get("facts", [])]
                    texts.append((panel or {}).get("left") or "")
                for text in texts:
                    text = presentation.fill_names(text, names)
                    seen += 1
                    for pattern, why in BAD[lang]:
                        hit = re.search(pattern, text)
                        assert not hit, f"{slug} ({lang}, {why}): {hit.group(0)!r} in\n{text[:600]}"
    assert seen > 500
