from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "hanseweb.mail"
    label = "mail"
    verbose_name = "Outgoing mail"
