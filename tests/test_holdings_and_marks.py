"""The game page's layout data (issue 24, items 2 and 7): the panel of what the seat holds
(``games.holdings``, only from that seat's view), the choices the board offers folded under it
(``presentation.split_board_choices``) and the last moves marked on the board and in the log
(``games.marks``), on the game page and in the replay."""
import re

import pytest
from django.utils import translation

from games import holdings, marks, presentation, services
from games.engines import get_engine

from .conftest import act, user_of
from .test_replay import _play

SLUGS = ["hansa", "hansa-teutonica", "die-hanse", "zanzibar"]


def _facts(panel) -> dict:
    return {f["label"]: f["value"] for f in panel["facts"]}


# --- holdings ------------------------------------------------------------------------------------

@pytest.mark.parametrize("slug", SLUGS)
def test_a_spectator_holds_nothing(slug):
    engine = get_engine(slug)
    state = engine.setup(3, 5, {})
    assert holdings.holdings(slug, engine.view(state, None)) is None
    assert holdings.holdings(slug, engine.view(state, 1))["facts"]


def test_hansa_teutonica_panel_is_the_seats_own_desk():
    engine = get_engine("hansa-teutonica")
    state = engine.setup(3, 11, {})
    for seat in range(3):
        view = engine.view(state, seat)
        desk = view["desks"][seat]
        facts = _facts(holdings.holdings("hansa-teutonica", view))
        t, m = desk["supply"]["traders"], desk["supply"]["merchants"]
        assert facts["Supply"] == f"{t} trader{'s' * (t != 1)}, {m} merchant{'s' * (m != 1)}"
        t, m = desk["stock"]["traders"], desk["stock"]["merchants"]
        assert facts["Stock"] == f"{t} trader{'s' * (t != 1)}, {m} merchant{'s' * (m != 1)}"
        assert facts["Prestige points"] == str(desk["pp"])
        assert "Actiones 2" in facts["Abilities"] and "Privilegium white" in facts["Abilities"]
    active = state["active"]
    panel = holdings.holdings("hansa-teutonica", engine.view(state, active))
    assert panel["left"] == "2 of 2 actions left this turn"
    assert holdings.holdings("hansa-teutonica", engine.view(state, (active + 1) % 3))["left"] == ""


def test_hansa_teutonica_panel_in_dutch_and_german_uses_the_rulebook_words():
    engine = get_engine("hansa-teutonica")
    view = engine.view(engine.setup(3, 11, {}), 0)
    with translation.override("nl"):
        facts = _facts(holdings.holdings("hansa-teutonica", view))
        assert "Persoonlijke voorraad" in facts and "Voorraad" in facts
        assert "handelaars" in facts["Persoonlijke voorraad"] and "koopman" in facts["Persoonlijke voorraad"]
    with translation.override("de"):
        facts = _facts(holdings.holdings("hansa-teutonica", view))
        assert "Vorrat" in facts and "Lager" in facts and "Händler" in facts["Lager"]


def test_die_hanse_panel_shows_the_seats_own_goods_values_and_cards_only():
    engine = get_engine("die-hanse")
    state = engine.setup(3, 4, {})
    for seat in range(3):
        view = engine.view(state, seat)
        panel = holdings.holdings("die-hanse", view)
        facts = _facts(panel)
        mine = [(sh["name"], side) for sh in view["ships"] for side in ("stern", "bow") if sh[side]["seat"] == seat]
        holds = [label for label in facts if label.startswith("Hold (")]
        assert len(holds) == len(mine) >= 1
        for name, side in mine:
            half = next(sh[side] for sh in view["ships"] if sh["name"] == name)
            assert half["values"] is not None  # the holder sees its values; the panel shows them
            assert facts[f"Hold ({name} ship, {side})"].endswith(str(half["values"][-1]))
        cards = facts["Harbour cards in hand"]
        assert cards == ", ".join(presentation.tr(c["title_msg"]) for c in view["hand"])
        # another seat's hand is not in this seat's panel (the hands differ at the start)
        other = engine.view(state, (seat + 1) % 3)["hand"]
        if {c["card"] for c in other} - {c["card"] for c in view["hand"]}:
            assert facts["Harbour cards in hand"] != ", ".join(presentation.tr(c["title_msg"]) for c in other)


def test_die_hanse_special_cards_have_the_glossarys_names_in_every_language():  # HANSE-10
    """The panel said "privilege, letter of marque", words of no glossary (the log, the board and
    the rulebook say Privilege and Kaperbrief), outside the catalogues' extraction: a catalogue
    update dropped their Dutch and German."""
    engine = get_engine("die-hanse")
    state = engine.setup(3, 4, {})
    state["special"][1]["privilege"] = False
    expected = {"en": ("Privilege, Kaperbrief", "Kaperbrief"), "nl": ("Privilege, Kaperbrief", "Kaperbrief"),
                "de": ("Privileg, Kaperbrief", "Kaperbrief")}
    for language, (both, one) in expected.items():
        with translation.override(language):
            assert _facts(holdings.holdings("die-hanse", engine.view(state, 0)))[_special()] == both
            assert _facts(holdings.holdings("die-hanse", engine.view(state, 1)))[_special()] == one


def _special() -> str:
    return translation.pgettext("holdings", "Special cards")


def test_zanzibar_panel_lists_the_hand_with_its_points_now():
    engine = get_engine("zanzibar")
    state = engine.setup(3, 8, {})
    view = engine.view(state, 0)
    facts = _facts(holdings.holdings("zanzibar", view))
    assert facts["Score"] == str(view["scores"][0])
    assert facts["Merchants not yet placed"] == ", ".join(str(n) for n in view["unplaced"][0])


def test_hansa_panel_has_the_coins_and_tiles():
    engine = get_engine("hansa")
    state = engine.setup(3, 2, {})
    view = engine.view(state, 2)
    panel = holdings.holdings("hansa", view)
    me = view["seats"][2]
    facts = {f["label"]: f for f in panel["facts"]}
    assert facts["Coins"]["value"] == str(me["coins"])
    assert facts["Face-up tiles"]["tiles"] == me["tiles"]
    assert facts["Stalls in supply"]["value"] == str(me["supply"])


# --- choices on the board ------------------------------------------------------------------------

def test_many_choices_the_board_offers_are_folded_and_the_rest_stay():
    groups = [{"kind": "Where", "moves": [{"move": f"to n{i}", "label": f"n{i}"} for i in range(1, 8)]},
              {"kind": "Finish", "moves": [{"move": "cancel", "label": "Cancel"}]}]
    svg = "<svg>" + "".join(f'<g data-move="to n{i}"/>' for i in range(1, 8)) + "</svg>"
    side, board = presentation.split_board_choices(groups, svg)
    assert side == [{"kind": "Finish", "moves": [{"move": "cancel", "label": "Cancel"}]}]
    assert [m["move"] for m in board[0]["moves"]] == [f"to n{i}" for i in range(1, 8)]
    few = "<svg>" + "".join(f'<g data-move="to n{i}"/>' for i in range(1, 4)) + "</svg>"
    assert presentation.split_board_choices(groups, few) == (groups, [])
    assert presentation.board_targets('<g data-move="use swap a &amp; b"/>') == {"use swap a & b"}


@pytest.mark.django_db(transaction=True)
def test_zanzibar_placement_choices_are_folded_under_the_board(client, started_game):
    game, _users = started_game("zanzibar", 3)
    game = _play(game, 3)
    seat = game.to_act[0]
    legal = game.engine_obj.legal_moves(game.state_cache, seat)
    to_moves = [m for m in legal if m.startswith("to ")]
    assert len(to_moves) >= presentation.FOLD_BOARD_CHOICES
    client.force_login(user_of(game, seat))
    html = client.get(f"/games/{game.pk}/").content.decode()
    form = html[html.index('id="move-form"'):html.index("</form>", html.index('id="move-form"'))]
    folded = html[html.index('id="board-choices"'):]
    folded = folded[:folded.index("</details>")]
    assert html.index('<section class="board"') < html.index('id="board-choices"')
    for move in to_moves:
        assert f'value="{move}"' not in form
        assert f'form="move-form" name="move" value="{move}"' in folded
    assert 'href="#board-choices"' in html
    # a folded button submits the move form (its seq with it)
    r = client.post(f"/games/{game.pk}/move/", {"move": to_moves[0], "seq": game.move_count})
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.moves.order_by("-seq").first().text == to_moves[0]


# --- the last moves ------------------------------------------------------------------------------

def test_places_are_board_places_only():
    ht = get_engine("hansa-teutonica").view(get_engine("hansa-teutonica").setup(4, 1, {}), 0)
    assert marks.places("hansa-teutonica", ht, "on arnheim-duisburg") == ["arnheim-duisburg"]
    assert marks.places("hansa-teutonica", ht, "kontor arnheim trader") == ["arnheim"]
    assert marks.places("hansa-teutonica", ht, "with trader") == []
    dh = get_engine("die-hanse").view(get_engine("die-hanse").setup(3, 1, {}), 0)
    assert marks.places("die-hanse", dh, "sail green luebeck") == ["luebeck"]
    zb = get_engine("zanzibar").view(get_engine("zanzibar").setup(3, 1, {}), 0)
    assert marks.places("zanzibar", zb, "to n1") == ["n1"]
    assert marks.places("zanzibar", zb, "set aside clove") == []  # a card is no place (and may be private)
    hv = get_engine("hansa").view(get_engine("hansa").setup(3, 1, {}), 0)
    assert marks.places("hansa", hv, "move danzig") == ["danzig"]
    assert marks.places("hansa", hv, "buy orange/2") == []


def _seats_of(game):
    return list(game.moves.order_by("seq").values_list("seq", "seat", "text", "events"))


@pytest.mark.django_db(transaction=True)
def test_the_last_turn_and_the_moves_since_my_last_turn(started_game):
    game, _users = started_game("zanzibar", 3)
    game = _play(game, 14, seed=5)
    everything = _seats_of(game)
    assert any(events == [] for *_r, events in everything)  # a step that logs nothing (a chosen merchant)
    rows = [r for r in everything if r[2] != "undo" and r[3] != []]
    last_seat = rows[-1][1]
    trailing = []
    for row in reversed(rows):
        if row[1] != last_seat:
            break
        trailing.insert(0, row)
    for viewer in (None, 0, 1, 2):
        marked = marks.recent(game, viewer)
        assert marked.last_seat == last_seat
        # a move is used when the viewer may read one of its events in full, or it is their own
        readable = [(seq, text) for seq, seat, text, events in trailing
                    if seat == viewer or any(ev.get("only") is None or viewer in ev["only"] for ev in events)]
        assert marked.last == readable and readable
        if viewer is None:
            assert marked.since == []
            continue
        before = [r for r in rows if r[0] < trailing[0][0]]
        want = []
        for seq, seat, text, events in reversed(before):
            if seat == viewer:
                break
            if any(ev.get("only") is None or viewer in ev["only"] for ev in events):
                want.insert(0, (seq, text))
        assert marked.since == want
        assert all(seat != viewer for seq, seat, text, _e in rows if seq in dict(marked.since))


@pytest.mark.django_db(transaction=True)
def test_an_undone_step_is_not_marked(started_game):
    game, _users = started_game("hansa-teutonica", 3)
    seat = game.to_act[0]
    act(game, seat, "place")
    game.refresh_from_db()
    assert services.can_undo(game, seat)
    act(game, seat, "undo")
    game.refresh_from_db()
    marked = marks.recent(game, seat)
    assert all(text != "place" for _seq, text in marked.last + marked.since)


def test_a_move_whose_events_the_viewer_may_not_read_is_not_used():
    private = [{"n": 1, "seat": 0, "text": "x", "only": [0]}]
    assert marks._readable(private, 0, 1) is False
    assert marks._readable(private, 0, None) is False
    assert marks._readable(private, 0, 0) is True
    assert marks._readable(private, 2, 0) is True
    assert marks._readable([{"n": 1, "seat": 0, "text": "x"}], 0, None) is True
    assert marks._readable(None, 0, None) is True


def test_marks_are_drawn_solid_for_the_last_turn_and_dashed_before():
    engine = get_engine("zanzibar")
    view = engine.view(engine.setup(3, 1, {}), 0)
    svg = presentation.board_svg("zanzibar", view, ["A", "B", "C"])
    marked = marks.Marked(last=[(5, "to n1")], since=[(3, "to c2"), (4, "move 3")], last_seat=1)
    drawn = marks.mark_svg(svg, "zanzibar", view, marked)
    assert drawn.startswith(svg[:-len("</svg>")]) and drawn.endswith("</svg>")
    group = re.search(r'<g class="last-moves"[^>]*data-marked="([^"]*)">(.*?)</g>', drawn)
    assert group.group(1) == "c2 n1"
    assert group.group(2).count('class="mk-last"') == 1 and group.group(2).count('class="mk-since"') == 1
    since = re.search(r'<circle [^>]*class="mk-since"', group.group(2)).group(0)
    last = re.search(r'<circle [^>]*class="mk-last"', group.group(2)).group(0)
    assert "stroke-dasharray" in since and "stroke-dasharray" not in last
    assert marks.mark_svg(svg, "zanzibar", view, marks.Marked()) == svg


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", ["zanzibar", "die-hanse"])
def test_the_game_page_and_the_replay_mark_the_last_moves(client, started_game, slug):
    game, _users = started_game(slug, 3)
    game = _play(game, 12, seed=2)
    seat = game.to_act[0]
    client.force_login(user_of(game, seat))
    marked = marks.recent(game, seat)
    view = game.engine_obj.view(game.state_cache, seat)
    drawn = marks.marked_places(slug, view, marked)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'class="marks-legend"' in html
    for seq, kind in marked.seqs.items():
        if re.search(rf'<span class="muted">#{seq}\b', html):
            assert re.search(rf'<li class="{kind}-move"><span class="muted">#{seq}\b', html), (seq, kind)
    if drawn:
        assert f'data-marked="{" ".join(drawn)}"' in html
    assert 'class="last-move"' in html
    at = next(k for k in range(game.move_count - 1, 0, -1) if marks.recent(game, seat, end=k).last)
    then = marks.recent(game, seat, end=at)
    assert then.last[-1][0] <= at
    replay = client.get(f"/games/{game.pk}/replay/?at={at}").content.decode()
    assert 'class="marks-legend"' in replay
    assert re.search(rf'<li class="[^"]*last-move"><span class="muted">#{then.last[-1][0]}\b', replay)
