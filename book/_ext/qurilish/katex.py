"""Build side: the site's mathematics, rendered offline (a Sphinx extension).

No MathJax from a CDN (the pages ask nothing of another host): every formula is rendered
to HTML at build time by KaTeX (``sphinxcontrib-katex``, ``katex_prerender``, Node.js), and
the pages need only KaTeX's stylesheet and fonts, copied into ``_static/katex/`` from
Debian's ``libjs-katex``: the script that renders and the stylesheet that displays are
one release.
"""

from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path
from subprocess import PIPE, Popen

from sphinx.errors import ExtensionError
from sphinxcontrib.katex import KaTeXServer

KERAK = "apt-get install -y libjs-katex nodejs   (make book does this when run as root)"


def _sozla(app, config) -> None:
    config.html_math_renderer = "katex"
    config.katex_prerender = True
    config.katex_js_path = str(Path(config.kitob_katex_papkasi) / "katex.min.js")
    config.katex_css_path = "katex/katex.min.css"


def _nusxala(app) -> None:
    """Copy KaTeX's stylesheet and fonts into the site's static files."""
    if app.builder.format != "html":
        return
    KATEX = Path(app.config.kitob_katex_papkasi)
    if not (KATEX / "katex.min.js").is_file() or not (KATEX / "fonts").is_dir():
        raise ExtensionError(f"KaTeX is not installed at {KATEX}; install it with: {KERAK}")
    if shutil.which("node") is None:
        raise ExtensionError(f"Node.js (node) is needed to render the mathematics; install it with: {KERAK}")
    maqsad = Path(app.doctreedir).parent / "sayt_static"
    katex = maqsad / "katex"
    shutil.rmtree(katex, ignore_errors=True)         # gone or not: a copy afresh
    shutil.copytree(KATEX / "fonts", katex / "fonts")
    shutil.copy(KATEX / "katex.min.css", katex / "katex.min.css")
    if str(maqsad) not in app.config.html_static_path:
        app.config.html_static_path.append(str(maqsad))


def _server_process(cls, rundir, timeout):
    """sphinxcontrib-katex's server start, with its race mended.

    The original connects once as soon as the socket file exists; on a busy
    machine node has bound the socket but is not yet listening, and the build
    dies with ConnectionRefusedError.  This version retries until ``timeout``.
    """
    socket_path = rundir / "katex.sock"
    process = Popen(cls.build_command(socket=socket_path), stdin=PIPE, stdout=PIPE, cwd=rundir)
    muddat = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise ExtensionError(f"the KaTeX server (node) exited with code {process.returncode}")
        if socket_path.is_socket():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(str(socket_path))
                return process, sock
            except (ConnectionRefusedError, FileNotFoundError):
                sock.close()
        if time.monotonic() > muddat:
            process.kill()
            raise cls.timeout_error(timeout)
        time.sleep(0.01)


def setup(app):
    KaTeXServer.start_server_process = classmethod(_server_process)
    app.setup_extension("sphinxcontrib.katex")
    app.connect("config-inited", _sozla)
    app.connect("builder-inited", _nusxala)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
