from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "hanseweb.mail"
    label = "mail"
    verbose_name = "Mail"

    def ready(self):
        from django.core.signals import request_finished, request_started

        from . import checks, inbound, outbox  # noqa: F401  (registers the checks, connects the inbound signal)

        # in-process (eager) tasks of a web request run once its response has gone out (outbox.enqueue)
        request_started.connect(outbox.request_started, dispatch_uid="hanseweb.mail.request_started")
        request_finished.connect(outbox.request_finished, dispatch_uid="hanseweb.mail.request_finished")
