"""Start the real embedded default (``scripts/serve``: SQLite, tasks in-process, console mail) as a
subprocess and talk to it over HTTP like a browser without JavaScript would."""
from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import time
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parent.parent
DEMO_PASSWORD = "hanseweb-demo"


def embedded_env(tmp: Path, port: int) -> dict:
    """The environment of a fresh machine: nothing of the test run's services or settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HANSEWEB_", "CELERY_", "ANYMAIL_", "DJANGO_"))
           and k not in {"DATABASE_URL", "REDIS_URL", "PORT"}}
    env.update(PORT=str(port), HANSEWEB_SQLITE_PATH=str(tmp / "db.sqlite3"),
               HANSEWEB_SECRET_KEY_FILE=str(tmp / "secret_key"))
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    port: int
    tmp: Path
    proc: subprocess.Popen
    log_path: Path
    responses: list = field(default_factory=list)  # (method, path, status, seconds)

    @property
    def db_path(self) -> Path:
        return self.tmp / "db.sqlite3"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def db(self, readonly=True) -> sqlite3.Connection:
        mode = "ro" if readonly else "rw"
        return sqlite3.connect(f"file:{self.db_path}?mode={mode}", uri=True, timeout=20)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def start_server(tmp: Path, timeout: float = 60) -> tuple[Server, float]:
    """``scripts/serve`` on a free port; returns the server and the seconds until it answered."""
    port = free_port()
    log_path = tmp / "serve.log"
    log = open(log_path, "w")
    started = time.monotonic()
    proc = subprocess.Popen([str(REPO / "scripts" / "serve")], cwd=REPO, env=embedded_env(tmp, port),
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    server = Server(url=f"http://127.0.0.1:{port}", port=port, tmp=tmp, proc=proc, log_path=log_path)
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"scripts/serve exited with {proc.returncode}:\n{server.log()[-3000:]}")
        try:
            if requests.get(server.url + "/", timeout=2).status_code == 200:
                return server, time.monotonic() - started
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or its first answer is slow (a loaded machine)
            pass
        if time.monotonic() - started > timeout:
            server.stop()
            raise RuntimeError(f"scripts/serve did not answer in {timeout} s:\n{server.log()[-3000:]}")
        time.sleep(0.05)


class _Forms(HTMLParser):
    """The forms of a page: id -> {"fields": {name: value}, "buttons": [(name, value, class)]}."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, dict] = {}
        self._form = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"fields": {}, "buttons": [], "action": a.get("action", "")}
            self.forms[a.get("id") or f"form{len(self.forms)}"] = self._form
        elif tag == "input" and a.get("name") and self._form is not None and a.get("type") != "checkbox":
            self._form["fields"][a["name"]] = a.get("value") or ""
        elif tag == "select" and self._form is not None:
            self._select = a.get("name")
        elif tag == "option" and self._select:
            fields = self._form["fields"]
            if self._select not in fields or "selected" in a:
                fields[self._select] = a.get("value", "")
        elif tag == "button" and (a.get("form") or self._form is not None):
            # a button with a form attribute belongs to that form wherever it stands (as in a browser):
            # the game page folds many board choices into a list under the board, outside #move-form
            form = self.forms.get(a["form"]) if a.get("form") else self._form
            if form is not None:
                form["buttons"].append((a.get("name"), a.get("value"), a.get("class") or ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_of(html: str) -> _Forms:
    parser = _Forms()
    parser.feed(html)
    return parser


class Browser:
    """One logged-in player: a cookie session; every response is recorded on the server."""

    def __init__(self, server: Server, email: str):
        self.server, self.email = server, email
        self.http = requests.Session()

    def _record(self, method, path, response, started):
        self.server.responses.append((method, path, response.status_code, time.monotonic() - started))
        for r in response.history:
            self.server.responses.append(("redirect", r.url, r.status_code, 0.0))

    def get(self, path: str, **kwargs) -> requests.Response:
        started = time.monotonic()
        r = self.http.get(path if path.startswith("http") else self.server.url + path, timeout=60, **kwargs)
        self._record("GET", path, r, started)
        return r

    def post(self, path: str, data: dict) -> requests.Response:
        started = time.monotonic()
        r = self.http.post(path if path.startswith("http") else self.server.url + path, data=data, timeout=60)
        self._record("POST", path, r, started)
        return r

    def login(self) -> "Browser":
        page = self.get("/accounts/login/")
        fields = forms_of(page.text).forms["login-form"]["fields"]
        fields.update(username=self.email, password=DEMO_PASSWORD)
        r = self.post("/accounts/login/", fields)
        assert r.url.rstrip("/") == self.server.url and "Log out" in r.text, r.text[-2000:]
        return self

    def create_game(self, engine: str, players: int, title: str) -> tuple[int, str]:
        page = self.get(f"/games/new/?engine={engine}")
        fields = forms_of(page.text).forms["create-form"]["fields"]
        fields.update(engine=engine, players=str(players), title=title, seat_order="joined", listed="invite", create="1")
        r = self.post("/games/new/", fields)
        assert "/games/" in r.url, r.text[-2000:]
        return int(r.url.rstrip("/").split("/")[-1]), share_link(r.text)

    def join(self, share_url: str) -> None:
        page = self.get(share_url)
        form = forms_of(page.text).forms["join-form"]
        r = self.post(form["action"], form["fields"])
        assert "You have joined" in r.text, r.text[-2000:]


def share_link(page_html: str) -> str:
    for tag in page_html.split("<input")[1:]:
        if 'class="share"' in tag:
            return unescape(tag.split('value="', 1)[1].split('"', 1)[0])
    raise AssertionError("no join link on the page")
