"""anymail's test backend that takes as long as an ESP's API to answer: ``BENCH_ESP_MS``
milliseconds per message (``scripts/bench_mail.py --config esp=50``). For benchmarks only."""
import os
import time

from anymail.backends.test import EmailBackend as TestBackend
from django.core import mail


class EmailBackend(TestBackend):
    def post_to_esp(self, payload, message):
        time.sleep(float(os.environ.get("BENCH_ESP_MS", "0")) / 1000)
        response = super().post_to_esp(payload, message)
        del mail.outbox[:-1]  # a long-running worker: keep only the message just sent
        return response
