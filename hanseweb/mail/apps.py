from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "hanseweb.mail"
    label = "mail"
    verbose_name = "Mail"

    def ready(self):
        from . import checks, inbound  # noqa: F401  (registers the checks, connects the inbound signal)
