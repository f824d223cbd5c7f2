from anymail.backends.test import EmailBackend as Delivering


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs (not an Exception)."""


class EmailBackend(Delivering):
    """The ESP accepts the mail (anymail's test backend: into ``mail.outbox``), then the worker
    dies before it hears back."""

    def send_messages(self, email_messages):
        super().send_messages(email_messages)
        raise WorkerKilled()
