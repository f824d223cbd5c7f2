from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "hanseweb.accounts"
    label = "accounts"
    verbose_name = "Accounts"
