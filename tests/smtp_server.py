"""A real SMTP server for tests (aiosmtpd on a free local port) that keeps what it receives.

``hold``: seconds the server waits, after it has stored a message, before it answers the final
"." of the first ``hold_first`` messages: a sending worker is then mid-send, its mail already in
the server's hands, for as long as a test needs to kill it."""
from __future__ import annotations

import contextlib
import email
import socket
import threading
import time

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, hold: float = 0.0, hold_first: int = 0):
        self.messages: list[email.message.Message] = []
        self.hold, self.hold_first = hold, hold_first
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        import asyncio

        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.original_content or envelope.content))
            held = len(self.messages) <= self.hold_first
        if held:
            await asyncio.sleep(self.hold)
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.messages) >= count:
                return True
            time.sleep(0.1)
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def smtp_server(hold: float = 0.0, hold_first: int = 0, port: int | None = None):
    """Yields ``(sink, port)``."""
    sink = Sink(hold, hold_first)
    controller = Controller(sink, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    try:
        yield sink, controller.port
    finally:
        controller.stop()
