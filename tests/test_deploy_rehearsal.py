"""Issue 29.8: deploy/README.md's plain-host path, rehearsed end to end on this machine by
``scripts/deploy_rehearsal`` (a scratch checkout, the two roles of deploy/postgres/roles.sql,
migrations as the owner, collectstatic, web/worker/render/beat with the systemd units' command
lines and deploy/env.example's variables, Debian's nginx with deploy/nginx.conf.example over
HTTPS, a smoke test including turn mails through a local SMTP server).

It takes 3-5 minutes (most of it ``scripts/setup`` in the fresh checkout), needs root, nginx and
the ports 8817 and 8827-8829, so it is not part of the default run:

    HANSEWEB_DEPLOY_REHEARSAL=1 scripts/test tests/test_deploy_rehearsal.py -m deploy
"""
import os
import subprocess
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.deploy,
    pytest.mark.skipif(os.environ.get("HANSEWEB_DEPLOY_REHEARSAL") != "1",
                       reason="the deploy rehearsal runs only with HANSEWEB_DEPLOY_REHEARSAL=1 (3-5 minutes)"),
]


def test_the_plain_host_deploy_path_works_end_to_end():
    repo = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL", "HANSEWEB_", "CELERY_",
                                                                     "DJANGO_"))}
    result = subprocess.run([str(repo / "scripts" / "deploy_rehearsal")], cwd=repo, env=env, capture_output=True,
                            text=True, timeout=1800)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-5000:]
    for step in ["deploy/postgres/roles.sql", "hanseweb-migrate", "collectstatic", "hanseweb-beat",
                 "GET /healthz over HTTPS through nginx", "turn mails received by the SMTP server",
                 "/healthz/full: 200 ok", "HTTP answers 301 to HTTPS", "rehearsal passed"]:
        assert step in result.stdout, step
