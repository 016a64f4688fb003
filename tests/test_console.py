"""The console: every line it writes is scrubbed of the secrets the process holds."""

from __future__ import annotations

import io
import logging

from mergecast import redact
from mergecast.console import Console, attach_log

SECRET = "sk-consolesecretvalue"


def test_a_warning_or_log_line_never_prints_a_secret_the_process_holds():
    redact.remember(SECRET)
    out = io.StringIO()
    console = Console(stream=out, tty=False)
    console.warn(f"server said: bad key {SECRET}")
    console.line(f"plain {SECRET[:12]}")
    detach = attach_log(console)
    try:
        logging.getLogger("mergecast.test").warning("echo %s", SECRET)
    finally:
        detach()
    text = out.getvalue()
    assert SECRET[:8] not in text and SECRET[-8:] not in text, text
    assert text.count("\n") == 3 and "server said: bad key" in text
