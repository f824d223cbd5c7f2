"""``makemessages`` that also extracts the engines' ``N_("...")`` texts (docs/i18n.md).

The engines are pure Python and mark their English texts with the no-op ``N_``; Django's own
command knows only the gettext keywords, so this one adds ``N_`` to xgettext's keywords.
Run through ``scripts/i18n``."""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=N_"]
    # A new text starts untranslated rather than with a guessed ("fuzzy") translation of a similar one.
    msgmerge_options = makemessages.Command.msgmerge_options + ["--no-fuzzy-matching"]
