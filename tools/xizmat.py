"""The published site served as a static host serves it: compressed text (tests and ``make bench``).

``http.server`` sends every file as it lies on disk; a real static host
(GitHub Pages, Netlify, nginx with ``gzip_static on``) sends HTML, CSS,
JavaScript, SVG and JSON compressed.  The build writes a gzip twin next to each
such file (``x.css.gz``, ``book/_ext/qurilish/yakun.py``); this server sends the twin with
``Content-Encoding: gzip`` to a client that accepts gzip (every browser), and
the file itself to one that does not, as nginx's ``gzip_static`` does.  A twin
older than its file is an error, not something served silently: it would mean
the build wrote the file and not its twin.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import threading
from pathlib import Path


class Xost(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler that prefers a file's ``.gz`` twin when the client accepts gzip."""

    def log_message(self, *args):
        pass

    def _gzip_qabul(self) -> bool:
        qabul = self.headers.get("Accept-Encoding", "")
        return any(q.split(";")[0].strip() == "gzip" for q in qabul.split(","))

    def send_head(self):
        yol = Path(self.translate_path(self.path))
        if yol.is_dir():
            yol = yol / "index.html"
        egizak = yol.with_name(yol.name + ".gz")
        if not (self._gzip_qabul() and yol.is_file() and egizak.is_file()):
            return super().send_head()
        if egizak.stat().st_mtime < yol.stat().st_mtime:
            self.send_error(500, f"{egizak.name} is older than {yol.name}: the build did not rewrite it")
            return None
        f = open(egizak, "rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(yol)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(int(yol.stat().st_mtime)))
        self.end_headers()
        return f


@contextlib.contextmanager
def xizmat(papka: Path):
    """``papka`` served as a host serves it on a free local port while the block runs: its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Xost, directory=str(papka)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    # python tools/xizmat.py [folder] [port]: look at the site as a host serves it
    import sys

    papka = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "_build" / "sayt")
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    if not (papka / "index.html").is_file():
        raise SystemExit(f"xizmat: {papka} has no index.html; build the site first (make book)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Xost, directory=str(papka.resolve())))
    print(f"xizmat: {papka.resolve()} at http://127.0.0.1:{port}/ (gzip as a host sends it); Ctrl-C stops",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
