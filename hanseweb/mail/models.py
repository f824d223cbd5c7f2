from django.conf import settings
from django.db import models


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
    no accepted email is lost; a Celery task processes it after commit and the sweep retries."""

    PENDING, ACCEPTED, REJECTED, IGNORED = "pending", "accepted", "rejected", "ignored"
    STATUS_CHOICES = [(PENDING, "pending"), (ACCEPTED, "accepted"), (REJECTED, "rejected"), (IGNORED, "ignored")]

    received_at = models.DateTimeField(auto_now_add=True)
    sender = models.CharField(max_length=320)
    recipients = models.JSONField(default=list)
    subject = models.CharField(max_length=300, blank=True)
    text = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PENDING, db_index=True)
    outcome = models.TextField(blank=True, help_text="what was done, or why not")
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"from {self.sender}: {self.subject} ({self.status})"
