from django.urls import path

from . import chat_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.create, name="create_game"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/status/", views.game_status, name="game_status"),
    path("games/<int:pk>/log/", views.game_log, name="game_log"),
    path("games/<int:pk>/export.json", views.game_export, name="game_export"),
    path("games/<int:pk>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:pk>/move/", views.submit_move, name="submit_move"),
    path("games/<int:pk>/join/", views.join, name="join"),
    path("games/<int:pk>/start/", views.start, name="start"),
    path("games/<int:pk>/leave/", views.leave, name="leave"),
    path("games/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("games/<int:pk>/resign/", views.resign, name="resign"),
    path("games/<int:pk>/chat/", chat_views.history, name="chat_history"),
    path("games/<int:pk>/chat/post/", chat_views.post, name="chat_post"),
    path("games/<int:pk>/chat/<int:message_id>/hide/", chat_views.hide, name="chat_hide"),
    path("games/<int:pk>/chat/mute/", chat_views.mute, name="chat_mute"),
    path("games/<int:pk>/notes/", chat_views.note, name="seat_note"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("join/<slug:code>/", views.join_by_code, name="join_by_code"),  # codes are URL-safe base64
]
