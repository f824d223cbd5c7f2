"""The embedded default as a user starts it (``scripts/serve``: SQLite, gunicorn threads, tasks
in-process, console mail), driven over HTTP: several games played at the same time, no error page,
every accepted move logged; an error page shows nothing of the game's state; the secret key is
generated once and kept private; mail links follow PORT.

The rest of the suite runs on PostgreSQL; this module is the SQLite check."""
import json
import random
import stat
import threading
import time
from collections import Counter

import pytest

from .embedded_server import Browser, forms_of, start_server

pytestmark = pytest.mark.server

# (engine, players, demo accounts) played at the same time; Zanzibar has simultaneous decisions.
TABLES = [
    ("hansa", ["alice@example.com", "bob@example.com"]),
    ("zanzibar", ["carol@example.com", "dave@example.com"]),
    ("zanzibar", ["alice@example.com", "carol@example.com", "dave@example.com"]),
    ("hansa", ["bob@example.com", "dave@example.com"]),
]
MOVES_PER_GAME = 40
TIME_LIMIT = 45  # seconds for the concurrent play


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server, seconds = start_server(tmp_path_factory.mktemp("embedded"))
    server.start_seconds = seconds
    try:
        yield server
    finally:
        server.stop()


def _status(browser, pk) -> dict:
    return browser.get(f"/games/{pk}/status/").json()


def _play(browser: Browser, pk: int, accepted: list, lock: threading.Lock, stop_at: float, seed: int):
    """One player's loop: open the game page; when it offers moves, send a random legal one."""
    rng = random.Random(seed)
    seen = -1
    while time.monotonic() < stop_at:
        with lock:
            if len(accepted) >= MOVES_PER_GAME:
                return
        page = browser.get(f"/games/{pk}/")
        if page.status_code >= 500:
            return
        form = forms_of(page.text).forms.get("move-form")
        if form is None:
            if "Final result" in page.text:
                return
            while time.monotonic() < stop_at:  # wait until something happened in this game
                with lock:
                    if len(accepted) >= MOVES_PER_GAME:
                        return
                status = _status(browser, pk)
                if status["move_count"] != seen or status["status"] != "running":
                    seen = status["move_count"]
                    break
                time.sleep(0.03)
            continue
        moves = [value for name, value, cls in form["buttons"] if name == "move" and "undo" not in cls]
        move = rng.choice(moves)
        reply = browser.post(f"/games/{pk}/move/", {**form["fields"], "move": move})
        if reply.status_code < 500 and 'class="error"' not in reply.text:
            with lock:
                accepted.append((browser.email, move))


def test_games_played_at_the_same_time_on_sqlite(server):
    assert server.start_seconds < 30
    games = []
    for i, (engine, emails) in enumerate(TABLES):
        players = [Browser(server, email).login() for email in emails]
        pk, share = players[0].create_game(engine, len(players), f"Concurrent {i}")
        for other in players[1:]:
            other.join(share)
        assert _status(players[0], pk)["status"] == "running"
        games.append((pk, players))
    server.responses.clear()

    accepted = {pk: [] for pk, _ in games}
    locks = {pk: threading.Lock() for pk, _ in games}
    started = time.monotonic()
    threads = [threading.Thread(target=_play, args=(b, pk, accepted[pk], locks[pk], started + TIME_LIMIT, 17 * pk + j))
               for pk, players in games for j, b in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started

    errors = [r for r in server.responses if r[2] >= 500]
    assert not errors, f"{len(errors)} error responses, e.g. {errors[:5]}\n{server.log()[-4000:]}"
    assert "database is locked" not in server.log()
    slowest = max(r[3] for r in server.responses)
    posts = sum(1 for r in server.responses if r[0] == "POST")
    print(f"\n{len(games)} games, {len(threads)} players at once: {sum(map(len, accepted.values()))} moves accepted, "
          f"{posts} moves sent, {len(server.responses)} requests in {elapsed:.1f} s, slowest {slowest:.2f} s; "
          f"server started in {server.start_seconds:.2f} s")
    with server.db() as db:
        emails = dict(db.execute("SELECT id, email FROM accounts_user"))
        for pk, _ in games:
            assert len(accepted[pk]) >= 10, f"game {pk}: only {len(accepted[pk])} moves in {TIME_LIMIT} s"
            rows = db.execute("SELECT seq, user_id, text FROM games_move WHERE game_id = ? ORDER BY seq", (pk,)).fetchall()
            move_count, = db.execute("SELECT move_count FROM games_game WHERE id = ?", (pk,)).fetchone()
            assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1)) and move_count == len(rows)
            # every accepted move is in the log, and nothing else is
            assert Counter((emails[user], text) for _, user, text in rows) == Counter(accepted[pk])


def test_an_error_page_shows_nothing_of_the_game(server):
    alice, bob = Browser(server, "alice@example.com").login(), Browser(server, "bob@example.com").login()
    pk, share = alice.create_game("hansa", 2, "Broken")
    bob.join(share)
    # a corrupt snapshot makes the game page fail while the state is in the view's variables
    secret_state = {"_rng": [918273645546372819], "_stacks": [["orange/2", "green/3"]], "phase": "action"}
    with server.db(readonly=False) as db:
        db.execute("UPDATE games_game SET state_cache = ? WHERE id = ?", (json.dumps(secret_state), pk))
        seed, = db.execute("SELECT seed FROM games_game WHERE id = ?", (pk,)).fetchone()
    page = alice.get(f"/games/{pk}/")
    assert page.status_code == 500
    leaks = [s for s in ("Traceback", "_rng", "918273645546372819", "orange/2", str(seed), "state_cache", "SECRET_KEY")
             if s in page.text]
    assert not leaks
    assert "Something went wrong" in page.text  # the friendly page (templates/500.html)
    server.responses.clear()


def test_the_embedded_default_is_a_real_server(server):
    anon = Browser(server, "")
    missing = anon.get("/no-such-page/")
    assert missing.status_code == 404 and "Not found" in missing.text and "URLconf" not in missing.text
    assert anon.get("/static/hanseweb.css").status_code == 200  # whitenoise, DEBUG off
    assert anon.get("/static/admin/css/base.css").status_code == 200
    login = anon.get("/accounts/login/")
    assert "Secure" not in login.headers.get("Set-Cookie", "")  # plain http on 127.0.0.1
    # the secret key: generated once, kept private
    key_file = server.tmp / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(key_file.read_text().strip()) >= 50
    # mails (printed on the console) link to the port the server listens on
    log = server.log()
    assert f"http://127.0.0.1:{server.port}/games/" in log and "127.0.0.1:8000" not in log
    server.responses.clear()
