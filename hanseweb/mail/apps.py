from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "hanseweb.mail"
    label = "mail"
    verbose_name = "Mail"

    def ready(self):
        from . import inbound  # noqa: F401  (connects the anymail inbound signal)
