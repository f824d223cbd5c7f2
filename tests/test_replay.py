"""The replay page (games/<id>/replay/?at=k): the game after move k as the viewer saw it then.

Every frame is checked against the engine: the board on the page is exactly ``render_svg`` of
``engine.view(state after move k, seat)``, the text view likewise, and the log holds no line of a
later move and no private event of another seat. States come from derived snapshots in the
cache; they must equal a plain replay of the log, also after the cache lost them and across undos.
"""
import json
import random
import re

import pytest
from django.core.cache import cache
from django.utils.html import escape

from games import presentation, replay, services
from games.engines.events import visible
from games.models import Game, Move

from .conftest import act, user_of


BOARD = '<section class="board" tabindex="0" role="region" aria-label="The board (scrolls when zoomed)">'


def _dump(state):
    return json.dumps(state, sort_keys=True)


def _play(game, moves, seed=3, undo_every=0):
    chooser = random.Random(seed)
    engine = game.engine_obj
    for i in range(moves):
        game.refresh_from_db()
        if game.status != Game.RUNNING:
            break
        seat = chooser.choice(game.to_act)
        if undo_every and i % undo_every == undo_every - 1 and services.can_undo(game, seat):
            act(game, seat, "undo")
            continue
        act(game, seat, chooser.choice(engine.legal_moves(game.state_cache, seat)))
    game.refresh_from_db()
    return game


def _section(html, start, end="</section>"):
    i = html.index(start)
    return html[i + len(start):html.index(end, i)]


def _check_frame(client, game, k, seat, names):
    engine = game.engine_obj
    if seat is None:
        client.logout()
    else:
        client.force_login(user_of(game, seat))
    html = client.get(f"/games/{game.pk}/replay/?at={k}").content.decode()
    view = engine.view(services.replay(game, k), seat)
    board = _section(html, BOARD)
    unmarked = re.sub(r'<g class="last-moves"[^>]*>.*?</g>', "", board)  # the marks of the frame's last moves
    assert unmarked == presentation.board_svg(game.engine, view, names)
    assert f'<pre class="view-text">{escape(presentation.view_text(game.engine, view, names))}</pre>' in html
    log = _section(html, '<section class="card log" id="replay-log">')
    seqs = [int(s) for s in re.findall(r'<span class="muted">#(\d+)</span>', log)]
    assert all(s <= k for s in seqs), (k, seqs)
    shown = set()
    for move in Move.objects.filter(game=game, seq__lte=k):
        shown.update(ev["text"] for ev in visible(move.events or [], seat))
    # every log line, whole (a private text of another seat may be a prefix of one's own line:
    # "you drew clove" vs "you drew clove, cinnamon")
    lines = set(re.findall(r'<span class="muted">#\d+</span> (.*?)</li>', log))
    assert lines or not seqs, "the log's lines were not found: the check would see nothing"
    for move in Move.objects.filter(game=game, seq__lte=k):
        for ev in move.events or []:
            if ev.get("only") is not None and seat not in ev["only"] and ev["text"] not in shown:
                text = escape(presentation.fill_names(ev["text"], names))
                assert text not in lines, (k, seat, ev)
    return html


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players,moves", [("die-hanse", 3, 45), ("zanzibar", 2, 45), ("hansa", 2, 40)])
def test_every_frame_shows_each_seat_only_its_own_view_then(client, started_game, monkeypatch, slug, players, moves):
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 7)
    game, _ = started_game(slug, players)
    game = _play(game, moves, undo_every=5)
    names = presentation.player_names(game)
    assert game.move_count >= 20
    differs = 0
    for k in range(game.move_count + 1):
        pages = [_check_frame(client, game, k, seat, names) for seat in [*range(players), None]]
        differs += len({_section(p, '<pre class="view-text">', "</pre>") for p in pages}) > 1
    if slug != "hansa":  # hidden hands: what the seats see differs at some point
        assert differs


@pytest.mark.django_db
def test_snapshots_equal_a_plain_replay_in_any_order_and_after_the_cache_lost_them(started_game, monkeypatch):
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 4)
    game, _ = started_game("hansa", 2)
    game = _play(game, 60, seed=11, undo_every=3)
    assert Move.objects.filter(game=game, text="undo").exists()
    plain = {k: _dump(services.replay(game, k)) for k in range(game.move_count + 1)}
    order = list(plain)
    random.Random(5).shuffle(order)
    for i, k in enumerate(order):
        if i % 10 == 0:
            cache.delete_many([replay._key(game, s) for s in range(0, game.move_count + 1, 4)])
        assert _dump(replay.state_at(game, k)) == plain[k], k
    # the snapshots are filed: the last one below the end is in the cache
    last_mark = game.move_count // 4 * 4
    replay.state_at(game, game.move_count)
    assert cache.get(replay._key(game, last_mark)) is not None


@pytest.mark.django_db
def test_steps_and_since_my_last_turn(client, started_game):
    game, _ = started_game("hansa", 2)
    game = _play(game, 12)
    seat = game.seats.get(number=0)
    client.force_login(seat.user)
    html = client.get(f"/games/{game.pk}/replay/?at=5").content.decode()
    assert "After move 5</strong> of 12" in html
    for name, to in [("first", 0), ("back", 4), ("forward", 6), ("last", 12)]:
        assert re.search(rf'class="step {name}" href="\?at={to}"', html), name
    if seat.seen_seq < game.move_count:
        assert f'class="step since" href="?at={seat.seen_seq}"' in html
    # out of range and nonsense go to the ends
    assert "After move 12</strong>" in client.get(f"/games/{game.pk}/replay/?at=999").content.decode()
    assert "The setup</strong>" in client.get(f"/games/{game.pk}/replay/?at=-3").content.decode()
    assert "After move 12</strong>" in client.get(f"/games/{game.pk}/replay/?at=x").content.decode()
    # the game page links to the replay
    assert f'href="/games/{game.pk}/replay/?at=12"' in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_a_finished_game_is_replayable_by_anyone_with_everything_revealed_at_the_end(client, started_game):
    game, _ = started_game("zanzibar", 2)
    game = _play(game, 2000)
    assert game.status == Game.FINISHED and game.result.get("ended_by") != "resignation"
    names = presentation.player_names(game)
    client.logout()
    html = _check_frame(client, game, game.move_count, None, names)
    assert game.engine_obj.view(services.replay(game), None)["revealed"]  # every seat's cards
    assert "everything revealed" in html
    # earlier frames stay as the public saw them then
    early = _check_frame(client, game, game.move_count - 2, None, names)
    assert "everything revealed" not in early
    assert game.engine_obj.view(services.replay(game, game.move_count - 2), None)["revealed"] is None


@pytest.mark.django_db
def test_an_open_game_has_no_replay(client, started_game):
    from .factories import UserFactory

    user = UserFactory()
    game = services.create_game(creator=user, engine="hansa", title="open", players=3)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
