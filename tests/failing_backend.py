from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    """An ESP that is down: every send raises."""

    def send_messages(self, email_messages):
        raise ConnectionError("the ESP refused the connection")
