"""Verifiable fairness (issue 13, docs/fairness.md): the commitment shown from the start, the
seed revealed at the end, the game downloaded through /games/<id>/export.json and re-verified from
scratch by ``manage.py verify_game`` and by the standalone ``scripts/verify_game.py`` (no Django),
tampered files rejected, and a running game's export holding only what its viewer may know."""
import copy
import hashlib
import importlib
import json
import os
import random
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.utils import timezone

from games import history, presentation, services
from games.engines import available_slugs, get_engine
from games.engines.fairness import commitment, seat_permutation, verify
from games.export import readable_by
from games.models import Game, Move

from .conftest import act, committed, user_of
from .test_full_games import _short_random_game

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "verify_game.py"


def _players(slug):
    return get_engine(slug).min_players


def _finish(started_game, slug, *, undo_every=7):
    """A finished game of ``slug`` played through the write path: web and email moves, and now
    and then a step taken back and made again (undo rows in the log)."""
    engine = get_engine(slug)
    players = _players(slug)
    seed, moves = _short_random_game(engine, players, seeds=12)
    game, users = started_game(slug, players, seed=seed)
    if len(moves) > 1000:
        return _logged(game, moves), users
    with committed():
        for i, (seat, move) in enumerate(moves):
            channel = Move.EMAIL if i % 3 == 1 else Move.WEB
            user = user_of(game, seat)
            services.submit_move(game.pk, user, move, expected_seq=game.move_count, channel=channel)
            game.refresh_from_db()
            if undo_every and i % undo_every == 0 and services.can_undo(game, seat):
                services.submit_move(game.pk, user, "undo", expected_seq=game.move_count, channel=channel)
                services.submit_move(game.pk, user, move, channel=channel)
                game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game, users


def _logged(game, moves):
    """The game finished by logging ``moves`` as the write path would (rows with their events,
    then the derived columns): a Hansa Teutonica game is some 3,000 moves, which through the
    write path take minutes on a loaded machine and test nothing more here (the write path is
    played through whole games in tests/test_full_games.py)."""
    engine = game.engine_obj
    state = services.current_state(game)
    rows = []
    for i, (seat, move) in enumerate(moves, start=1):
        state = engine.apply(state, seat, move)
        rows.append(Move(game=game, seq=i, seat=seat, user=user_of(game, seat), text=move,
                         channel=Move.EMAIL if i % 3 == 1 else Move.WEB, events=engine.events(state)))
    Move.objects.bulk_create(rows)
    result = engine.result(state)
    assert result is not None
    Game.objects.filter(pk=game.pk).update(
        move_count=len(moves), state_cache=state, state_seq=len(moves), to_act=[], status=Game.FINISHED,
        finished_at=timezone.now(), result=result, last_move_at=timezone.now())
    game.refresh_from_db()
    assert json.dumps(services.replay(game), sort_keys=True) == json.dumps(state, sort_keys=True)
    return game


def _download(client, game, user=None):
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


def _script(path):
    """The standalone checker in a fresh interpreter that cannot import Django."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "PYTHONPATH"))}
    guard = ("import sys, runpy; sys.modules['django'] = None; sys.argv = sys.argv[1:]; "
             "runpy.run_path(sys.argv[0], run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", guard, str(SCRIPT), str(path)], capture_output=True,
                          text=True, env=env, cwd="/", timeout=600)
    return done.returncode, done.stdout + done.stderr


def _command(capsys, path):
    try:
        call_command("verify_game", str(path))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out + err


# --- the kinds of tampering, each with what the report must say ------------------------------

def _change_move(data):
    """A move replaced by another move that was legal at that point: the game diverges."""
    engine = get_engine(data["engine"])
    state = engine.setup(players=data["players"], seed=int(data["seed"]),
                         options={**data["options"], "seats": data["seat_options"]})
    undo_rows = {m["seq"] - 1 for m in data["moves"] if m["text"] == "undo"}
    history_states = []
    for m in data["moves"]:
        if m["text"] == "undo":
            state = history_states.pop()
            continue
        history_states.append(state)
        legal = engine.legal_moves(state, m["seat"])
        others = [x for x in legal if x != m["text"]]
        if m["seq"] > 3 and others and m["seq"] not in undo_rows and m["channel"] in ("web", "email"):
            m["text"] = others[-1]
            return data
        state = engine.apply(state, m["seat"], m["text"])
    raise AssertionError("no move with an alternative")


def _change_seed(data):
    data["seed"] = str(int(data["seed"]) + 1)
    return data


def _change_seed_and_commitment(data):
    # a forger who also recomputes the commitment: the file agrees with itself, the game does not
    data["seed"] = str(int(data["seed"]) + 1)
    data["commitment"] = commitment(int(data["seed"]), data["salt"])
    return data


def _change_salt(data):
    data["salt"] = "0" * 64
    return data


def _change_score(data):
    data["result"]["scores"][0] += 1
    return data


def _change_ranking(data):
    data["result"]["ranking"] = list(reversed(data["result"]["ranking"]))
    if data["result"]["ranking"] == list(reversed(data["result"]["ranking"])):
        data["result"]["ranking"] = [r + 1 for r in data["result"]["ranking"]]
    return data


def _reorder_moves(data):
    data["moves"][5], data["moves"][6] = data["moves"][6], data["moves"][5]
    return data


def _reorder_and_renumber(data):
    moves = data["moves"]
    a, b = next((i, i + 1) for i in range(3, len(moves) - 1) if moves[i]["seat"] != moves[i + 1]["seat"]
                or moves[i]["text"] != moves[i + 1]["text"])
    moves[a], moves[b] = moves[b], moves[a]
    moves[a]["seq"], moves[b]["seq"] = a + 1, b + 1
    return data


def _drop_last_move(data):
    data["moves"].pop()
    return data


def _change_commitment(data):
    data["commitment"] = hashlib.sha256(b"something else").hexdigest()
    return data


def _change_seat_order(data):
    # claims a random seat order, but not the one the seed draws
    drawn = seat_permutation(int(data["seed"]), data["players"])
    for seat, joined in zip(data["seats"], drawn[1:] + drawn[:1]):
        seat["joined"] = joined
    data["seat_order"]["mode"] = "random"
    return data


TAMPERING = [
    (_change_move, ("move ", "result")),
    (_change_seed, ("commitment mismatch",)),
    (_change_seed_and_commitment, ("move ", "result", "seat order")),
    (_change_salt, ("commitment mismatch",)),
    (_change_score, ("result scores",)),
    (_change_ranking, ("result ranking",)),
    (_reorder_moves, ("not numbered 1, 2, 3",)),
    (_reorder_and_renumber, ("reordered", "illegal", "not that seat's turn", "result")),
    (_drop_last_move, ("not over", "result")),
    (_change_commitment, ("commitment mismatch",)),
    (_change_seat_order, ("seat order",)),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", available_slugs())
def test_a_finished_game_downloaded_is_verified_from_scratch_and_tampering_is_rejected(
        slug, started_game, client, capsys, tmp_path):
    game, users = _finish(started_game, slug)
    channels = set(game.moves.values_list("channel", flat=True))
    assert {"web", "email"} <= channels
    data = _download(client, game, users[1])
    # the same document for every viewer once the game is over, the spectator included
    assert _download(client, game) == data
    assert data["status"] == "finished" and data["verifiable"] is True
    assert data["seed"] == str(game.seed) and data["salt"] == game.salt
    assert data["commitment"] == game.commitment == hashlib.sha256(
        f"hanseweb-seed:v1:{game.seed}:{game.salt}".encode()).hexdigest()  # the documented bytes
    assert data["engine"] == slug and data["engine_version"] == get_engine(slug).version != ""
    assert [s["name"] for s in data["seats"]] == presentation.player_names(game)
    assert [m["seq"] for m in data["moves"]] == list(range(1, game.move_count + 1))
    assert all(m["text"] and m["time"] and m["channel"] for m in data["moves"])
    assert data["result"] == game.result
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))

    code, out = _command(capsys, path)
    assert code == 0, out
    assert out.startswith("VERIFIED") and f"{game.move_count} moves replayed" in out
    code, out = _script(path)
    assert code == 0, out
    assert out.startswith("VERIFIED") and f"{game.move_count} moves replayed" in out

    for tamper, says in TAMPERING:
        report = verify(tamper(copy.deepcopy(data)))
        assert not report.ok, tamper.__name__
        assert any(s in f for f in report.failures for s in says), (tamper.__name__, report.failures)
    # both checkers reject a tampered file with a non-zero status and say what failed
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_change_score(copy.deepcopy(data))))
    code, out = _script(bad)
    assert code == 1 and out.startswith("REJECTED") and "result scores" in out, out
    bad.write_text(json.dumps(_change_move(copy.deepcopy(data))))
    code, out = _command(capsys, bad)
    assert code == 1 and "REJECTED" in out, out


@pytest.mark.django_db
def test_timeouts_autopilot_and_resignation_are_verified(started_game, client, tmp_path):
    game, users = started_game("zanzibar", 3, deadline=1)
    chooser = random.Random(5)
    assert services.time_out(game.pk, now=timezone.now() + timedelta(hours=2)) > 0  # the set-aside window
    with committed():  # the resigned seat's autopilot is the bots' task, queued at the commit
        services.resign(game.pk, users[2])
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.FINISHED:
            break
        seat = chooser.choice(game.to_act)
        act(game, seat, chooser.choice(game.engine_obj.legal_moves(game.state_cache, seat)))
    assert game.status == Game.FINISHED and game.result["resigned"] == [2]
    assert {"timeout", "autopilot", "web"} <= set(game.moves.values_list("channel", flat=True))
    data = _download(client, game)
    report = verify(data)
    assert report.ok, report.text()
    # the resigned seat ranked last is part of what is checked
    data["seats"][2]["resigned"] = False
    assert any("autopilot moves only for a resigned seat" in f for f in verify(data).failures)


@pytest.mark.django_db
def test_a_game_ended_by_resignation_is_verified(started_game, client):
    game, users = started_game("hansa", 2)
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    services.resign(game.pk, users[0])
    game.refresh_from_db()
    data = _download(client, game)
    assert data["result"]["ended_by"] == "resignation"
    report = verify(data)
    assert report.ok, report.text()
    data["result"]["ranking"] = [1, 1]
    assert not verify(data).ok


@pytest.mark.django_db
def test_random_seat_order_is_drawn_from_the_seed_and_checked(make_user, client):
    users = make_user.create_batch(4)
    with committed():
        game = services.create_game(creator=users[0], engine="hansa", title="t", players=4,
                                    seat_order=Game.SEAT_ORDER_RANDOM)
        for u in users[1:]:
            services.join_game(game.pk, u)
    game.refresh_from_db()
    joined = [users.index(s.user) for s in game.seats.order_by("number")]
    resigners = [u for u in users if u != user_of(game, 0)]
    for u in resigners:
        services.resign(game.pk, u)
    game.refresh_from_db()
    data = _download(client, game)
    assert data["seat_order"]["mode"] == "random" and [s["joined"] for s in data["seats"]] == joined
    report = verify(data)
    assert report.ok and "seat order drawn from the seed" in report.text()


# --- a running game: no seed, no salt, nothing hidden -------------------------------------------

def _random_moves(game, count, seed=3, stop=None):
    chooser = random.Random(seed)
    for _ in range(count):
        game.refresh_from_db()
        if game.status != Game.RUNNING or (stop and stop(game)):
            break
        seat = chooser.choice(game.to_act)
        act(game, seat, chooser.choice(game.engine_obj.legal_moves(game.state_cache, seat)))
    game.refresh_from_db()
    return game


# Sealed decisions, written out here from the rules (ZAN-7.2 set-aside answers; HANSE-5.5 reaction
# answers, the value kept from a private draw), independently of the engines' own list.
SEALED = {"zanzibar": ("keep", "set aside .+"), "die-hanse": ("pass", "declare .+", r"keep \d+")}
RUNNING = [("zanzibar", 3, 45), ("die-hanse", 3, 400), ("hansa-teutonica", 2, 400), ("hansa", 2, 60)]


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players,moves", RUNNING)
def test_a_running_game_export_gives_each_seat_only_what_it_may_know(slug, players, moves, started_game, client,
                                                                    tmp_path, capsys):  # ZAN-7.2 HANSE-5.5
    seat_options = {i: {"offer_special_cards": True} for i in range(players)} if slug == "die-hanse" else None
    game, users = started_game(slug, players, seat_options=seat_options)
    game = _random_moves(game, moves)
    assert game.status == Game.RUNNING
    rows = list(game.moves.order_by("seq"))
    names = presentation.player_names(game)
    hidden_somewhere = False
    for viewer in [None, *range(players)]:
        data = _download(client, game, None if viewer is None else user_of(game, viewer))
        raw = json.dumps(data)
        assert "seed" not in data and "salt" not in data and data["result"] is None
        assert str(game.seed) not in raw and game.salt not in raw
        assert data["commitment"] == game.commitment and data["verifiable"] is False
        assert data["viewer"]["seat"] == viewer
        assert data["seat_options"] == [s.options if s.number == viewer else None
                                        for s in game.seats.order_by("number")]
        assert len(data["moves"]) == len(rows)
        # this viewer's log, as the page shows it
        log = history.recent(game, viewer, names, limit=10 ** 6).lines
        for row, move in zip(rows, data["moves"]):
            assert (move["seq"], move["seat"], move["channel"]) == (row.seq, row.seat, row.channel)
            lines = [line["text"] for line in log if line["seq"] == row.seq]
            if row.seat == viewer:
                assert move["text"] == row.text  # one's own moves, always
                continue
            if move["text"] is None:
                assert move["hidden"] is True
                hidden_somewhere = True
            else:
                # another seat's move shown: not a sealed decision, and this viewer's log has a
                # public line for it (what the page shows of it)
                assert not any(re.fullmatch(p, row.text) for p in SEALED.get(slug, ())), row.text
                if row.events:  # (steps that build a move log nothing: the board shows them)
                    assert any(readable_by(ev, viewer) for ev in row.events) and lines
            # what an event told only other seats is in no line of this viewer's log, nor the export
            readable = {presentation.fill_names(ev["text"], names) for ev in row.events or [] if readable_by(ev, viewer)}
            for ev in row.events or []:
                if not readable_by(ev, viewer):
                    secret = presentation.fill_names(ev["text"], names)
                    assert secret in readable or secret not in lines  # (the same words may be one's own)
                    assert secret not in raw
    if slug in ("zanzibar", "die-hanse"):
        assert hidden_somewhere, "the scenario must reach a private decision"
    # a running game's export cannot be verified, and both checkers say so
    path = tmp_path / "running.json"
    path.write_text(json.dumps(data))
    code, out = _command(capsys, path)
    assert code == 2 and "CANNOT VERIFY" in out and "still running" in out
    code, out = _script(path)
    assert code == 2 and "still running" in out


@pytest.mark.django_db
def test_zanzibar_set_aside_card_is_secret_to_the_other_seats_until_the_end(started_game, client):  # ZAN-7.2
    game, users = started_game("zanzibar", 3)
    game = _random_moves(game, 200, stop=lambda g: len(g.to_act) >= 2)  # the set-aside window (ZAN-7.2)
    assert 1 in game.to_act and len(game.to_act) == 3
    hand = game.state_cache["_hand"][1]
    act(game, 1, f"set aside {hand[0]}")
    game.refresh_from_db()
    assert game.status == Game.RUNNING and game.to_act != [1]
    own = _download(client, game, user_of(game, 1))
    assert own["moves"][-1]["text"] == f"set aside {hand[0]}"
    for viewer in [None, 0, 2]:
        data = _download(client, game, None if viewer is None else user_of(game, viewer))
        assert data["moves"][-1] == {**own["moves"][-1], "text": None, "hidden": True}
        assert f"set aside {hand[0]}" not in json.dumps(data)


@pytest.mark.django_db
def test_an_undone_step_is_not_in_another_seats_export(started_game, client):
    game, users = started_game("hansa", 2)
    for _ in range(30):
        game.refresh_from_db()
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        game.refresh_from_db()
        if services.can_undo(game, seat):
            break
    text = game.moves.order_by("-seq").first().text
    act(game, seat, "undo")
    mine = _download(client, game, user_of(game, seat))["moves"]
    theirs = _download(client, game, user_of(game, 1 - seat))["moves"]
    assert mine[-2]["text"] == text and mine[-1]["text"] == "undo"
    assert theirs[-2]["text"] is None and theirs[-2]["hidden"] and theirs[-1]["text"] == "undo"


# --- the page -------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_page_shows_the_commitment_while_running_and_reveals_seed_and_salt_at_the_end(
        started_game, client, settings):
    settings.HANSEWEB_PAGE_CACHE_SECONDS = 3600  # the body is cached per version: the reveal must still come
    game, users = started_game("hansa", 2)
    for user in [None, users[0], users[1]]:
        client.logout()
        if user:
            client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert game.commitment in page
        assert game.salt not in page and f">{game.seed}<" not in page and "Seed:" not in page
    # the creator resigns: the game is over (status changes, the move count does not)
    services.resign(game.pk, users[0])
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    for user in [None, users[0], users[1]]:
        client.logout()
        if user:
            client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert game.commitment in page and game.salt in page and f">{game.seed}<" in page
        assert f"/games/{game.pk}/export.json" in page


@pytest.mark.django_db
def test_the_commitment_is_made_at_creation_and_never_changes(started_game, make_user):
    user = make_user()
    game = services.create_game(creator=user, engine="hansa", title="t", players=2)
    assert len(game.salt) == 64 and game.commitment == commitment(game.seed, game.salt)
    assert not game.commitment_late
    first = game.commitment
    other = make_user()
    with committed():
        services.join_game(game.pk, other)
    game.refresh_from_db()
    assert game.status == Game.RUNNING and game.commitment == first
    act(game, game.to_act[0], game.engine_obj.legal_moves(game.state_cache, game.to_act[0])[0])
    game.refresh_from_db()
    assert game.commitment == first and game.commitment_holds()
    # two games never share a salt
    assert services.create_game(creator=user, engine="hansa", title="u", players=2).salt != game.salt


@pytest.mark.django_db
def test_the_migration_commits_existing_games_after_the_fact(started_game):
    game, _ = started_game("hansa", 2)
    Game.objects.filter(pk=game.pk).update(salt="", commitment="")
    migration = importlib.import_module("games.migrations.0013_seed_commitment")
    migration.commit_existing(django_apps, None)
    game.refresh_from_db()
    assert len(game.salt) == 64 and game.commitment_late and game.commitment == commitment(game.seed, game.salt)


@pytest.mark.django_db
def test_export_of_a_game_not_started_is_not_found_and_the_download_is_throttled(started_game, client, settings,
                                                                                   make_user):
    open_game = services.create_game(creator=make_user(), engine="hansa", title="t", players=2)
    assert client.get(f"/games/{open_game.pk}/export.json").status_code == 404
    assert client.get("/games/999999/export.json").status_code == 404
    game, _ = started_game("hansa", 2)
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "game_export_per_ip": "3/m"}
    codes = [client.get(f"/games/{game.pk}/export.json").status_code for _ in range(5)]
    assert codes[:2] == [200, 200] and codes[-1] == 429


def test_the_checker_needs_no_django_and_rejects_what_is_not_an_export(tmp_path):
    for content, says in [("not json", "cannot read"), ("[]", "not a Hanseweb game export"),
                          ('{"format": "hanseweb-game", "format_version": 99}', "unknown format version")]:
        path = tmp_path / "x.json"
        path.write_text(content)
        code, out = _script(path)
        assert code in (1, 2) and says in out, out
