"""The board in the mail: turn, reminder and answer mails carry the seat's own board as an inline
PNG (a related MIME part shown with cid:), converted from the very SVG of the seat's game page."""
import email
import email.policy
import io

import cairosvg
import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from PIL import Image

from games import notifications, presentation
from hanseweb.mail import images
from hanseweb.mail.models import OutboundEmail

from .conftest import committed, user_of

pytestmark = pytest.mark.mail_png  # the board's PNG is what these tests check (conftest no_mail_png)

ENGINES = [("hansa", 3), ("hansa-teutonica", 3), ("die-hanse", 4), ("zanzibar", 3)]


def _parsed(message):
    return email.message_from_bytes(message.message().as_bytes(), policy=email.policy.default)


def _parts(parsed):
    return {part.get_content_type(): part for part in parsed.walk()}


def _page_svg(game, seat):
    client = Client()
    client.force_login(user_of(game, seat))
    response = client.get(f"/games/{game.pk}/")
    return str(response.context["svg"])


def _png_of(svg):
    return cairosvg.svg2png(bytestring=svg.encode(), output_width=images.WIDTH)


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", ENGINES)
def test_the_turn_mail_shows_the_seats_own_board_as_an_inline_png(started_game, slug, players):
    cache.clear()
    game, _ = started_game(slug, players)
    seat = game.to_act[0]
    player = user_of(game, seat)
    (sent,) = [m for m in mail.outbox if m.to == [player.email] and "Your turn" in m.subject]
    parsed = _parsed(sent)
    parts = _parts(parsed)
    assert parsed.get_content_type() == "multipart/related"
    html, png = parts["text/html"], parts["image/png"]
    assert f'src="cid:{images.CONTENT_ID}"' in html.get_content()
    assert png["Content-ID"] == f"<{images.CONTENT_ID}>" and png.get_content_disposition() == "inline"
    data = png.get_content()
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.width == images.WIDTH
    # the board is drawn, not a blank page (CairoSVG drew nothing for an SVG styled height:auto)
    assert len(picture.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 20
    # exactly the picture of the seat's own page: the same SVG, converted
    svg = _page_svg(game, seat)
    row = OutboundEmail.objects.filter(to=player.email, kind="your_turn").latest("created_at")
    assert row.inline_svg == svg
    assert data == _png_of(svg)
    assert parts["text/plain"].get_content().count("Your choices now:") == 1  # the text part keeps its text picture


@pytest.mark.django_db
@pytest.mark.parametrize("slug,players", [("zanzibar", 3), ("die-hanse", 4)])
def test_each_seat_gets_its_own_picture_and_never_anothers(started_game, slug, players):
    game, _ = started_game(slug, players)
    game.refresh_from_db()
    seats = {s.number: s for s in game.seats.select_related("user")}
    pictures = {}
    for number, seat in seats.items():
        mail.outbox = []
        with committed():
            notifications.decision_mail(game, seat, template="games/mail/reminder", kind="reminder")
        (sent,) = mail.outbox
        pictures[number] = _parts(_parsed(sent))["image/png"].get_content()
        svg = presentation.board_svg(game.engine, game.engine_obj.view(game.state_cache, number),
                                     presentation.player_names(game),
                                     legal=game.engine_obj.legal_moves(game.state_cache, number))
        assert pictures[number] == _png_of(svg)
    svgs = {n: presentation.board_svg(game.engine, game.engine_obj.view(game.state_cache, n),
                                      presentation.player_names(game)) for n in seats}
    for a in seats:
        for b in seats:
            if a != b and svgs[a] != svgs[b]:  # hidden facts differ: so do the pictures
                assert pictures[a] != _png_of(svgs[b])


@pytest.mark.django_db
def test_the_png_is_converted_once_per_svg(started_game, monkeypatch):
    cache.clear()
    calls = []
    real = cairosvg.svg2png
    monkeypatch.setattr(cairosvg, "svg2png", lambda **kw: calls.append(1) or real(**kw))
    game, _ = started_game("hansa", 3)
    seat = game.seats.select_related("user").get(number=game.to_act[0])
    for _ in range(3):  # three mails from the same game, move number and seat
        with committed():
            notifications.reminder(game, seat)
    assert len(calls) == 1  # the turn mail converted it; the reminders used the cache
    assert len([m for m in mail.outbox if "image/png" in _parts(_parsed(m))]) >= 4


@pytest.mark.django_db
def test_a_picture_that_cannot_be_made_does_not_stop_the_mail(started_game, monkeypatch):
    def broken(svg):
        raise OSError("no cairo here")

    monkeypatch.setattr(images, "svg_to_png", broken)
    game, _ = started_game("hansa", 3)
    player = user_of(game, game.to_act[0])
    (sent,) = [m for m in mail.outbox if m.to == [player.email]]
    parts = _parts(_parsed(sent))
    assert "image/png" not in parts and "text/html" in parts
    assert OutboundEmail.objects.get(to=player.email).sent_at is not None
