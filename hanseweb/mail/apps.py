from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "hanseweb.mail"
    label = "mail"
    verbose_name = "Mail"

    def ready(self):
        from django.core.signals import request_finished, request_started

        from hanseweb import handover

        from . import checks, inbound  # noqa: F401  (registers the checks, connects the inbound signal)

        # in-process (eager) tasks of a web request run once its response has gone out
        # (hanseweb.handover.enqueue, which every app's tasks go through; the mail app connects it)
        request_started.connect(handover.request_started, dispatch_uid="hanseweb.handover.request_started")
        request_finished.connect(handover.request_finished, dispatch_uid="hanseweb.handover.request_finished")
