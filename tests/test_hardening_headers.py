"""Issue 28 item 11: response headers. HSTS in the deploy settings and the nginx example; a
Content-Security-Policy on every page whose inline scripts carry the response's nonce (also when
the game page comes from the page cache); Cache-Control: private on what is made for one person.
The browser tests (tests/test_browser*.py) run the pages' scripts under this policy."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from .conftest import user_of
from .embedded_server import REPO, embedded_env
from .factories import UserFactory

NONCE = re.compile(r"'nonce-([A-Za-z0-9+/=]+)'")


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def _inline_scripts(html: str) -> list[str]:
    """The opening tags of the scripts a browser would run from the page itself."""
    tags = re.findall(r"<script\b[^>]*>", html)
    return [t for t in tags if "src=" not in t and "application/json" not in t and "application/ld+json" not in t]


@pytest.mark.django_db
def test_every_page_has_a_content_security_policy(client):
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/api/v1/docs"):
        response = client.get(url)
        policy = _policy(response)
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"], url
        assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'self'"], url
        assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-eval'" not in policy["script-src"], url
        assert policy["script-src"][0] == "'self'", url


@pytest.mark.django_db
def test_the_game_page_scripts_carry_this_responses_nonce_also_from_the_page_cache(started_game, settings):
    settings.HANSEWEB_PAGE_CACHE_SECONDS = 3600
    game, users = started_game("hansa", 3)
    client = Client()
    client.force_login(user_of(game, 0))
    nonces = []
    for _ in range(3):  # the first renders, the next come from the whole-page cache
        response = client.get(f"/games/{game.pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        (nonce,) = NONCE.findall(response["Content-Security-Policy"])
        scripts = _inline_scripts(html)
        assert scripts and all(f'nonce="{nonce}"' in tag for tag in scripts), scripts
        assert "\x00" not in html
        nonces.append(nonce)
    assert len(set(nonces)) == 3  # a fresh nonce for every response
    # the new-game form and the replay have their inline scripts allowed the same way
    for url in ("/games/new/?engine=hansa", f"/games/{game.pk}/replay/"):
        response = client.get(url)
        (nonce,) = NONCE.findall(response["Content-Security-Policy"])
        scripts = _inline_scripts(response.content.decode())
        assert scripts and all(f'nonce="{nonce}"' in tag for tag in scripts), url


def test_every_inline_script_in_the_templates_has_the_nonce():
    """A page template's <script> either loads a static file or carries the nonce
    (docs/architecture.md, "Scripts and the Content-Security-Policy"); mails run no scripts."""
    offenders = []
    for path in (REPO / "templates").rglob("*.html"):
        if "/mail/" in str(path):
            continue
        for tag in _inline_scripts(path.read_text()):
            if 'nonce="{{ request.csp_nonce }}"' not in tag:
                offenders.append(f"{path.relative_to(REPO)}: {tag}")
        if re.search(r"\son[a-z]+\s*=\s*[\"']", path.read_text()) or "javascript:" in path.read_text():
            offenders.append(f"{path.relative_to(REPO)}: an inline event handler or javascript: URL")
    assert offenders == []


@pytest.mark.django_db
def test_a_seats_views_are_private_to_caches(started_game):
    from hanseweb.api.models import ApiToken

    game, users = started_game("hansa", 3)
    player = user_of(game, 0)
    client = Client()
    client.force_login(player)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/status/", f"/games/{game.pk}/log/",
                f"/games/{game.pk}/replay/", "/", "/accounts/profile/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "private" in response["Cache-Control"], url
    _, token = ApiToken.issue(player, "bot")
    response = Client().get(f"/api/v1/games/{game.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_the_deploy_settings_send_hsts_and_check_deploy_has_no_w004(tmp_path):
    env = embedded_env(tmp_path, 8000)
    env.pop("PORT")
    env.update(DATABASE_URL="postgres://postgres@127.0.0.1:5432/hanseweb_unused",
               HANSEWEB_SECRET_KEY="k3Q9-zv_8pLx2mTqR7sWn4YbC6dHfJ1uEaGoVi5N0-aVeryLongSecretKey1234",
               HANSEWEB_ALLOWED_HOSTS="hanseweb.example.org", HANSEWEB_SITE_URL="https://hanseweb.example.org",
               DJANGO_SETTINGS_MODULE="hanseweb.settings")
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "security.W004" not in done.stdout + done.stderr, done.stdout + done.stderr
    code = ("import django; django.setup()\nfrom django.test import Client\n"
            "r = Client().get('/accounts/login/', secure=True, HTTP_HOST='hanseweb.example.org')\n"
            "print(r.status_code, r.get('Strict-Transport-Security'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["200", "max-age=31536000"], done.stderr
    # the embedded default (plain http on 127.0.0.1) sends none
    env = embedded_env(tmp_path, 8000)
    env.pop("PORT")
    env["DJANGO_SETTINGS_MODULE"] = "hanseweb.settings"
    code = ("import django; django.setup()\nfrom django.conf import settings\n"
            "print(getattr(settings, 'SECURE_HSTS_SECONDS', 0))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "0", done.stderr


def test_the_nginx_example_sends_hsts():
    text = Path(REPO / "deploy" / "nginx.conf.example").read_text()
    assert re.search(r'add_header Strict-Transport-Security "max-age=\d{8,}" always;', text)
