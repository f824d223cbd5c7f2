"""Accessibility of the pages and boards (issue 12): boards holding move targets are named groups
with a description (not images), no stray <title> names a board, the share-link input has a
label, the profile's radio group is a fieldset with a legend, help texts referenced by
aria-describedby exist, the log can be focused, and a skip link leads to the moves."""
import importlib
import re
import xml.etree.ElementTree as ET

import pytest

from games.engines import available_slugs, get_engine

from .conftest import user_of
from .test_replay import _play

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("slug", available_slugs())
def test_boards_with_targets_are_named_groups_and_without_are_named_images(slug):
    engine = get_engine(slug)
    svg = importlib.import_module(engine.__module__.rsplit(".", 1)[0] + ".svg")
    players = max(engine.min_players, 3)
    state = engine.setup(players=players, seed=4, options={})
    seat = engine.to_act(state)[0]
    legal = engine.legal_moves(state, seat)
    names = [f"P{i}" for i in range(players)]
    for moves, role in ((legal, "group"), ((), "img")):
        root = ET.fromstring(svg.render_svg(engine.view(state, seat), names, legal=moves))
        assert root.get("role") == role and root.get("aria-label", "").endswith("board")
        assert root.find(f"{SVG}desc") is not None and root.find(f"{SVG}desc").text
        # no <title> of its own: that would name the whole board
        assert root.find(f"{SVG}title") is None
        if moves:
            assert root.findall(".//*[@data-move]") or slug == "hansa-teutonica"


@pytest.mark.django_db
def test_game_page_skip_link_focusable_log_and_share_label(client, started_game):
    game, _ = started_game("hansa", 3)
    game = _play(game, 3)
    client.force_login(user_of(game, game.to_act[0]))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '<a class="skip-link" href="#play">' in html and 'id="play"' in html
    assert re.search(r'<ul class="plain" tabindex="0" aria-labelledby="log-heading">', html)
    assert 'id="log-heading"' in html
    # someone waiting has no skip link to moves they do not have
    other = next(n for n in range(3) if n not in game.to_act)
    client.force_login(user_of(game, other))
    assert "skip-link" not in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_share_link_input_has_a_label(client):
    from games import services

    from .factories import UserFactory

    user = UserFactory()
    game = services.create_game(creator=user, engine="hansa", title="open", players=3)
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '<label for="share-link">' in html and 'id="share-link"' in html


@pytest.mark.django_db
def test_profile_radio_group_is_a_fieldset_and_help_texts_exist(client):
    from .factories import UserFactory

    client.force_login(UserFactory())
    html = client.get("/accounts/profile/").content.decode()
    assert re.search(r"<fieldset class=\"field\">\s*<legend>", html)
    for ref in re.findall(r'aria-describedby="([^"]+)"', html):
        for one in ref.split():
            assert f'id="{one}"' in html, one
