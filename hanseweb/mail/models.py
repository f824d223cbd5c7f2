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

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}: {self.subject}"


class InboundEmail(models.Model):
    """One received email (a reply to a turn mail), stored before anything else happens to it, so
    no accepted email is lost; a Celery task processes it after commit and the sweep retries.

    ``raw`` keeps what the ESP posted, byte for byte, whatever it holds (NUL bytes, invalid UTF-8);
    the text fields are sanitised copies that PostgreSQL can store. A post that could not be read
    at all is kept as ``unreadable`` with the error in ``outcome``."""

    PENDING, ACCEPTED, REJECTED, IGNORED, UNREADABLE = "pending", "accepted", "rejected", "ignored", "unreadable"
    STATUS_CHOICES = [(PENDING, "pending"), (ACCEPTED, "accepted"), (REJECTED, "rejected"), (IGNORED, "ignored"),
                      (UNREADABLE, "unreadable")]

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

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"from {self.sender}: {self.subject} ({self.status})"
