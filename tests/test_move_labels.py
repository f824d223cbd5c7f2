"""The game page's move buttons: the move in words (the engine's labels.py), grouped by kind,
the canonical text as the value sent and shown small."""
import re

import pytest
from django.utils.html import escape

from games import presentation

from .conftest import user_of
from .test_replay import _play


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", [("hansa", 3), ("hansa-teutonica", 3), ("die-hanse", 3), ("zanzibar", 3)])
def test_buttons_show_labels_and_keep_the_notation(client, started_game, slug, players):
    game, _ = started_game(slug, players)
    game = _play(game, 7)
    seat = game.to_act[0]
    client.force_login(user_of(game, seat))
    html = client.get(f"/games/{game.pk}/").content.decode()
    engine = game.engine_obj
    view = engine.view(game.state_cache, seat)
    names = presentation.player_names(game)
    legal = engine.legal_moves(game.state_cache, seat)
    buttons = re.findall(r'<button type="submit"(?: form="move-form")? name="move" value="([^"]*)" class="move">'
                         r'<span class="move-label">([^<]*)</span> <small class="notation">([^<]*)</small>', html)
    assert [b[0] for b in buttons] == [escape(m) for m in legal] or sorted(b[0] for b in buttons) == sorted(escape(m) for m in legal)
    for value, label, notation in buttons:
        assert notation == value
        move = next(m for m in legal if escape(m) == value)
        assert label == escape(presentation.move_label(slug, view, move, names)) != value
    assert html.count('<fieldset class="move-group"><legend>') == len(presentation.move_groups(slug, view, legal, names))
