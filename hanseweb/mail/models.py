from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class OutboundEmail(models.Model):
    """One email, rendered and stored in the transaction that caused it (the outbox).

    A Celery worker sends it after commit; the beat sweep retries what is still unsent, so a
    crash between commit and send loses nothing.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    to = models.EmailField()
    kind = models.CharField(max_length=40)
    subject = models.CharField(max_length=300)
    text = models.TextField()
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    # An SVG picture sent as an inline PNG (Content-ID <board@hanseweb>); the worker converts it
    # (hanseweb.mail.images), so the transaction that queues the mail does not.
    inline_svg = models.TextField(blank=True)
    # A mail queued to be rendered by the worker that sends it (``hanseweb.mail.renderers``):
    # the registered renderer's name and its parameters; cleared when the row has been rendered.
    render = models.JSONField(null=True, blank=True, help_text='rendered by the sending worker: {"name": renderer, "params": {...}}; cleared once rendered')
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # The Message-ID header, fixed when the row is queued and sent with every attempt.
    message_id = models.CharField(max_length=300, unique=True)
    # The ESP's own id of the accepted message (anymail_status.message_id).
    esp_message_id = models.CharField(max_length=300, blank=True)
    # Retries (hanseweb.mail.tasks): after a failed attempt the row waits until next_attempt_at
    # (exponential backoff); a mail still unsent HANSEWEB_MAIL_RETRY_HOURS after it was queued is
    # given up as "failed", and a mail about a decision that has passed as "obsolete".
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # Set (and committed) before each attempt is handed to the ESP, cleared when its outcome is
    # recorded: a row still "sending" long after that attempt began may have gone out.
    sending_since = models.DateTimeField(null=True, blank=True)
    possible_duplicates = models.PositiveIntegerField(
        default=0, help_text="attempts begun after an earlier one that never recorded its outcome (it may have been delivered)")
    given_up_at = models.DateTimeField(null=True, blank=True)
    FAILED, OBSOLETE = "failed", "obsolete"
    given_up_reason = models.CharField(max_length=16, blank=True, choices=[(FAILED, "failed"), (OBSOLETE, "obsolete")])
    # Worth sending only while a registered check says so (hanseweb.mail.relevance): e.g. a turn
    # mail while its decision is still the seat's. {"name": check, "params": {...}}
    wanted_while = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at", "created_at"]),
                   models.Index(fields=["next_attempt_at"], condition=models.Q(sent_at__isnull=True),
                                name="mail_outbox_unsent_due"),
                   # retention (tasks.delete_old_mail): the rows given up, by when
                   models.Index(fields=["given_up_at", "id"], condition=models.Q(given_up_at__isnull=False),
                                name="mail_outbox_given_up")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}: {self.subject}"


class InboundEmail(models.Model):
    """One received email (a reply to a turn mail), stored before anything else happens to it, so
    no accepted email is lost; a Celery task processes it after commit and the sweep retries.

    ``raw`` keeps what the ESP posted, byte for byte, whatever it holds (NUL bytes, invalid UTF-8);
    the text fields are sanitised copies that PostgreSQL can store. A post that could not be read
    at all is kept as ``unreadable`` with the error in ``outcome``."""

    PENDING, ACCEPTED, REJECTED, IGNORED, UNREADABLE = "pending", "accepted", "rejected", "ignored", "unreadable"
    REPEAT = "repeat"  # a second copy of a mail already received (same Message-ID or ESP event): never answered
    STATUS_CHOICES = [(PENDING, "pending"), (ACCEPTED, "accepted"), (REJECTED, "rejected"), (IGNORED, "ignored"),
                      (UNREADABLE, "unreadable"), (REPEAT, "repeat")]

    received_at = models.DateTimeField(auto_now_add=True)
    sender = models.CharField(max_length=320)
    recipients = models.JSONField(default=list)
    subject = models.CharField(max_length=300, blank=True)
    text = models.TextField(blank=True, help_text=_("the text read for moves (an HTML-only mail converted to text)"))
    esp = models.CharField(max_length=40, blank=True, help_text=_("the ESP whose webhook delivered it"))
    raw = models.BinaryField(blank=True, default=bytes, help_text=_("what the ESP posted, byte for byte"))
    raw_content_type = models.CharField(max_length=200, blank=True)
    headers = models.JSONField(default=list, blank=True,
                               help_text=_("the mail's headers as [name, value] pairs (sanitised, bounded)"))
    spam_detected = models.BooleanField(null=True, blank=True, help_text=_("the ESP's spam verdict, if it gives one"))
    spam_score = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PENDING, db_index=True)
    outcome = models.TextField(blank=True, help_text=_("what was done, or why not"))
    processed_at = models.DateTimeField(null=True, blank=True)
    # De-duplication (an ESP retrying its webhook, an IMAP message taken twice): the mail's own
    # Message-ID and the ESP's event id; a repeat is stored pointing at the first copy, ignored.
    message_id = models.CharField(max_length=300, blank=True)
    esp_event_id = models.CharField(max_length=300, blank=True)
    repeat_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="repeats")

    class Meta:
        ordering = ["-received_at"]
        indexes = [
            # retention (tasks.delete_old_mail): mail done with, by when it came
            models.Index(fields=["received_at", "id"], condition=~models.Q(status="pending"), name="mail_inbound_done"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["sender", "message_id"], name="mail_inbound_one_per_message_id",
                                    condition=models.Q(repeat_of__isnull=True) & ~models.Q(message_id="")),
            models.UniqueConstraint(fields=["esp", "esp_event_id"], name="mail_inbound_one_per_esp_event",
                                    condition=models.Q(repeat_of__isnull=True) & ~models.Q(esp_event_id="")),
        ]

    def __str__(self) -> str:
        return f"from {self.sender}: {self.subject} ({self.status})"
