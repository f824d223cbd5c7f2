"""What the write path (``games.services``) announces, for whoever tells the players.

The write path does not know how mails are made: after a change it sends one of these signals
and ``games.notifications`` (connected in ``GamesConfig.ready``) queues the mails. The signals are
sent inside the change's transaction, so the outbox rows they queue commit with the move or not at
all (a mail is never lost, and never sent for a move that was rolled back).

This module imports nothing of the games app: services, notifications and tests all import it.
"""
from django.dispatch import Signal

# Seats have a new decision to make. kwargs: ``game`` (loaded with its seats and their users, the
# state after the change in ``game.state_cache``), ``seats`` (the seat numbers newly to act).
decisions_due = Signal()

# The game has ended. kwargs: ``game`` (its ``result`` set).
game_ended = Signal()

# A player left a running game that goes on (the autopilot plays the seat from now on). kwargs:
# ``game``, ``seat`` (the resigned seat, its ``user`` loaded).
seat_resigned = Signal()
