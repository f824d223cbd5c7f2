"""Issue 10's held-out check, played end to end on PostgreSQL with a real Celery worker process.

12 players, 3 divisions of 4, 3-player Hansa tables (so tables cannot simply be the division),
4 rounds, every game played to the end by scripted legal moves through the games' write path
(the first move of every game through the game page's form), one player dropping out after
round 2. Everything the organiser and the players do goes through the pages and the mails they
get: the club, the league and the season are made with the pages' forms, players are invited by
mail and join through the link in it, sign up on the season page, the organiser seeds, starts,
pauses/resumes and drops a player with the organiser tools; players find their games through
the new-table mails. The beat's tasks (round starts, season completion, ratings) run in a real
worker process, started as in tests/test_celery_worker.py, sent to it as the beat sends them;
the mails it queues are delivered by the outbox's send task here, into the anymail test outbox.

Measured and asserted: tables never the whole division, byes (one per round in a division of 4)
rotated so that every player sits out exactly once, seat positions and pair meetings (each seat
once, each pair twice; the dropout's division within 1), nobody without a table when one could
be formed, standings and tie-breaks recomputed here independently from the games' results (the
standings CSV and the season page), ratings moving in the direction of results (and shown,
provisional, on the players' profiles), the dropout in the standings, promotion and relegation in
the next season created in one step, the game page linking to its season, and the iCalendar
feeds valid (parsed with icalendar) and private (a wrong secret is 404)."""
import contextlib
import csv
import io
import itertools
import os
import random
import re
import time
import uuid
import warnings
from collections import Counter, defaultdict
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from celery.exceptions import AlwaysEagerIgnored
from django.core import mail
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game
from hanseweb import celery_app
from hanseweb.leagues.models import Club, Entry, League, RatedGame, RatingChange, Round, Season, Table
from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.tasks import send_email

from ..celery_process import celery_worker
from ..factories import UserFactory

pytestmark = [
    pytest.mark.worker,
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker (REDIS_URL)"),
]

START_ROUNDS = "hanseweb.leagues.tasks.start_due_rounds"
RATE = "hanseweb.leagues.tasks.rate_finished_games"


@pytest.fixture
def beat_worker(tmp_path, transactional_db):
    """A real worker process consuming its own queue, to which the test sends the beat's tasks.
    What the worker's tasks enqueue (the mails) goes to another queue nobody consumes here: the
    test delivers the outbox itself (``deliver``), so the mails land in the anymail test outbox."""
    beat_queue, mail_queue = f"beat-{uuid.uuid4().hex[:8]}", f"mail-{uuid.uuid4().hex[:8]}"
    stack = contextlib.ExitStack()
    stack.enter_context(celery_worker(tmp_path, consume=beat_queue, default_queue=mail_queue))

    def run(task: str, done, what: str, timeout: float = 120):
        """Send ``task`` to the worker as the beat does, and wait until ``done()`` holds."""
        with warnings.catch_warnings():  # the test process runs its own tasks eagerly; this one goes out
            warnings.simplefilter("ignore", AlwaysEagerIgnored)
            celery_app.send_task(task, queue=beat_queue)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if done():
                return
            time.sleep(0.3)
        raise AssertionError(f"the worker did not {what} in {timeout} s:\n"
                             + (tmp_path / "worker.log").read_text()[-3000:])

    try:
        yield run
    finally:
        stack.close()
        with celery_app.connection_for_write() as conn:
            for queue in (beat_queue, mail_queue):
                try:
                    conn.default_channel.queue_delete(queue)
                except Exception:  # noqa: BLE001 - cleanup only
                    pass


def deliver() -> None:
    """The outbox's send task for every mail not yet sent (what the mail worker does)."""
    for pk in OutboundEmail.objects.filter(sent_at__isnull=True).values_list("pk", flat=True):
        assert send_email(pk) in ("sent", "skipped")


def mails_to(user, subject_part: str):
    return [m for m in mail.outbox if m.to == [user.email] and subject_part in m.subject]


def path_of(url: str) -> str:
    return urlparse(url).path


def links(text: str) -> list[str]:
    return re.findall(r"https?://\S+", text)


def page(client, user, url, status=200) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def post(client, user, url, data=None) -> None:
    client.force_login(user)
    response = client.post(url, data or {})
    assert response.status_code == 302, (url, response.status_code, response.content[:500])
    # the outcome is shown as a message on the next page: no error allowed
    follow = client.get(response.url)
    errors = [str(m) for m in follow.context["messages"] if m.level_tag == "error"] if follow.context else []
    assert not errors, (url, errors)


def play_game(client, game_id: int, rng: random.Random) -> int:
    """Scripted legal moves until the game ends: the first through the game page's form, the
    rest through the games' write path (games.services.submit_move). Returns the moves made."""
    made = 0
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.RUNNING:
            return made
        seat = game.to_act[0]
        if game.seats.get(number=seat).resigned:
            # the autopilot decides in the bots' task (docs/bots.md), run here as its worker would
            from games.tasks import play_bots

            play_bots(game_id)
            continue
        user = game.seats.get(number=seat).user
        move = rng.choice(game.engine_obj.legal_moves(games.current_state(game), seat))
        if made == 0:
            client.force_login(user)
            assert client.post(reverse("submit_move", args=[game_id]), {"move": move, "seq": game.move_count}).status_code == 302
            # taken (the autopilot of a resigned seat may move right after it)
            assert Game.objects.get(pk=game_id).move_count > game.move_count
        else:
            games.submit_move(game_id, user, move, expected_seq=game.move_count)
        made += 1
    raise AssertionError("the game did not end")


# --- the standings, recomputed here from the documented rules (docs/leagues.md "Standings") ---

def expected_standings(players: list[int], finished: list[Game], names: dict) -> list[dict]:
    def points_at(n):
        return [n] + list(range(n - 2, -1, -1)) if n > 1 else [0]

    rows = {p: {"player": p, "games": 0, "points": 0.0, "score": 0.0, "h2h": 0, "sb": 0.0} for p in players}
    places = []  # per game: {player: place}
    for game in finished:
        ranking = game.result["ranking"]
        scores = game.result.get("scores") or [0] * len(ranking)
        seats = {s.number: s.user_id for s in game.seats.all()}
        table = points_at(len(ranking))
        placed = {}
        for number, uid in seats.items():
            place = ranking[number]
            tied = ranking.count(place)
            rows[uid]["points"] += sum(table[place - 1:place - 1 + tied]) / tied
            rows[uid]["score"] += scores[number] or 0
            rows[uid]["games"] += 1
            placed[uid] = place
        places.append(placed)
    for placed in places:
        for p, q in itertools.permutations(placed, 2):
            if placed[p] < placed[q]:
                rows[p]["sb"] += rows[q]["points"]
            elif placed[p] == placed[q]:
                rows[p]["sb"] += rows[q]["points"] / 2
    level = defaultdict(list)
    for p, row in rows.items():
        level[(row["points"], row["score"])].append(p)
    for group in level.values():
        for placed in places:
            for p, q in itertools.permutations([p for p in group if p in placed], 2):
                rows[p]["h2h"] += (placed[p] < placed[q]) - (placed[p] > placed[q])
    return sorted(rows.values(), key=lambda r: (-r["points"], -r["score"], -r["h2h"], -r["sb"], names[r["player"]]))


def test_a_season_end_to_end_through_pages_mails_and_a_real_worker(client, beat_worker):
    assert connection.vendor == "postgresql"
    rng = random.Random(10)
    organiser = UserFactory(display_name="Olga Organiser")
    players = [UserFactory(display_name=f"Player {name}") for name in
               ["Anna", "Bert", "Carl", "Dora", "Emil", "Frieda", "Gustav", "Hanna", "Ida", "Jan", "Karl", "Lene"]]
    names = {u.pk: u.display_name for u in players}

    # --- the organiser sets up the club, the league and the season with the pages -------------
    post(client, organiser, reverse("leagues:create_club"), {"name": "Lübeck Hansa Club", "default_deadline_hours": 48})
    club = Club.objects.get()
    for player in players:  # invitations by mail, joined through the mailed link
        post(client, organiser, reverse("leagues:invite", args=[club.slug]), {"email": player.email})
    deliver()
    for player in players:
        (invitation,) = [m for m in mail.outbox if m.to == [player.email]]
        join = next(path_of(url) for url in links(invitation.body) if "/clubs/join/" in url)
        assert "Join" in page(client, player, join)
        post(client, player, join)
    assert club.memberships.count() == 13
    post(client, organiser, reverse("leagues:create_league", args=[club.slug]), {
        "name": "Winter Hansa", "engine": "hansa", "table_size": 3, "format": "round-robin",
        "options": "{}", "rated": "on"})
    league = League.objects.get()
    assert league.table_size == 3 and not league.exact_size
    starts = timezone.now() + timedelta(hours=1)
    post(client, organiser, reverse("leagues:create_season", args=[league.pk]), {
        "starts_at": starts.strftime("%Y-%m-%d %H:%M"), "rounds": 4, "round_days": 7, "deadline_hours": 48,
        "promote": 1, "relegate": 1})
    season = Season.objects.get()
    assert season.status == Season.SIGNUP

    # --- 12 players sign up on the season page; the organiser seeds 3 divisions and starts -----
    for player in players:
        assert "Sign up" in page(client, player, season.get_absolute_url())
        post(client, player, reverse("leagues:sign_up", args=[season.pk]))
    assert season.entries.count() == 12
    post(client, organiser, reverse("leagues:organise", args=[season.pk, "seed"]), {"divisions": 3})
    post(client, organiser, reverse("leagues:organise", args=[season.pk, "start"]))
    season.refresh_from_db()
    assert season.status == Season.RUNNING
    divisions = list(season.divisions.order_by("level"))
    members = {d.pk: sorted(d.entries.values_list("user_id", flat=True)) for d in divisions}
    assert [len(m) for m in members.values()] == [4, 4, 4]

    # pause and resume with the tools (the schedule moves on by the pause): logged, visible
    post(client, organiser, reverse("leagues:organise", args=[season.pk, "pause"]))
    post(client, organiser, reverse("leagues:organise", args=[season.pk, "resume"]))
    log_page = page(client, players[0], season.get_absolute_url())
    for action in ("seed divisions", "start season", "pause season", "resume season"):
        assert action in log_page

    # the feeds: links from the club and league pages, valid iCalendar, private
    from icalendar import Calendar

    club_page = page(client, players[0], club.get_absolute_url())
    calendar_url = path_of(re.search(r'href="([^"]+\.ics)"', club_page).group(1))
    cal = Calendar.from_ical(client.get(calendar_url).content)
    round_starts = [e for e in cal.walk("VEVENT") if "round" in str(e["summary"]).lower()]
    assert len(round_starts) == 4
    league_page = page(client, players[0], league.get_absolute_url())
    league_calendar = path_of(re.search(r'href="([^"]+\.ics)"', league_page).group(1))
    assert len(Calendar.from_ical(client.get(league_calendar).content).walk("VEVENT")) == 4
    client.logout()
    assert client.get(calendar_url).status_code == 200  # a calendar program has no login: the secret is the key
    wrong = re.sub(r"/([0-9a-f]{8})([0-9a-f]+)\.ics$", lambda m: "/" + "0" * 8 + m.group(2) + ".ics", calendar_url)
    assert wrong != calendar_url and client.get(wrong).status_code == 404
    other = calendar_url.replace(f"/player/{players[0].pk}/", f"/player/{players[1].pk}/")
    assert client.get(other).status_code == 404  # another player's calendar with my secret
    assert client.get(league_calendar.replace(".ics", "x.ics")).status_code == 404

    quitter = None
    seats = defaultdict(Counter)  # player -> seat position -> times
    meetings = Counter()  # frozenset pair -> times at one table
    byes = Counter()
    for number in range(1, 5):
        # --- the round is due: the beat (in the worker) creates its games and mails --------
        Round.objects.filter(season=season, number=number).update(starts_at=timezone.now() - timedelta(seconds=1))
        before = len(mail.outbox)
        beat_worker(START_ROUNDS, lambda: Round.objects.get(season=season, number=number).created_at is not None,
                    f"start round {number}")
        beat_worker(START_ROUNDS, lambda: True, "run again")  # twice: nothing twice
        time.sleep(1)
        deliver()
        tables = list(Table.objects.filter(round__season=season, round__number=number).select_related("game"))
        assert len(tables) == 3  # one table per division, created once
        active = set(Entry.objects.filter(season=season, status=Entry.ACTIVE).values_list("user_id", flat=True))
        new_mails = mail.outbox[before:]
        for table in tables:
            order = table.seat_order
            division_active = [p for p in members[table.division_id] if p in active]
            # never the whole division of 4 at one table; nobody without a table when one
            # could be formed at the league's size
            assert len(order) == 3 == min(len(division_active), 3)
            sat_out = set(division_active) - set(order)
            assert len(sat_out) == len(division_active) - 3
            byes.update(sat_out)
            for uid in sat_out:  # the player who sits out hears of it too
                player = next(u for u in players if u.pk == uid)
                (bye,) = [m for m in new_mails if m.to == [player.email]]
                assert "you sit out this round" in bye.subject and season.get_absolute_url() in bye.body
            game = table.game
            assert game.status == Game.RUNNING and [s.user_id for s in game.seats.order_by("number")] == order
            for position, uid in enumerate(order):
                seats[uid][position] += 1
            meetings.update(frozenset(pair) for pair in itertools.combinations(order, 2))
            # every player of the table gets the mail with the link to their game
            for position, uid in enumerate(order):
                player = next(u for u in players if u.pk == uid)
                (started,) = [m for m in new_mails if m.to == [player.email] and "your game has started" in m.subject]
                assert f"You play in seat {position + 1}" in started.body
                assert path_of(next(u for u in links(started.body) if "/games/" in u)) == game.get_absolute_url()
            # the game page links to its season and division
            game_page = page(client, next(u for u in players if u.pk == order[0]), game.get_absolute_url())
            assert "League game:" in game_page and f'href="{season.get_absolute_url()}#division-' in game_page
        # the player's calendar shows the deadline of a pending decision
        first = tables[0].game
        to_act = first.seats.get(number=first.to_act[0]).user
        client.force_login(to_act)
        own_calendar = path_of(re.search(r'href="([^"]+\.ics)"', page(client, to_act, club.get_absolute_url())).group(1))
        cal = Calendar.from_ical(client.get(own_calendar).content)
        assert any(str(e["uid"]).startswith(f"deadline-{first.pk}-") for e in cal.walk("VEVENT"))

        if number == 2:
            # the player to drop out: one seated in round 2, so that a running game goes on
            quitter_id = next(uid for uid in tables[1].seat_order)
            quitter = next(u for u in players if u.pk == quitter_id)
            running = tables[1].game
            for _ in range(6):  # a few moves, then the drop-out
                running.refresh_from_db()
                seat = running.to_act[0]
                games.submit_move(running.pk, running.seats.get(number=seat).user,
                                  rng.choice(running.engine_obj.legal_moves(games.current_state(running), seat)),
                                  expected_seq=running.move_count)
            post(client, organiser, reverse("leagues:organise", args=[season.pk, "drop"]), {"player": quitter.pk, "confirm": "yes"})
            running.refresh_from_db()
            assert running.status == Game.RUNNING and running.seats.get(user=quitter).resigned  # the autopilot plays on
        for table in tables:
            play_game(client, table.game_id, rng)
            table.game.refresh_from_db()
            assert table.game.status == Game.FINISHED
        deliver()

    # --- fairness over the season, measured on the games really created ---------------------
    dropped_division = Entry.objects.get(season=season, user=quitter).division_id
    for division in divisions:
        if division.pk == dropped_division:
            rest = [p for p in members[division.pk] if p != quitter.pk]
            pair_counts = [meetings[frozenset(pair)] for pair in itertools.combinations(rest, 2)]
            assert max(pair_counts) - min(pair_counts) <= 1
            for p in rest:
                assert max(seats[p][i] for i in range(3)) - min(seats[p][i] for i in range(3)) <= 1
                assert byes[p] <= 1
            continue
        for p in members[division.pk]:
            assert [seats[p][i] for i in range(3)] == [1, 1, 1]  # each seat position exactly once
            assert byes[p] == 1  # sat out exactly once
        assert {meetings[frozenset(pair)] for pair in itertools.combinations(members[division.pk], 2)} == {2}

    # --- the beat finishes the season and rates the games (in the worker) ------------------
    beat_worker(START_ROUNDS, lambda: Season.objects.get(pk=season.pk).status == Season.FINISHED, "finish the season")
    finished = list(Game.objects.filter(league_table__round__season=season).prefetch_related("seats"))
    assert len(finished) == 12 and all(g.status == Game.FINISHED for g in finished)
    beat_worker(RATE, lambda: RatedGame.objects.filter(game__in=finished).count() == 12, "rate the games")
    for game in finished:
        changes = list(RatingChange.objects.filter(game=game))
        assert len(changes) == 3
        best, worst = min(c.place for c in changes), max(c.place for c in changes)
        if best == worst:
            continue
        assert all(c.mu_after > c.mu_before for c in changes if c.place == best)
        assert all(c.mu_after < c.mu_before for c in changes if c.place == worst)
    profile = page(client, players[0], reverse("profile"))
    assert "Ratings" in profile and "Hansa" in profile and "provisional" in profile  # 3 games < 5
    # a clubmate's league profile, linked from the standings: rating, provisional, history
    other = players[1]
    assert reverse("players:player", args=[other.pk]) in page(client, players[0], season.get_absolute_url())
    theirs = page(client, players[0], reverse("players:player", args=[other.pk]))
    history = RatingChange.objects.filter(rating__user=other)
    assert "provisional" in theirs and history.count() >= 2
    for change in history:
        assert change.game.get_absolute_url() in theirs  # this club's games are linked

    # --- standings and tie-breaks, recomputed independently, against the CSV and the page ------
    csv_rows = list(csv.DictReader(io.StringIO(page(client, players[0], reverse("leagues:standings_csv", args=[season.pk])))))
    season_page = page(client, players[0], season.get_absolute_url())
    assert re.search(rf">{quitter.display_name}</a> \(dropped out after round 2\)", season_page)
    expected_order = {}
    for division in divisions:
        games_of = [g for g in finished if g.league_table.division_id == division.pk]
        expected = expected_standings(members[division.pk], games_of, names)
        got = [r for r in csv_rows if r["division"] == division.name]
        assert [r["player"] for r in got] == [names[e["player"]] for e in expected]
        for row, want in zip(got, expected):
            assert float(row["points"]) == want["points"] and float(row["score"]) == want["score"]
            assert int(row["head_to_head"]) == want["h2h"] and float(row["sonneborn_berger"]) == pytest.approx(want["sb"])
            assert int(row["games"]) == want["games"]
        assert {r["status"] for r in got if r["player"] == quitter.display_name} <= {"dropped"}
        expected_order[division.level] = [e["player"] for e in expected if e["player"] != quitter.pk]

    # --- the next season in one step, with promotion and relegation ------------------------
    post(client, organiser, reverse("leagues:organise", args=[season.pk, "next"]))
    nxt = Season.objects.get(previous=season)
    level = {e.user_id: e.division.level for e in nxt.entries.select_related("division")}
    assert quitter.pk not in level and len(level) == 11
    assert level[expected_order[2][0]] == 1 and level[expected_order[3][0]] == 2  # promoted
    assert level[expected_order[1][-1]] == 2 and level[expected_order[2][-1]] == 3  # relegated
    assert level[expected_order[1][0]] == 1 and level[expected_order[3][-1]] == 3
    assert "season" in page(client, players[0], nxt.get_absolute_url()).lower()
    # the finished season's round starts have left the league's calendar; the next season's
    # rounds are there once it is planned
    cal = Calendar.from_ical(client.get(league_calendar).content)
    finished_rounds = {f"round-{pk}@hanseweb" for pk in season.round_set.values_list("pk", flat=True)}
    assert not finished_rounds & {str(e["uid"]) for e in cal.walk("VEVENT")}
