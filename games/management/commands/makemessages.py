"""``makemessages`` that also extracts the engines' ``N_("...")`` texts (docs/i18n.md).

The engines are pure Python and mark their English texts with the no-op ``N_``; Django's own
command knows only the gettext keywords, so this one adds ``N_`` to xgettext's keywords."""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=N_"]
