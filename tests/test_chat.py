"""Table talk (games.chat, docs/chat.md): the chat per game, private notes per seat, mute,
moderation, the chat in mails and mail replies, and what nobody else may ever see."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.db import IntegrityError, InternalError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import chat, email_replies, notifications
from games.models import AppendOnlyError, ChatMessage, ChatModeration, Game, Seat, SeatNote
from hanseweb.mail.inbound import store
from hanseweb.mail.models import InboundEmail

from .conftest import act, committed, user_of
from .factories import UserFactory

POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@pytest.fixture
def game(started_game):
    game, _ = started_game("hansa", 3)
    return game


def _client(user=None, **kwargs):
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def _page(user, game) -> str:
    response = _client(user).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _say(game, seat, text):
    return _client(user_of(game, seat)).post(f"/games/{game.pk}/chat/post/", {"text": text}, follow=True)


def _chat_section(html: str) -> str:
    start = html.index('<section class="card chat" id="chat"')
    return html[start:html.index("</section>", start)]


def _all_mail_text() -> str:
    parts = []
    for message in mail.outbox:
        parts.append(message.subject + message.body)
        parts.extend(content for content, _ in getattr(message, "alternatives", []))
    return "\n".join(parts)


# --- posting and showing ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_player_posts_and_every_reader_sees_it_escaped_with_line_breaks_and_no_links(game):
    response = _say(game, 1, "Ahoy <script>alert(1)</script>\nsee https://example.com/x & more")
    assert response.status_code == 200
    message = ChatMessage.objects.get(game=game)
    assert (message.seat, message.user_id, message.move_count, message.channel) == \
        (1, user_of(game, 1).pk, game.move_count, ChatMessage.WEB)
    assert message.text == "Ahoy <script>alert(1)</script>\nsee https://example.com/x & more"
    for viewer in (user_of(game, 0), user_of(game, 1), UserFactory(), None):
        section = _chat_section(_page(viewer, game))
        assert "Ahoy &lt;script&gt;alert(1)&lt;/script&gt;<br>see https://example.com/x &amp; more" in section
        assert "<script>alert" not in section and "<a href=\"https://example.com" not in section
        assert user_of(game, 1).display_name in section and "at move" in section


@pytest.mark.django_db
def test_a_new_message_shows_at_once_although_the_page_body_is_cached(game):
    reader = _client(user_of(game, 0))
    url = f"/games/{game.pk}/"
    reader.get(url)  # renders and caches the body of this version for seat 0
    with CaptureQueriesContext(connection) as hit:
        reader.get(url)
    _say(game, 2, "first words")
    with CaptureQueriesContext(connection) as after:
        html = reader.get(url).content.decode()
    assert "first words" in _chat_section(html)
    # still the cached body (no state, no log read): only the chat part was made again
    assert not [q["sql"] for q in after.captured_queries if "state_cache" in q["sql"] or '"games_move"' in q["sql"]]
    assert not [q["sql"] for q in hit.captured_queries if "games_chat" in q["sql"]]  # a repeated view: from the cache
    game.refresh_from_db()
    assert game.move_count == 0


@pytest.mark.django_db
def test_the_game_page_costs_the_same_with_0_or_500_messages(started_game):
    def queries(game):
        client = _client(user_of(game, 0))
        client.get("/")
        out = []
        for _ in range(2):  # first view (body rendered), second (cached body)
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(f"/games/{game.pk}/").status_code == 200
            out.append(len(ctx))
        return out

    quiet, _ = started_game("hansa", 3)
    busy, _ = started_game("hansa", 3)
    users = {s.number: s.user_id for s in busy.seats.all()}
    ChatMessage.objects.bulk_create(
        ChatMessage(game=busy, seat=i % 3, user_id=users[i % 3], text=f"message {i}", move_count=0) for i in range(500))
    assert queries(quiet) == queries(busy)
    html = _page(user_of(busy, 0), busy)
    assert "message 499" in html and "message 449" not in html and "Earlier messages" in html
    older = _client(user_of(busy, 0)).get(f"/games/{busy.pk}/chat/?before={ChatMessage.objects.filter(game=busy, text='message 450').get().pk}")
    assert "message 449" in older.content.decode() and "message 450" not in older.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("text, problem", [
    ("", "The message is empty"),
    ("   \n\t ", "The message is empty"),
    ("x" * 1001, "too long: 1001 characters, at most 1000"),
    ("nul \x00 here", "control characters (such as NUL)"),
    ("bell \x07", "control characters"),
])
def test_bad_messages_get_a_clear_error_and_change_nothing(game, text, problem):
    response = _say(game, 0, text)
    assert problem in response.content.decode()
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_invalid_utf8_through_the_form_is_refused(game):
    client = _client(user_of(game, 0))
    response = client.post(f"/games/{game.pk}/chat/post/", data=b"text=caf%E9+%FF%FE", follow=True,
                           content_type="application/x-www-form-urlencoded")
    assert "not valid UTF-8" in response.content.decode()
    assert not ChatMessage.objects.exists()
    # exactly 1000 characters of any script, tabs and line breaks kept (CRLF becomes LF)
    ok = "ü" * 990 + "\tä\r\nö" + "€" * 5
    _say(game, 0, ok)
    assert ChatMessage.objects.get().text == ok.replace("\r\n", "\n")


@pytest.mark.django_db
def test_only_seated_players_write_csrf_is_required_and_spectators_read_only_listed_games(game):
    spectator = UserFactory()
    response = _client(spectator).post(f"/games/{game.pk}/chat/post/", {"text": "hi"}, follow=True)
    assert "Only the players of this game can write" in response.content.decode()
    assert _client().post(f"/games/{game.pk}/chat/post/", {"text": "hi"}).status_code == 302  # to the login
    strict = _client(user_of(game, 0), enforce_csrf_checks=True)
    assert strict.post(f"/games/{game.pk}/chat/post/", {"text": "no token"}).status_code == 403
    assert not ChatMessage.objects.exists()
    _say(game, 0, "table only")
    assert "table only" in _page(spectator, game) and "table only" in _page(None, game)
    assert 'id="chat-text"' not in _page(spectator, game)  # no form for spectators
    Game.objects.filter(pk=game.pk).update(listed=False)  # invitation-only game: players only
    # a private game (docs/visibility.md): not shown at all to others (nor its chat)
    assert _client(spectator).get(f"/games/{game.pk}/").status_code == 404
    assert _client(None).get(f"/games/{game.pk}/").status_code == 302  # to the login page
    assert _client(spectator).get(f"/games/{game.pk}/chat/").status_code == 404
    assert "table only" in _page(user_of(game, 2), game)
    game.refresh_from_db()
    with pytest.raises(chat.ChatError):
        chat.messages_for(game, spectator)
    assert [m["text"] for m in chat.messages_for(game, user_of(game, 2))] == ["table only"]


@pytest.mark.django_db
def test_resigned_players_still_talk_and_the_chat_stays_open_after_the_end(started_game):
    game, _ = started_game("hansa", 2)
    _client(user_of(game, 1)).post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    _say(game, 1, "well played")
    _say(game, 0, "thanks")
    assert [m.text for m in ChatMessage.objects.order_by("id")] == ["well played", "thanks"]


@pytest.mark.django_db
def test_chat_is_throttled_per_account(game, settings):
    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "chat_per_user": "3/h"}
    for i in range(3):
        _say(game, 0, f"line {i}")
    response = _say(game, 0, "one too many")
    assert "Too many in a short time" in response.content.decode()
    assert ChatMessage.objects.count() == 3
    _say(game, 1, "another account has its own count")
    assert ChatMessage.objects.count() == 4


# --- append-only ------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_messages_and_moderation_cannot_be_changed_or_deleted(game):
    message = chat.post(game.pk, user_of(game, 0), "kept")
    staff = UserFactory(is_staff=True)
    hidden = chat.hide(game.pk, message.pk, staff, "rude")
    for row in (message, hidden):
        with pytest.raises(AppendOnlyError):
            row.save()
        with pytest.raises(AppendOnlyError):
            row.delete()
    for sql in ("UPDATE games_chatmessage SET text = 'changed'", "DELETE FROM games_chatmessage",
                "UPDATE games_chatmoderation SET reason = 'x'", "DELETE FROM games_chatmoderation"):
        with pytest.raises((IntegrityError, InternalError)) as excinfo:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)
        assert "append-only" in str(excinfo.value)
    with pytest.raises(AppendOnlyError):
        ChatMessage.objects.filter(pk=message.pk).first().delete()
    assert ChatMessage.objects.get(pk=message.pk).text == "kept"
    assert ChatModeration.objects.get().reason == "rude"


@pytest.mark.django_db
@pytest.mark.skipif(not POSTGRES, reason="PostgreSQL only (SQLite has no TRUNCATE)")
@pytest.mark.parametrize("table", ["games_chatmessage", "games_chatmoderation"])
def test_truncate_of_the_chat_is_refused(game, table):
    message = chat.post(game.pk, user_of(game, 0), "kept")
    chat.hide(game.pk, message.pk, UserFactory(is_staff=True), "because")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with pytest.raises((IntegrityError, InternalError)) as excinfo:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {table} CASCADE")
    assert "append-only" in str(excinfo.value)
    assert ChatMessage.objects.count() == 1 and ChatModeration.objects.count() == 1


# --- moderation ---------------------------------------------------------------------------------------

def _league_table(game, organiser):
    """Make ``game`` a table of a league of a club that ``organiser`` organises."""
    from hanseweb.leagues.models import Club, Division, League, Membership, Round, Season, Table

    club = Club.objects.create(name="Club", slug=f"club-{game.pk}", created_by=organiser)
    Membership.objects.create(club=club, user=organiser, role=Membership.ORGANISER)
    league = League.objects.create(club=club, name="League", engine=game.engine, table_size=game.players)
    season = Season.objects.create(league=league, number=1, starts_at=timezone.now(), rounds=1, deadline_hours=48)
    division = Division.objects.create(season=season, level=1, name="Top")
    rnd = Round.objects.create(season=season, number=1, starts_at=timezone.now())
    Table.objects.create(round=rnd, division=division, index=0, game=game,
                         seat_order=[s.user_id for s in game.seats.order_by("number")])
    return club


@pytest.mark.django_db
def test_moderators_hide_with_a_reason_which_players_see_and_nothing_is_deleted(game):
    from hanseweb.leagues.models import Membership

    _say(game, 1, "something rude")
    message = ChatMessage.objects.get()
    url = f"/games/{game.pk}/chat/{message.pk}/hide/"
    # a player, a spectator and a member (not organiser) of the club may not hide
    organiser, member = UserFactory(display_name="Orga"), UserFactory()
    club = _league_table(game, organiser)
    Membership.objects.create(club=club, user=member, role=Membership.MEMBER)
    for user in (user_of(game, 0), UserFactory(), member):
        response = _client(user).post(url, {"reason": "no"}, follow=True)
        assert "Only moderators" in response.content.decode()
    assert "Hide this message" not in _page(user_of(game, 0), game)
    assert "Hide this message" in _page(organiser, game)
    # a reason is required
    response = _client(organiser).post(url, {"reason": "  "}, follow=True)
    assert "Give a reason" in response.content.decode() and not ChatModeration.objects.exists()
    # the organiser of the game's club hides it
    _client(organiser).post(url, {"reason": "insulting words"})
    hide = ChatModeration.objects.get()
    assert (hide.message_id, hide.by_id, hide.reason, hide.game_id) == (message.pk, organiser.pk, "insulting words", game.pk)
    assert ChatMessage.objects.get().text == "something rude"  # nothing deleted or changed
    other = _chat_section(_page(user_of(game, 0), game))
    assert "hidden by a moderator" in other and "something rude" not in other
    assert "Orga" in other and "insulting words" in other  # players see who hid it and why (the log)
    assert "Moderation log" in other
    spectator = _chat_section(_page(UserFactory(), game))
    assert "hidden by a moderator" in spectator
    assert "something rude" not in spectator and "insulting words" not in spectator
    author = _chat_section(_page(user_of(game, 1), game))
    assert "<del>something rude</del>" in author and "insulting words" in author
    assert [m["text"] for m in chat.messages_for(game, user_of(game, 2))] == [None]
    assert chat.messages_for(game, user_of(game, 2))[0]["hidden_reason"] == "insulting words"
    assert chat.messages_for(game, None)[0]["hidden_reason"] is None
    # hiding twice is refused; staff may hide in any game; another club's organiser may not
    response = _client(UserFactory(is_staff=True)).post(url, {"reason": "again"}, follow=True)
    assert "already hidden" in response.content.decode() and ChatModeration.objects.count() == 1
    stranger = UserFactory()
    _league_table_other = Membership.objects.create(
        club=type(club).objects.create(name="Other", slug="other", created_by=stranger), user=stranger,
        role=Membership.ORGANISER)
    assert _league_table_other and not chat.is_moderator(game.pk, stranger)


# --- private notes ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_notes_are_seen_by_their_seat_only_never_by_others_mails_or_replays(game, settings):
    settings.HANSEWEB_REPLY_DOMAIN = "play.hanseweb.test"
    secret = "SECRET-NOTE-4711 plan: take Lübeck"
    owner = user_of(game, 0)
    response = _client(owner).post(f"/games/{game.pk}/notes/", {"text": secret}, follow=True)
    assert "Your notes are saved" in response.content.decode()
    assert SeatNote.objects.get().text == secret
    assert secret in _page(owner, game).replace("&#x27;", "'")
    _client(owner).post(f"/games/{game.pk}/notes/", {"text": secret + " (edited)"})
    assert SeatNote.objects.get().text == secret + " (edited)"  # only the latest is kept
    # bad input: refused, the note unchanged
    response = _client(owner).post(f"/games/{game.pk}/notes/", {"text": "bad \x00"}, follow=True)
    assert "control characters" in response.content.decode() and SeatNote.objects.get().text.startswith(secret)
    response = _client(UserFactory()).post(f"/games/{game.pk}/notes/", {"text": "mine"}, follow=True)
    assert "Only the players" in response.content.decode() and SeatNote.objects.count() == 1

    mail.outbox = []
    for _ in range(6):  # the game goes on: turn mails to every seat
        game.refresh_from_db()
        seat = game.to_act[0]
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
    game.refresh_from_db()
    for user in Seat.objects.filter(game=game).values_list("user", flat=True):
        user = type(owner).objects.get(pk=user)
        user.notify = user.NOTIFY_DIGEST
        user.save()
        with committed():
            notifications.digest(user, timezone.now())
    assert len(mail.outbox) >= 3 and "SECRET-NOTE" not in _all_mail_text()
    others = [user_of(game, 1), user_of(game, 2), UserFactory(), UserFactory(is_staff=True), None]
    for viewer in others:
        client = _client(viewer)
        for path in ("", "log/", "chat/", "status/", *(f"replay/?at={k}" for k in range(game.move_count + 1))):
            html = client.get(f"/games/{game.pk}/{path}").content.decode()
            assert "SECRET-NOTE" not in html, (viewer, path)
        page = client.get(f"/games/{game.pk}/").content.decode()
        seated = viewer is not None and Seat.objects.filter(game=game, user=viewer).exists()
        assert ('id="notes"' in page) == seated  # other players see only their own (empty) notepad
    for k in range(game.move_count + 1):  # the owner's own replay frames do not show it either
        assert "SECRET-NOTE" not in _client(owner).get(f"/games/{game.pk}/replay/?at={k}").content.decode()
    assert all("SECRET-NOTE" not in str(m) for m in chat.messages_for(game, user_of(game, 1)))
    assert chat.note_of(game.pk, owner).startswith(secret) and chat.note_of(game.pk, user_of(game, 1)) == ""


# --- mails --------------------------------------------------------------------------------------------

def _turn_mail_to(game, number):
    seat = game.seats.select_related("user").get(number=number)
    mail.outbox = []
    with committed():
        notifications.decision_mail(game, seat, template="games/mail/your_turn", kind="your_turn", with_news=True)
    (message,) = mail.outbox
    return message


@pytest.mark.django_db
def test_turn_mails_tell_what_was_said_since_the_last_one_and_a_message_alone_sends_no_mail(game):
    game.refresh_from_db()
    mail.outbox = []
    with committed():
        _say(game, 1, "Hello from one")
        _say(game, 2, "Two here\non two lines")
        _say(game, 0, "my own words")
    assert mail.outbox == []  # chat alone: no mail
    message = _turn_mail_to(game, 0)
    body, html = message.body, message.alternatives[0][0]
    assert "Said since your last turn:" in body and "Said since your last turn:" in html
    assert "Hello from one" in body and "Two here\n    on two lines" in body and "my own words" not in body
    assert "Two here<br>on two lines" in html
    assert f"{user_of(game, 1).display_name} (at move 0): Hello from one" in body
    again = _turn_mail_to(game, 0)  # told once
    assert "Said since your last turn" not in again.body and "Hello from one" not in again.body
    _say(game, 1, "after that")
    assert "after that" in _turn_mail_to(game, 0).body
    # a hidden message is left out; another seat still gets the rest
    chat.hide(game.pk, ChatMessage.objects.get(text="Hello from one").pk, UserFactory(is_staff=True), "spam")
    other = _turn_mail_to(game, 2).body
    assert "Hello from one" not in other and "after that" in other and "Two here" not in other


@pytest.mark.django_db
def test_a_muted_chat_is_left_out_of_mails_but_still_on_the_page(game):
    response = _client(user_of(game, 0)).post(f"/games/{game.pk}/chat/mute/", {"muted": "1"}, follow=True)
    assert "left out of your mails" in response.content.decode()
    assert Seat.objects.get(game=game, number=0).chat_muted
    _say(game, 1, "you will not read this by mail")
    game.refresh_from_db()
    body = _turn_mail_to(game, 0).body
    assert "Said since" not in body and "you will not read this" not in body
    assert "you will not read this by mail" in _page(user_of(game, 0), game)
    assert "Include it again" in _page(user_of(game, 0), game)
    _client(user_of(game, 0)).post(f"/games/{game.pk}/chat/mute/", {"muted": "0"})
    _say(game, 1, "now you will")
    assert "now you will" in _turn_mail_to(game, 0).body


@pytest.mark.django_db
def test_a_move_mails_the_next_player_what_was_said(game):
    game.refresh_from_db()
    first = game.to_act[0]
    _say(game, first, "watch this")
    mail.outbox = []
    while game.to_act == [first]:
        act(game, first, game.engine_obj.legal_moves(game.state_cache, first)[0])
        game.refresh_from_db()
    nxt = game.to_act[0]
    turn = [m for m in mail.outbox if m.to == [user_of(game, nxt).email]][-1]
    assert "Said since your last turn:" in turn.body and "watch this" in turn.body


@pytest.mark.django_db
def test_the_daily_digest_tells_what_was_said_in_each_waiting_game(game):
    game.refresh_from_db()
    reader = user_of(game, game.to_act[0])
    reader.notify = reader.NOTIFY_DIGEST
    reader.save()
    other = next(n for n in range(3) if n != game.to_act[0])
    _say(game, other, "see you at the digest")
    mail.outbox = []
    with committed():
        assert notifications.digest(reader, timezone.now() + timedelta(hours=1))
    (digest,) = mail.outbox
    assert "Said since your last turn:" in digest.body and "see you at the digest" in digest.body
    assert "see you at the digest" in digest.alternatives[0][0]
    seat = Seat.objects.get(game=game, user=reader)
    assert chat.said_since(game, seat)["lines"] == []  # the cursor moved on


@pytest.mark.django_db
def test_said_since_is_one_indexed_query_at_any_chat_length(started_game):
    game, _ = started_game("hansa", 3)
    users = {s.number: s.user_id for s in game.seats.all()}
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, seat=1, user_id=users[1], text=f"m{i}", move_count=0) for i in range(500))
    seat = Seat.objects.get(game=game, number=0)
    with CaptureQueriesContext(connection) as ctx:
        said = chat.said_since(game, seat)
    assert len(ctx) == 1 and "LIMIT" in ctx.captured_queries[0]["sql"]
    assert said["more"] and len(said["lines"]) == chat.MAIL_LIMIT and said["lines"][-1]["text"] == "m499"


# --- "say:" in mail replies ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_say_in_a_reply_posts_to_the_chat(game, settings):
    settings.HANSEWEB_REPLY_DOMAIN = "play.hanseweb.test"
    game.refresh_from_db()
    seat = game.to_act[0]
    player = user_of(game, seat)
    reply_to = email_replies.reply_address(game.pk, seat, game.move_count)

    def reply(text):
        mail.outbox = []
        with committed():
            row = store(sender=player.email, recipients=[reply_to], subject="Re: your turn", text=text)
        row.refresh_from_db()
        return row

    row = reply("say: Good luck, everyone!\n\n> quoted original")
    assert row.status == InboundEmail.ACCEPTED
    message = ChatMessage.objects.get()
    assert (message.text, message.channel, message.seat) == ("Good luck, everyone!", ChatMessage.EMAIL, seat)
    assert 'said: Good luck, everyone!' in mail.outbox[0].body
    game.refresh_from_db()
    assert game.move_count == 0  # no move taken
    # chat and a move in one reply
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    row = reply(f"say: here goes\n{move}")
    assert row.status == InboundEmail.ACCEPTED
    game.refresh_from_db()
    assert game.move_count == 1 and ChatMessage.objects.count() == 2
    # a bad chat line is refused with the reason and nothing after it is taken
    row = reply("say: \n" + move)
    assert row.status == InboundEmail.REJECTED and "The message is empty" in mail.outbox[0].body
    assert ChatMessage.objects.count() == 2
    # someone else's address does not talk for the seat
    mail.outbox = []
    with committed():
        store(sender=user_of(game, (seat + 1) % 3).email, recipients=[reply_to], subject="Re", text="say: fake")
    assert ChatMessage.objects.count() == 2
