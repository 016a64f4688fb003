"""A small threaded HTTP server for a published site, with Range support so audio seeks.

Binds 127.0.0.1 by default: it is a preview server, not a public web server. Files
are looked up on every request, so a publish that swaps OUT is served at once.

Requests are hostile input too: the dotfile check runs on the decoded path (so
`/%2emergecast-manifest.json` is a dotfile), a path the filesystem cannot hold (`/%00`)
is a 404, and a Range header's numbers are read at most 18 digits long (Python refuses
to convert 4,300 and more), so no request can end in a traceback.
"""

from __future__ import annotations

import errno
import http.server
import os
import re
import shutil
import socket
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import InputError, PublishError

_RANGE = re.compile(r"bytes=([0-9]*)-([0-9]*)")
_FAR = 10**18  # any longer Range number means "past the end of every file"
_TYPES = {".vtt": "text/vtt", ".mp3": "audio/mpeg", ".xml": "application/rss+xml",
          ".json": "application/json", ".js": "text/javascript"}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files plus single byte ranges (206, Content-Range, Accept-Ranges)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **_TYPES}
    _remaining: int | None = None  # bytes left of a 206 answer (None: the whole file)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def send_head(self) -> Any:
        self._remaining = None
        root = Path(self.directory)
        path = Path(self.translate_path(self.path))
        try:
            # Dotfiles (the manifest, editor leftovers) are not part of the site; the check
            # runs on the decoded path, as the filesystem will see it.
            hidden = any(part.startswith(".") for part in path.relative_to(root).parts)
            if hidden or "\0" in str(path):
                self.send_error(404, "File not found")
                return None
            header = self.headers.get("Range")
            if header is None or path.is_dir() or not path.is_file():
                return super().send_head()
            size = path.stat().st_size
        except (ValueError, OSError):  # outside the root, unstatable, gone since
            self.send_error(404, "File not found")
            return None
        m = _RANGE.fullmatch(header.strip())
        if m is None or (not m.group(1) and not m.group(2)):
            return super().send_head()  # multi-range or malformed: whole file, as RFC 9110 allows
        if m.group(1):
            start = _number(m.group(1))
            end = min(_number(m.group(2)), size - 1) if m.group(2) else size - 1
        else:
            start, end = max(0, size - _number(m.group(2))), size - 1
        if start >= size or start > end:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed by copyfile below
        except OSError:
            self.send_error(404, "File not found")
            return None
        fh.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self._remaining = end - start + 1
        return fh

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """A folder without index.html is not a page of the site (and a listing would show
        its dotfiles)."""
        self.send_error(404, "File not found")

    def copyfile(self, source: Any, outputfile: Any) -> None:
        remaining = self._remaining
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


def _number(digits: str) -> int:
    return int(digits) if len(digits) <= 18 else _FAR


class _Server(http.server.ThreadingHTTPServer):
    pass


class _Server6(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6


def make_server(out: Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.HTTPServer:
    """A bound, not yet running server for OUT (port 0 picks a free port); IPv6 hosts too."""
    if not out.is_dir():
        raise InputError(f"{out} is not a folder; run `mergecast publish --out {out}` first")
    if Path(os.path.realpath(out)).parent == Path(os.path.realpath(out)):
        # every file of the machine a dot-free path reaches, like `--out /` everywhere else
        raise InputError(f"cannot serve {out}: it is the root folder, not a site; pass --out "
                         "with the site folder, such as ./site")
    handler = partial(Handler, directory=os.path.abspath(out))
    kind = _Server6 if ":" in host else _Server
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        server = kind((host.strip("[]"), port), handler)
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            fix = "pick another --port"
        else:
            fix = "check --host names an address of this machine, such as 127.0.0.1 or ::1"
        raise PublishError(
            f"cannot listen on {shown}: {exc.strerror or exc}; {fix}"
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
