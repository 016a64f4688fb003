"""A small threaded HTTP server for a published site, with Range support so audio seeks.

Binds 127.0.0.1 by default: it is a preview server, not a public web server. Files
are looked up on every request, so a publish that swaps OUT is served at once.
"""

from __future__ import annotations

import http.server
import os
import re
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import InputError, PublishError

_RANGE = re.compile(r"bytes=(\d*)-(\d*)")
_TYPES = {".vtt": "text/vtt", ".mp3": "audio/mpeg", ".xml": "application/rss+xml",
          ".json": "application/json", ".js": "text/javascript"}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files plus single byte ranges (206, Content-Range, Accept-Ranges)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **_TYPES}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        # Dotfiles (the manifest, editor leftovers) are not part of the site.
        if any(part.startswith(".") for part in self.path.split("?")[0].split("/")):
            self.send_error(404, "File not found")
            return None
        header = self.headers.get("Range")
        if header is None or path.is_dir() or not path.is_file():
            return super().send_head()
        m = _RANGE.fullmatch(header.strip())
        size = path.stat().st_size
        if m is None or (not m.group(1) and not m.group(2)):
            return super().send_head()  # multi-range or malformed: whole file, as RFC 9110 allows
        if m.group(1):
            start = int(m.group(1))
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
        else:
            start, end = max(0, size - int(m.group(2))), size - 1
        if start >= size or start > end:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        fh = open(path, "rb")  # noqa: SIM115 - closed by copyfile below
        fh.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self._remaining: int | None = end - start + 1
        return fh

    def copyfile(self, source: Any, outputfile: Any) -> None:
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            shutil.copyfileobj(source, outputfile)
            return
        self._remaining = None
        while remaining > 0:
            chunk = source.read(min(64 * 1024, remaining))
            if not chunk:
                break
            outputfile.write(chunk)
            remaining -= len(chunk)


def make_server(out: Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.HTTPServer:
    """A bound, not yet running server for OUT (port 0 picks a free port)."""
    if not out.is_dir():
        raise InputError(f"{out} is not a folder; run `mergecast publish --out {out}` first")
    handler = partial(Handler, directory=os.path.abspath(out))
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise PublishError(
            f"cannot listen on {host}:{port}: {exc.strerror}; pick another --port"
        ) from exc
    server.daemon_threads = True
    return server


def serve(
    out: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve OUT until interrupted; `announce(url)` is told the address once listening."""
    server = make_server(out, host, port)
    with server:
        bound_host, bound_port = str(server.server_address[0]), server.server_address[1]
        if announce is not None:
            shown = f"[{bound_host}]" if ":" in bound_host else bound_host
            announce(f"http://{shown}:{bound_port}/")
        server.serve_forever()
