"""The admin: games, seats and moves for staff to look at.

A game that has started is defined by its log: its engine, player count, options, status and seats
are what every logged move was played against, so started games and their seats are read-only here
(no change, no delete). Changing a game goes through ``games.services`` (resign, time out). An open
game may still be renamed, re-listed, given another deadline or seat order, have a seat removed,
or be deleted.
"""
from django.contrib import admin

from .models import Game, Move, Seat


def _started(game) -> bool:
    return game is not None and game.status != Game.OPEN


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "resigned", "seen_seq", "options"]
    readonly_fields = fields  # seats are taken through the join page, never edited here

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return not _started(obj) and super().has_delete_permission(request, obj)


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
    # What the engine was set up with and what the write path derives: never edited here.
    readonly_fields = ["engine", "players", "options", "status", "created_by", "move_count", "to_act", "deadline_at",
                       "started_at", "finished_at", "result", "last_move_at", "invite_code"]
    exclude = ["state_cache", "state_seq"]  # derived, and holds hidden information
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):
        return False  # games are created through the site (services.create_game)

    def has_change_permission(self, request, obj=None):
        return not _started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _started(obj) and super().has_delete_permission(request, obj)


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
    readonly_fields = ["game", "number", "user", "options", "resigned", "resigned_at", "seen_seq", "decision_seq", "reminded_seq"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return not _started(obj.game if obj else None) and super().has_delete_permission(request, obj)
