"""The author's live preview (``make preview``): the book on 127.0.0.1, rebuilt on save, the page reloaded.

``python tools/korish.py [ROOT] [--port PORT]`` (``make preview``, ``PORT`` 8001 by default):

* **One warm Sphinx application.**  The HTML builder is made once, as ``jupyter-book build``
  makes it (the same ``_config.yml``, table of contents and extensions, strict references),
  and kept in this process; every save runs its incremental build again.  A prose edit
  re-reads the pages it touches and writes them, without a new interpreter, the imports of
  the extensions and the environment's unpickling that a fresh ``jupyter-book build`` pays
  each time (``sphinx-autobuild`` starts one for every change).
* **The same HTML as ``make book``.**  The pages are written into ``_build/korish`` by the
  same builder, configuration and extensions; the server adds one script tag (the reload)
  to each page as it sends it, and nothing to the file.  The PDF is not rebuilt: the links
  to it get the last one ``make book`` made (``_build/latex``), and no gzip twins are
  written.  The executions are the build's own: the same jupyter-cache (a prose edit
  executes nothing; a code edit re-executes its lesson only) and the same store of
  trainings.  The published site, ``_build/sayt``, is never touched.
* **What a save does.**  A lesson, a page, ``chapter_code/``, ``book/_static``,
  ``book/_templates`` or ``locales/``: the warm application builds again.  ``_config.yml`` or
  ``_toc.yml``: a new application.  The build code itself (``book/_ext``): a new process.
* **Errors.**  A failing cell, a broken reference or any other warning is printed in the
  terminal and shown on the open page over the last good one; the preview keeps running,
  and the next save that fixes it clears it.
* **The lock.**  Each rebuild takes the book's build lock (``_build/.qurish.lock``, as
  ``make book`` and the tests do) and gives it back when it ends, so an idle preview never
  holds up ``make book`` or ``make test``; a rebuild waits for one of theirs.
"""

from __future__ import annotations

import argparse
import gc
import http.server
import io
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
from functools import partial
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
sys.path.insert(0, str(TOOLS.parent / "book" / "_ext"))
from qurilish import qulf  # noqa: E402
from qurish import ILDIZ, pdf_nomi, sphinx_sozlamasi, tekshir  # noqa: E402

#: what a save to which starts a new Sphinx application, or a new process
YANGI_ILOVA = {"_config.yml", "_toc.yml"}
YANGI_JARAYON = ("book/_ext/",)
#: folders and files watched (under the book's root)
KUZATILADI = ("book", "chapter_code", "locales", "_config.yml", "_toc.yml", "requirements.lock")
#: a terminal's colour codes, which the page shows as they are
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: the endpoints the page's script talks to
YOL = "/__korish__/"

#: The page's side: asks for the preview's state, waits for the next build, reloads after
#: it; shows the last build's errors over the page and a note while a build runs.
JONLI_JS = r"""(() => {
  const quti = document.createElement('div');
  quti.id = 'korish-holat';
  quti.setAttribute('role', 'status');
  quti.style.cssText = 'position:fixed;left:0;right:0;bottom:0;z-index:10000;max-height:45vh;'
    + 'overflow:auto;margin:0;padding:.6rem 1rem;font:14px/1.4 monospace;white-space:pre-wrap;'
    + 'display:none;color:#fff;background:#8b1a1a;box-shadow:0 -2px 8px rgba(0,0,0,.3)';
  document.body.append(quti);
  const korsat = h => {
    if (h.xato) {
      quti.style.background = '#8b1a1a';
      quti.textContent = 'Oxirgi yigʻish xato bilan tugadi:\n\n' + h.xato;
    } else if (h.qurilmoqda) {
      quti.style.background = '#1f4e79';
      quti.textContent = 'Yangilanmoqda…';
    }
    quti.style.display = h.xato || h.qurilmoqda ? 'block' : 'none';
    quti.scrollTop = quti.scrollHeight;     // a traceback's last lines name the error and the cell
  };
  let v = null, q = false;
  (async () => {
    for (;;) {
      try {
        const javob = await fetch('""" + YOL + r"""holat' + (v === null ? '' : '?v=' + v + '&q=' + (q ? 1 : 0)),
                                  {cache: 'no-store'});
        const h = await javob.json();
        if (v !== null && h.v !== v) { location.reload(); return; }
        v = h.v;
        q = h.qurilmoqda;
        korsat(h);
      } catch (e) {              // the preview restarts (book/_ext changed) or has stopped
        await new Promise(r => setTimeout(r, 500));
        if (v !== null) v = -1;  // whatever it says when it is back is new
      }
    }
  })();
})();
"""


class Holat:
    """The preview's state, which the pages wait on: a build's number, its errors, whether one runs."""

    def __init__(self):
        self.shart = threading.Condition()
        self.v = 0
        self.xato = ""
        self.qurilmoqda = False

    def ozgartir(self, **qiymatlar) -> None:
        with self.shart:
            for k, q in qiymatlar.items():
                setattr(self, k, q)
            self.shart.notify_all()

    def kut(self, v: int | None, qurilmoqda: bool | None, muddat: float = 25.0) -> dict:
        """The state, once it differs from what the page has (or after ``muddat`` s)."""
        with self.shart:
            if v is not None:
                self.shart.wait_for(lambda: self.v != v or self.qurilmoqda != qurilmoqda, muddat)
            return {"v": self.v, "xato": self.xato, "qurilmoqda": self.qurilmoqda}


class Korsatuvchi(http.server.SimpleHTTPRequestHandler):
    """The built pages, each with the reload script; the state; the last PDF ``make book`` made."""

    holat: Holat
    pdf: tuple[str, Path]

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")     # an edited stylesheet, not a cached one
        super().end_headers()

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == YOL + "holat":
            so = parse_qs(url.query)
            try:
                v = int(so["v"][0]) if "v" in so else None
            except ValueError:
                v = None
            holat = self.holat.kut(v, so.get("q", ["0"])[0] == "1")
            self._yubor(json.dumps(holat).encode(), "application/json")
            return
        if url.path == YOL + "jonli.js":
            self._yubor(JONLI_JS.encode(), "text/javascript; charset=utf-8")
            return
        if url.path == "/" + self.pdf[0] and self.pdf[1].is_file():
            self._yubor(self.pdf[1].read_bytes(), "application/pdf")
            return
        yol = Path(self.translate_path(url.path))
        if yol.is_dir():
            yol = yol / "index.html"
        if yol.suffix == ".html" and yol.is_file():
            html = yol.read_bytes()
            teg = f'<script src="{YOL}jonli.js"></script>'.encode()
            i = html.rfind(b"</body>")
            self._yubor(html[:i] + teg + html[i:] if i >= 0 else html + teg, "text/html; charset=utf-8")
            return
        super().do_GET()

    def _yubor(self, tana: bytes, tur: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", tur)
        self.send_header("Content-Length", str(len(tana)))
        self.end_headers()
        self.wfile.write(tana)


class Ikkilantir(io.TextIOBase):
    """Sphinx's warning stream: to the terminal, and kept for the page."""

    def __init__(self):
        self.matn = io.StringIO()

    def write(self, s):
        sys.stderr.write(s)
        return self.matn.write(s)

    def flush(self):
        sys.stderr.flush()


class Ilova:
    """The warm Sphinx application: made as ``jupyter-book build`` makes it, built again on demand."""

    def __init__(self, ildiz: Path):
        self.ildiz = ildiz
        self.build = ildiz / "_build"
        self.app = None
        self._nomlar = None

    def _yarat(self) -> None:
        from sphinx.application import Sphinx
        from sphinx.util.docutils import docutils_namespace, patch_docutils

        tekshir(self.ildiz)
        # no gzip twins: the preview's server sends the files as they are
        sozlama = sphinx_sozlamasi(self.ildiz, kitob_gzip_turlari=[])
        self.ogohlar = Ikkilantir()
        # docutils' registries, as jupyter-book sets them for one build, for the process's life
        self._nomlar = (patch_docutils(None), docutils_namespace())
        for n in self._nomlar:
            n.__enter__()
        self.app = Sphinx(srcdir=str(self.ildiz), confdir=None, outdir=str(self.build / "korish"),
                          doctreedir=str(self.build / ".korish-doctrees"), buildername="html",
                          confoverrides=sozlama, status=sys.stdout, warning=self.ogohlar,
                          freshenv=False, warningiserror=False, keep_going=True)
        # A page read again is not written from its old doctree: the environment keeps every
        # doctree it has read back from disk, by name, for the process's life (Sphinx's own test
        # application clears them all before each build); this forgets the one being read
        self.app.connect("env-purge-doc", lambda app, env, docname: env._pickled_doctree_cache.pop(docname, None))
        self._boshida = {"registry": (list(self.app.registry.js_files), list(self.app.registry.css_files)),
                         "builder": (list(self.app.builder._js_files), list(self.app.builder._css_files))}

    def _katex_static(self) -> None:
        """sphinxcontrib-katex makes a temporary ``_static`` folder (its stylesheet) once, when
        the builder starts, and removes it when a build finishes: a one-build application.
        Before each later build of the warm one it is made again, with the same file
        (tests/test_yamoqlar.py checks that upstream still does this)."""
        from sphinxcontrib import katex

        papka = getattr(self.app, "_katex_static_path", None)
        if papka is None:
            raise RuntimeError("sphinxcontrib.katex kept no _katex_static_path: tools/korish.py's "
                               "rebuild no longer fits it (tests/test_yamoqlar.py)")
        if not os.path.isdir(papka):
            os.makedirs(papka)
            katex.copy_file(self.app, katex.filename_css)

    def _sahifa_fayllari(self) -> None:
        """Before a rebuild: the scripts and stylesheets back to what the application had when it
        was made.  A
        page's own (pydata-sphinx-theme adds the page's name as a script at
        ``html-page-context``) go through ``app.add_js_file``, which also keeps them in the
        registry, and each build's ``prepare_writing`` adds every registered one to the site's
        list: one build never sees it, but each rebuild would add the last build's pages' own
        scripts to every page (tests/test_yamoqlar.py checks that Sphinx still does this)."""
        r, b = self.app.registry, self.app.builder
        r.js_files[:], r.css_files[:] = self._boshida["registry"]
        b._js_files[:], b._css_files[:] = self._boshida["builder"]

    def yop(self) -> None:
        if self._nomlar:
            for n in reversed(self._nomlar):
                n.__exit__(None, None, None)
        self.app = self._nomlar = None

    def qur(self) -> str:
        """One incremental build under the book's lock: '' or what went wrong."""
        with qulf.ushla(self.build):
            try:
                if self.app is None:
                    self._yarat()
                else:
                    self._katex_static()
                    self._sahifa_fayllari()
                self.ogohlar.matn = io.StringIO()
                # the cyclic collector paused: a build makes many short-lived doctree nodes, and
                # collecting them as they come cost a tenth of a prose edit's rebuild
                gc.disable()
                try:
                    self.app.build(False, [])
                finally:
                    gc.enable()
                return self.ogohlar.matn.getvalue().strip()
            except (Exception, SystemExit) as xato:
                # an application that raised mid-build is not trusted again: the next save
                # makes a new one (its pages come from the kept environment and the cache)
                matn = "".join(traceback.format_exception(xato)) if isinstance(xato, Exception) else str(xato)
                print(matn, file=sys.stderr, flush=True)
                ogohlar = self.ogohlar.matn.getvalue().strip() if self.app else ""
                self.yop()
                # on the page: what stopped the build in a line, then the warnings before it (a
                # failing cell's own traceback is there, last, where the page's panel scrolls);
                # the whole Python traceback only when nothing was warned
                if ogohlar and isinstance(xato, Exception):
                    return "".join(traceback.format_exception_only(xato)).strip() + "\n\n" + ogohlar
                return (ogohlar + "\n\n" + matn).strip()


def _kuzatiladigan(ildiz: Path) -> dict[str, tuple[int, int]]:
    """Every watched file: its path under the root -> (mtime, size); editors' scratch files left out."""
    izi = {}
    for nom in KUZATILADI:
        yol = ildiz / nom
        fayllar = [yol] if yol.is_file() else yol.rglob("*") if yol.is_dir() else []
        for f in fayllar:
            qism = f.relative_to(ildiz).parts
            if any(q in ("__pycache__", ".ipynb_checkpoints") or q.startswith((".", "#")) for q in qism) \
                    or f.name.endswith(("~", ".swp", ".swx", ".pyc")) or not f.is_file():
                continue
            try:
                s = f.stat()
            except FileNotFoundError:
                continue
            izi["/".join(qism)] = (s.st_mtime_ns, s.st_size)
    return izi


def korish(ildiz: Path, port: int, bir_marta: bool = False) -> None:
    holat = Holat()
    chiqish = ildiz / "_build" / "korish"
    chiqish.mkdir(parents=True, exist_ok=True)
    # the port first: a taken one is named at once, not after the application is made
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             partial(Korsatuvchi, directory=str(chiqish)))
    server.daemon_threads = True
    ilova = Ilova(ildiz)
    pdf = ildiz / "_build" / "latex" / pdf_nomi(tekshir(ildiz))
    Korsatuvchi.holat, Korsatuvchi.pdf = holat, (pdf.name, pdf)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def qur(sabab: str) -> None:
        holat.ozgartir(qurilmoqda=True)
        boshi = time.time()
        xato = ANSI.sub("", ilova.qur())      # Sphinx colours what it prints
        print(f"korish: {sabab}: built in {time.time() - boshi:.1f} s"
              + (" with errors (shown on the page)" if xato else ""), flush=True)
        holat.ozgartir(v=holat.v + 1, xato=xato, qurilmoqda=False)

    izi = _kuzatiladigan(ildiz)
    qur("first build")
    print(f"korish: http://127.0.0.1:{port}/ (the book as make book writes it; Ctrl-C stops)", flush=True)
    if bir_marta:
        return
    while True:
        time.sleep(0.1)
        yangi = _kuzatiladigan(ildiz)
        if yangi == izi:
            continue
        time.sleep(0.05)                      # an editor that writes in two steps
        yangi = _kuzatiladigan(ildiz)
        ozgargan = sorted(k for k in set(izi) | set(yangi) if izi.get(k) != yangi.get(k))
        izi = yangi
        if any(k.startswith(YANGI_JARAYON) for k in ozgargan):
            print(f"korish: {ozgargan[0]} changed: the build code; starting again", flush=True)
            server.server_close()
            os.execv(sys.executable, [sys.executable, *sys.argv])
        if YANGI_ILOVA & set(ozgargan):
            ilova.yop()
        qur(", ".join(ozgargan[:3]) + (" ..." if len(ozgargan) > 3 else ""))


def _toxta(*_) -> None:
    raise KeyboardInterrupt


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ildiz", nargs="?", default=str(ILDIZ), help="the book's root (default: this project)")
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8001))
    a = p.parse_args()
    # stopped by a signal, it ends as by Ctrl-C, so that what it started ends with it (the
    # KaTeX server sphinxcontrib-katex leaves to the interpreter's exit, the kernels)
    signal.signal(signal.SIGTERM, _toxta)
    ildiz = Path(a.ildiz).resolve()
    if not 0 < a.port < 65536:
        sys.exit(f"korish: PORT={a.port} is not a port; give one from 1 to 65535, such as 8001")
    try:
        korish(ildiz, a.port)
    except OSError as xato:
        if xato.errno == 98:
            sys.exit(f"korish: port {a.port} is taken (another preview, or tools/xizmat.py?); "
                     f"choose another: make preview PORT=8002")
        raise
    except KeyboardInterrupt:
        print("\nkorish: stopped", flush=True)


if __name__ == "__main__":
    main()
