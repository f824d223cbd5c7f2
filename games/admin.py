from django.contrib import admin

from .models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "resigned", "seen_seq", "options"]
    readonly_fields = ["number", "seen_seq"]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ["seq", "seat", "user", "text", "channel", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "title", "engine", "players", "status", "move_count", "created_by", "created_at"]
    list_filter = ["engine", "status"]
    search_fields = ["title", "created_by__email"]
    readonly_fields = ["move_count", "to_act", "deadline_at", "started_at", "finished_at", "result", "last_move_at", "invite_code"]
    exclude = ["state_cache", "state_seq"]  # derived, and holds hidden information
    inlines = [SeatInline, MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The move log: read-only. The database refuses updates and deletes as well."""

    list_display = ["game", "seq", "seat", "user", "text", "channel", "created_at"]
    list_filter = ["channel", "game__engine"]
    search_fields = ["text", "game__title"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "user", "resigned"]
    search_fields = ["user__email", "game__title"]
