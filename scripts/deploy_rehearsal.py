"""Rehearse deploy/README.md's plain-host path (systemd) on this machine, end to end.

Follows the README step by step in a scratch directory instead of /srv/hanseweb and /etc/hanseweb:

1. ``git clone`` of this repository's HEAD as the checkout; ``scripts/setup`` in it (its .venv);
2. the two database roles and the database with ``deploy/postgres/roles.sql`` (as PostgreSQL's
   superuser; role and database names made unique for this run);
3. the environment file from ``deploy/env.example`` (every variable of it, filled in, plus
   ``REDIS_URL`` as the example says for systemd, and mail through SMTP to a local server), the
   owner's URL in ``migrate.env`` from ``deploy/migrate.env.example``;
4. ``hanseweb-migrate`` (migrations as the owner), then ``collectstatic`` exactly as the README
   runs it (``sh -c 'set -a; . env; ...'``);
5. web, worker, render and beat started with exactly the ``ExecStart`` command lines of
   ``deploy/systemd/*.service`` and their ``EnvironmentFile``s, read as systemd reads them; the
   only changes are the paths (/srv/hanseweb, /etc/hanseweb, /var/lib/hanseweb: the scratch
   directory) and gunicorn's port;
6. Debian's nginx with ``deploy/nginx.conf.example`` (host name, certificate paths and ports
   changed) and a self-signed certificate;
7. a smoke test through nginx over HTTPS: /healthz, static files, the admin, two sign-ups with
   the confirmation mails read from the SMTP server, a game created, joined and played a few
   moves, a turn mail sent through SMTP after a move, /healthz/full, the HTTP to HTTPS redirect.

Everything is stopped and dropped afterwards (``--keep`` keeps the scratch directory and its
logs). Exit status 0 when every step passed; each step is printed with its time.

    scripts/deploy_rehearsal [--keep] [--web-port 8827] [--https-port 8828] [--http-port 8829] [--smtp-port 8817]
"""
from __future__ import annotations

import argparse
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

HOST = "hanseweb.rehearsal.test"
PASSWORD = "a sturdy rehearsal passphrase"


class Failed(Exception):
    pass


def say(step: str, started: float) -> None:
    print(f"[{time.monotonic() - started:7.1f} s] {step}", flush=True)


def run(cmd, *, cwd=None, env=None, check=True, input=None, timeout=900) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, cwd=cwd, env=env, input=input, capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise Failed(f"{cmd if isinstance(cmd, str) else shlex.join(cmd)} exited {result.returncode}:\n"
                     f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def environment_file(path: Path) -> dict:
    """An EnvironmentFile as systemd reads it: KEY=VALUE lines, # and ; comments, surrounding
    quotes removed."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def unit(path: Path) -> dict:
    """The [Service] keys of a unit file (EnvironmentFile may repeat)."""
    service, section = {"EnvironmentFile": []}, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            if key == "EnvironmentFile":
                service["EnvironmentFile"].append(value)
            else:
                service[key] = value
    return service


def fill_env(example: Path, values: dict) -> str:
    """deploy/env.example with the values filled in: each variable keeps its place; a variable
    the example shows commented out is set when ``values`` has it."""
    out, done = [], set()
    for line in example.read_text().splitlines():
        m = re.match(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if m and m.group(1) in values:
            key = m.group(1)
            if key in done:
                continue
            value = values[key]
            quoted = m.group(2).strip()[:1] in ("'", '"')  # as an administrator edits it: the example's own form
            out.append(f'{key}="{value}"' if quoted else f"{key}={value}")
            done.add(key)
        else:
            out.append(line)
    for key, value in values.items():
        if key not in done:
            out.append(f"{key}={value}")
    return "\n".join(out) + "\n"


class Rehearsal:
    def __init__(self, args):
        self.args = args
        self.started = time.monotonic()
        self.root = Path(tempfile.mkdtemp(prefix="hanseweb-rehearsal-"))
        self.srv = self.root / "srv" / "hanseweb"
        self.etc = self.root / "etc" / "hanseweb"
        self.var = self.root / "var" / "lib" / "hanseweb"
        self.logs = self.root / "logs"
        tag = secrets.token_hex(3)
        self.owner, self.app, self.dbname = f"hwr_{tag}_owner", f"hwr_{tag}_app", f"hwr_{tag}"
        self.owner_password, self.app_password = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.processes: dict[str, subprocess.Popen] = {}
        self.smtp = None
        self.roles_made = False

    def step(self, text):
        say(text, self.started)

    # --- the README's steps ---------------------------------------------------------------

    def checkout(self):
        if self.args.checkout:  # a checkout kept by an earlier run (--keep): brought up to HEAD
            self.srv = Path(self.args.checkout).resolve()
            self.step(f"the kept checkout {self.srv} brought to {REPO}'s HEAD")
            run(["git", "-C", str(self.srv), "fetch", "-q", str(REPO), "HEAD"])
            run(["git", "-C", str(self.srv), "reset", "-q", "--hard", "FETCH_HEAD"])
        else:
            self.step(f"git clone of {REPO} (HEAD) into {self.srv}")
            self.srv.parent.mkdir(parents=True)
            run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(self.srv)])
        self.step("scripts/setup in the checkout (.venv with the pinned dependencies)")
        run(["scripts/setup"], cwd=self.srv, timeout=1800)

    def roles(self):
        self.step("deploy/postgres/roles.sql as PostgreSQL's superuser")
        run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-v", f"owner={self.owner}",
             "-v", f"owner_password={self.owner_password}", "-v", f"app={self.app}",
             "-v", f"app_password={self.app_password}", "-v", f"dbname={self.dbname}",
             "-f", str(self.srv / "deploy/postgres/roles.sql")])
        self.roles_made = True

    def configure(self):
        self.step("/etc/hanseweb/env from deploy/env.example, migrate.env from deploy/migrate.env.example")
        self.etc.mkdir(parents=True)
        self.var.mkdir(parents=True)
        self.logs.mkdir()
        a = self.args
        values = {
            "HANSEWEB_SECRET_KEY": secrets.token_urlsafe(50),
            "HANSEWEB_ALLOWED_HOSTS": HOST,
            "HANSEWEB_CSRF_TRUSTED_ORIGINS": f"https://{HOST}:{a.https_port}",
            "HANSEWEB_SITE_URL": f"https://{HOST}:{a.https_port}",
            "HANSEWEB_FROM_EMAIL": f"Hanseweb <noreply@{HOST}>",
            "DATABASE_URL": f"postgres://{self.app}:{self.app_password}@127.0.0.1:5432/{self.dbname}",
            "REDIS_URL": a.redis_url,
            "HANSEWEB_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "HANSEWEB_SMTP_HOST": "127.0.0.1", "HANSEWEB_SMTP_PORT": str(a.smtp_port),
            "HANSEWEB_SMTP_SECURITY": "none",
        }
        env = fill_env(self.srv / "deploy/env.example", values)
        # the Mailgun example lines are for an ESP; mail goes through SMTP here
        env = "\n".join(line for line in env.splitlines() if not line.startswith("ANYMAIL_MAILGUN_")) + "\n"
        (self.etc / "env").write_text(env)
        migrate = fill_env(self.srv / "deploy/migrate.env.example", {
            "MIGRATE_DATABASE_URL": f"postgres://{self.owner}:{self.owner_password}@127.0.0.1:5432/{self.dbname}"})
        (self.etc / "migrate.env").write_text(migrate)
        (self.etc / "migrate.env").chmod(0o600)

    def _paths(self, text: str) -> str:
        return (text.replace("/srv/hanseweb", str(self.srv)).replace("/etc/hanseweb", str(self.etc))
                .replace("/var/lib/hanseweb", str(self.var)))

    def _unit_env(self, service: dict) -> dict:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        for name in service["EnvironmentFile"]:
            env.update(environment_file(Path(self._paths(name))))
        return env

    def _start(self, name: str):
        service = unit(self.srv / "deploy/systemd" / f"{name}.service")
        command = self._paths(service["ExecStart"])
        if name == "hanseweb-web":
            command = command.replace("--bind 127.0.0.1:8000", f"--bind 127.0.0.1:{self.args.web_port}")
        env = self._unit_env(service)
        log = open(self.logs / f"{name}.log", "w")
        argv = shlex.split(command)
        (self.logs / f"{name}.command").write_text(command + "\n")
        if service.get("Type") == "oneshot":
            result = subprocess.run(argv, cwd=self._paths(service["WorkingDirectory"]), env=env, stdout=log,
                                    stderr=subprocess.STDOUT, timeout=900)
            if result.returncode:
                raise Failed(f"{name} exited {result.returncode}: {(self.logs / f'{name}.log').read_text()[-3000:]}")
            return
        self.processes[name] = subprocess.Popen(argv, cwd=self._paths(service["WorkingDirectory"]), env=env,
                                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def migrate_and_static(self):
        self.step("hanseweb-migrate (its ExecStart: migrations as the owner role)")
        self._start("hanseweb-migrate")
        self.step("collectstatic exactly as the README runs it")
        run(["sh", "-c", f"set -a; . {self.etc}/env; .venv/bin/python manage.py collectstatic --noinput"],
            cwd=self.srv, env={"PATH": os.environ["PATH"]})
        run(["sh", "-c", f"set -a; . {self.etc}/env; .venv/bin/python manage.py createsuperuser --noinput "
                         f"--email admin@{HOST} --display_name Admin"],
            cwd=self.srv, env={"PATH": os.environ["PATH"], "DJANGO_SUPERUSER_PASSWORD": PASSWORD}, check=False)

    def services(self):
        for name in ("hanseweb-web", "hanseweb-worker", "hanseweb-render", "hanseweb-beat"):
            self.step(f"{name}: its ExecStart (deploy/systemd/{name}.service)")
            self._start(name)

    def nginx(self):
        self.step("nginx with deploy/nginx.conf.example and a self-signed certificate")
        ngx = self.root / "nginx"
        ngx.mkdir()
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={HOST}",
             "-addext", f"subjectAltName=DNS:{HOST}", "-keyout", str(ngx / "privkey.pem"), "-out", str(ngx / "fullchain.pem")])
        a = self.args
        site = (self.srv / "deploy/nginx.conf.example").read_text()
        site = site.replace("hanseweb.example.org", HOST)
        site = site.replace(f"/etc/letsencrypt/live/{HOST}/", f"{ngx}/")
        site = site.replace("listen 443 ssl", f"listen 127.0.0.1:{a.https_port} ssl")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{a.http_port};")
        site = site.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{a.web_port}")
        (ngx / "site.conf").write_text(site)
        # the main configuration of Debian's /etc/nginx/nginx.conf that matters, with paths in the scratch directory
        (ngx / "nginx.conf").write_text(f"""worker_processes 1;
pid {ngx}/nginx.pid;
error_log {ngx}/error.log;
daemon off;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    ssl_protocols TLSv1.2 TLSv1.3;
    access_log {ngx}/access.log;
    client_body_temp_path {ngx}/body; proxy_temp_path {ngx}/proxy;
    fastcgi_temp_path {ngx}/fastcgi; uwsgi_temp_path {ngx}/uwsgi; scgi_temp_path {ngx}/scgi;
    include {ngx}/site.conf;
}}
""")
        run(["nginx", "-t", "-c", str(ngx / "nginx.conf"), "-p", str(ngx)])
        log = open(self.logs / "nginx.log", "w")
        self.processes["nginx"] = subprocess.Popen(["nginx", "-c", str(ngx / "nginx.conf"), "-p", str(ngx)],
                                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.ca = ngx / "fullchain.pem"

    def smtp_server(self):
        from aiosmtpd.controller import Controller

        from tests.smtp_server import Sink

        self.sink = Sink()
        self.smtp = Controller(self.sink, hostname="127.0.0.1", port=self.args.smtp_port)
        self.smtp.start()

    # --- the smoke test --------------------------------------------------------------------

    def smoke(self):
        import requests

        from tests.embedded_server import forms_of, share_link

        a = self.args
        base = f"https://{HOST}:{a.https_port}"

        def session():
            s = requests.Session()
            s.trust_env = False  # else REQUESTS_CA_BUNDLE of the environment wins over verify
            s.verify = str(self.ca)
            return s

        # requests resolves HOST through the system: point it at 127.0.0.1 for this process
        real = socket.getaddrinfo

        def getaddrinfo(host, *args, **kwargs):
            return real("127.0.0.1" if host == HOST else host, *args, **kwargs)

        socket.getaddrinfo = getaddrinfo
        web = session()
        self._wait(lambda: web.get(f"{base}/healthz", timeout=5).status_code == 200, "the web through nginx", 90)
        self.step("GET /healthz over HTTPS through nginx")
        r = web.get(f"{base}/healthz", timeout=10)
        expect(r.status_code == 200 and r.text == "ok\n", f"/healthz: {r.status_code} {r.text!r}")
        self.step("static files (collectstatic, WhiteNoise) and the admin")
        r = web.get(f"{base}/static/hanseweb.css", timeout=10)
        expect(r.status_code == 200 and "text/css" in r.headers.get("Content-Type", ""), f"css: {r.status_code}")
        r = web.get(f"{base}/admin/login/", timeout=10)
        expect(r.status_code == 200 and "Django" in r.text, f"admin: {r.status_code}")
        css = re.search(r'href="(/static/admin/css/[^"]+)"', r.text)
        expect(css and web.get(base + css.group(1), timeout=10).status_code == 200, "admin css")
        fields = forms_of(r.text).forms.get("login-form", {}).get("fields", {})
        r = web.post(f"{base}/admin/login/?next=/admin/", {**fields, "username": f"admin@{HOST}",
                                                            "password": PASSWORD}, timeout=10,
                     headers={"Referer": f"{base}/admin/login/"})
        expect("Site administration" in r.text, f"admin login: {r.status_code} {r.text[-500:]}")
        r = web.get(f"{base}/admin/mail/outboundemail/?delivery=failed", timeout=10)
        expect(r.status_code == 200, f"admin outbox: {r.status_code}")

        players = []
        for name in ("alice", "bert"):
            self.step(f"sign up {name}, confirm by the mailed link")
            s = session()
            page = s.get(f"{base}/accounts/signup/", timeout=10)
            form = next(f for f in forms_of(page.text).forms.values() if "password1" in f["fields"])
            email = f"{name}@{HOST}"
            before = len(self.sink.messages)
            r = s.post(f"{base}/accounts/signup/", {**form["fields"], "email": email, "display_name": name.title(),
                                                    "password1": PASSWORD, "password2": PASSWORD},
                       headers={"Referer": f"{base}/accounts/signup/"}, timeout=20)
            expect(r.status_code == 200, f"sign-up: {r.status_code} {r.text[-800:]}")
            mail = self._mail_to(email, before, 60)
            link = re.search(re.escape(base) + r"/accounts/confirm/\S+/", _text(mail))
            expect(link, f"no confirmation link in {_text(mail)[:800]}")
            r = s.get(link.group(0), timeout=10)
            expect(r.status_code == 200, f"confirm: {r.status_code}")
            page = s.get(f"{base}/accounts/login/", timeout=10)
            fields = forms_of(page.text).forms["login-form"]["fields"]
            r = s.post(f"{base}/accounts/login/", {**fields, "username": email, "password": PASSWORD},
                       headers={"Referer": f"{base}/accounts/login/"}, timeout=10)
            expect("Log out" in r.text, f"login of {email}: {r.status_code} {r.text[-800:]}")
            players.append((email, s))

        self.step("create a game of Hansa, the second player joins by the link")
        (alice, sa), (bert, sb) = players
        page = sa.get(f"{base}/games/new/?engine=hansa", timeout=10)
        fields = forms_of(page.text).forms["create-form"]["fields"]
        fields.update(engine="hansa", players="2", title="Rehearsal", seat_order="joined", listed="invite", create="1")
        r = sa.post(f"{base}/games/new/", fields, headers={"Referer": f"{base}/games/new/"}, timeout=20)
        expect("/games/" in r.url, f"create: {r.status_code} {r.text[-800:]}")
        pk = int(r.url.rstrip("/").split("/")[-1])
        # nginx passes `Host: $host`, which has no port: on this run's port (not 443) the page's
        # absolute links lack it, so the join link is taken relative to the site
        link = base + urlsplit(share_link(r.text)).path
        page = sb.get(link, timeout=10)
        form = forms_of(page.text).forms["join-form"]
        r = sb.post(urljoin(base, form["action"]), form["fields"], headers={"Referer": link}, timeout=20)
        expect("You have joined" in r.text, f"join: {r.status_code} {r.text[-800:]}")

        self.step("play moves; each move's turn mail goes out through the workers and SMTP")
        played = 0
        before_moves = len(self.sink.messages)
        for _ in range(40):
            if played >= 4:
                break
            moved = False
            for email, s in players:
                page = s.get(f"{base}/games/{pk}/", timeout=20)
                form = forms_of(page.text).forms.get("move-form")
                if form is None:
                    continue
                moves = [value for name, value, cls in form["buttons"] if name == "move" and "undo" not in cls]
                if not moves:
                    continue
                before = len(self.sink.messages)
                r = s.post(f"{base}/games/{pk}/move/", {**form["fields"], "move": moves[0]},
                           headers={"Referer": f"{base}/games/{pk}/"}, timeout=20)
                expect(r.status_code == 200 and 'class="error"' not in r.text, f"move: {r.status_code}")
                played += 1
                moved = True
                break
            if not moved:
                time.sleep(0.5)
        expect(played >= 4, f"only {played} moves played")
        turn_mails = self._wait(lambda: [m for m in self.sink.messages if "Your turn" in (m["Subject"] or "")],
                                "turn mails through SMTP", 60)
        self._wait(lambda: [m for m in self.sink.messages[before_moves:] if "Your turn" in (m["Subject"] or "")],
                   "a turn mail made by a move (render worker, sending worker, SMTP)", 60)
        self.step(f"{len(turn_mails)} turn mails received by the SMTP server "
                  f"(subjects: {sorted({m['Subject'] for m in turn_mails})})")
        expect(all(m["Message-ID"] for m in turn_mails), "turn mails without Message-ID")
        self._wait(lambda: web.get(f"{base}/healthz/full", timeout=10).json()["mail"]["waiting"] == 0,
                   "every mail sent", 90)
        r = web.get(f"{base}/healthz/full", timeout=10)
        body = r.json()
        self.step(f"/healthz/full: {r.status_code} {body['status']} (database {body['database']}, cache "
                  f"{body['cache']}, broker {body['broker']}, mail waiting {body['mail']['waiting']})")
        expect(r.status_code == 200 and body["status"] == "ok", f"/healthz/full: {body}")
        r = session().get(f"http://127.0.0.1:{a.http_port}/", headers={"Host": HOST}, allow_redirects=False, timeout=10)
        expect(r.status_code == 301 and r.headers["Location"].startswith(f"https://{HOST}"),
               f"http: {r.status_code} {r.headers.get('Location')}")
        self.step("HTTP answers 301 to HTTPS")

    def _mail_to(self, address: str, after: int, timeout: float):
        found = self._wait(lambda: next((m for m in self.sink.messages[after:] if address in (m["To"] or "")), None),
                           f"a mail to {address}", timeout)
        return found

    def _wait(self, check, what: str, timeout: float):
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                result = check()
            except Exception as exc:  # noqa: BLE001 - not up yet
                last, result = exc, None
            if result:
                return result
            for name, proc in self.processes.items():
                if proc.poll() is not None:
                    raise Failed(f"{name} exited {proc.returncode}:\n{(self.logs / f'{name}.log').read_text()[-3000:]}")
            time.sleep(0.5)
        raise Failed(f"waited {timeout} s for {what}" + (f" (last error: {last})" if last else ""))

    # --- tearing down ----------------------------------------------------------------------

    def stop(self):
        for name, proc in self.processes.items():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for name, proc in self.processes.items():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        if self.smtp is not None:
            self.smtp.stop()
        if self.roles_made:
            for sql in (f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)', f'DROP ROLE IF EXISTS "{self.owner}"',
                        f'DROP ROLE IF EXISTS "{self.app}"'):
                run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-c", sql], check=False)
        if not self.args.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            print(f"kept: {self.root} (logs in {self.logs})")


def urljoin(base, path):
    return path if path.startswith("http") else base + path


def expect(condition, message: str) -> None:
    if not condition:
        raise Failed(message)


def _text(message) -> str:
    if message.is_multipart():
        for part in message.walk():
            if part.get_content_type() == "text/plain":
                return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    return message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory and its logs")
    parser.add_argument("--checkout", help="reuse the checkout (with its .venv) of a kept run: quicker")
    parser.add_argument("--web-port", type=int, default=8827)
    parser.add_argument("--https-port", type=int, default=8828)
    parser.add_argument("--http-port", type=int, default=8829)
    parser.add_argument("--smtp-port", type=int, default=8817)
    parser.add_argument("--redis-url", default=os.environ.get("HANSEWEB_REHEARSAL_REDIS_URL", "redis://127.0.0.1:6379/7"))
    args = parser.parse_args()
    if not shutil.which("nginx"):
        print("Debian's nginx is missing: apt-get install nginx-light (or nginx)", file=sys.stderr)
        return 2
    rehearsal = Rehearsal(args)
    try:
        rehearsal.checkout()
        rehearsal.roles()
        rehearsal.configure()
        rehearsal.smtp_server()
        rehearsal.migrate_and_static()
        rehearsal.services()
        rehearsal.nginx()
        rehearsal.smoke()
    except Failed as exc:
        print(f"REHEARSAL FAILED: {exc}", file=sys.stderr)
        for log in sorted(rehearsal.logs.glob("*.log")) if rehearsal.logs.exists() else []:
            print(f"--- {log.name} (end) ---\n{log.read_text()[-1500:]}", file=sys.stderr)
        return 1
    finally:
        rehearsal.stop()
    say("rehearsal passed", rehearsal.started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
