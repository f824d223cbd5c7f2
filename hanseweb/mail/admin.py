from django.contrib import admin

from .models import OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "kind", "to", "subject", "sent_at", "attempts"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter)]
    search_fields = ["to", "subject"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]

    def has_add_permission(self, request):
        return False
