"""Lighthouse ("mayoq") on the published site, served as a host serves it (tests and ``make bench``).

Lighthouse is pinned in ``tools/lighthouse/package.json`` (and its lock file)
and installed there by ``make`` (``npm ci``).  It drives Debian's Chromium in
its default mobile run: a phone screen, simulated slow 4G, the CPU slowed 4×.
The site is served by ``tools/xizmat.py`` (gzip, as a static host serves it).

``python tools/mayoq.py [runs]`` (``make bench``) measures the chapter page and
the front page ``runs`` times each (3 by default) and writes every report
(``_build/mayoq/<page>-<n>.report.html`` and ``.json``) and a summary with the
medians, ``_build/mayoq/xulosa.json``.  With ``MAYOQ_BAZA=<another commit's built site>``
(``make bench`` passes it on) each run of a page is followed by one of the same page there,
and a page whose performance median falls below that site's fails, as a score under 100 does.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

TESTLAR = Path(__file__).resolve().parent  # tools/
ILDIZ = TESTLAR.parent
LIGHTHOUSE = TESTLAR / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
#: Chromium as root on a machine that reaches no server but the package registries.
BAYROQLAR = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _bob_sahifalari() -> dict[str, str]:
    """name -> page of every chapter page in _toc.yml (each chapter, then its lessons)."""
    import yaml

    sahifalar: dict[str, str] = {}

    def ichki(yozuvlar) -> None:
        for y in yozuvlar or []:
            if "file" in y:
                sahifalar[y["file"].replace("/", "-")] = f"{y['file']}.html"
            ichki(y.get("sections"))

    ichki(yaml.safe_load((ILDIZ / "_toc.yml").read_text(encoding="utf-8")).get("chapters"))
    return sahifalar


def nashrlar() -> list[str]:
    """The editions in other scripts _config.yml names (kitob_yozuvlar: their folders)."""
    import yaml

    sozlama = yaml.safe_load((ILDIZ / "_config.yml").read_text(encoding="utf-8"))
    return list(((sozlama.get("sphinx") or {}).get("config") or {}).get("kitob_yozuvlar") or [])


#: The pages Lighthouse measures: the title page and every page of the chapters, and the same
#: pages of each edition in another script (kirill/book/index.html; ``make bench`` compares an
#: edition's page with nothing: the base site has none).
SAHIFALAR = {"kirish": "book/index.html", **_bob_sahifalari()}
SAHIFALAR |= {f"{n}-{nom}": f"{n}/{yol}" for n in nashrlar() for nom, yol in dict(SAHIFALAR).items()}
TOIFALAR = ("performance", "accessibility", "best-practices", "seo")
#: The pages ``make test`` runs Lighthouse on (``tests/test_mayoq.py``): the title page, the
#: chapter's opening page, the glossary and the lesson with the interactive map, one of each
#: kind of page the site has; ``make bench`` runs it on every page of SAHIFALAR.
TEST_SAHIFALARI = {nom: SAHIFALAR[nom] for nom in
                   ("kirish", "book-attention-index", "book-attention-atamalar", "book-attention-yakuniy")}
#: What ``make test`` and ``make bench`` require of every page they measure: these categories
#: at 100, and the first view within BYUDJET bytes (the tests' budget too: tests/birinchi_korinish.py).
TALAB_TOIFALARI = ("accessibility", "best-practices", "seo")
BYUDJET = 250 * 1024


def tayyormi() -> str | None:
    """None when Lighthouse and Chromium are installed, else what is missing and how to get it."""
    if not LIGHTHOUSE.is_file():
        return f"{LIGHTHOUSE.relative_to(ILDIZ)} is missing: run make (npm ci in tools/lighthouse)"
    if not Path(CHROMIUM).is_file():
        return f"{CHROMIUM} is missing: apt-get install chromium (make does this)"
    return None


def olch(url: str, nom: Path, *qoshimcha: str, toifalar: tuple[str, ...] = TOIFALAR) -> dict:
    """One Lighthouse run of ``url`` (default: mobile; ``--preset=desktop`` in ``qoshimcha``
    for the desktop run) in ``toifalar`` (plus the first view's weight, which the
    performance category would bring); reports ``nom.report.json``/``.html``: the result."""
    yoq = tayyormi()
    if yoq:
        raise RuntimeError(yoq)
    nom.parent.mkdir(parents=True, exist_ok=True)
    buyruq = [str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output=html",
              f"--output-path={nom}", f"--chrome-flags={' '.join(BAYROQLAR)}",
              f"--only-categories={','.join(toifalar)}",
              "--only-audits=total-byte-weight,network-requests", *qoshimcha]
    natija = subprocess.run(buyruq, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "CHROME_PATH": CHROMIUM})
    hisobot = nom.with_name(nom.name + ".report.json")
    if natija.returncode != 0 or not hisobot.is_file():
        raise RuntimeError(f"lighthouse {url} failed ({natija.returncode}):\n{natija.stderr[-3000:]}")
    lhr = json.loads(hisobot.read_text(encoding="utf-8"))
    if lhr.get("runtimeError"):
        raise RuntimeError(f"lighthouse {url}: {lhr['runtimeError']}")
    return lhr


def baholar(lhr: dict) -> dict[str, int]:
    """Category scores as Lighthouse shows them (0–100)."""
    return {t: round(lhr["categories"][t]["score"] * 100) for t in TOIFALAR if t in lhr["categories"]}


def korsatkichlar(lhr: dict) -> dict[str, float]:
    """The metrics behind the performance score, and the bytes the first view transferred."""
    a = lhr["audits"]
    return {"FCP_s": a["first-contentful-paint"]["numericValue"] / 1000,
            "LCP_s": a["largest-contentful-paint"]["numericValue"] / 1000,
            "TBT_ms": a["total-blocking-time"]["numericValue"],
            "CLS": a["cumulative-layout-shift"]["numericValue"],
            "SI_s": a["speed-index"]["numericValue"] / 1000,
            "bayt": a["total-byte-weight"]["numericValue"]}


def muvaffaqiyatsiz(lhr: dict, toifa: str) -> list[str]:
    """The audits of a category that did not pass: why its score is below 100."""
    qator = []
    for ref in lhr["categories"][toifa]["auditRefs"]:
        audit = lhr["audits"][ref["id"]]
        if audit.get("score") is not None and audit["score"] < 1 and audit.get("scoreDisplayMode") != "informative":
            qator.append(f"{ref['id']}: {audit['title']} ({audit.get('displayValue', audit['score'])})")
    return qator


def _xulosa(yugurishlar: list[dict]) -> dict:
    tezlik = [y["performance"] for y in yugurishlar]
    return {"yugurishlar": yugurishlar,
            "mediana": {k: statistics.median(y[k] for y in yugurishlar) for k in yugurishlar[0]},
            "tezlik_oraligi": [min(tezlik), max(tezlik)]}


def bench(marta: int = 3, baza: Path | None = None) -> dict:
    """Every page ``marta`` times; with ``baza`` (another commit's built site, MAYOQ_BAZA), that
    site's same page right after each run, so that both meet the same machine: its medians in
    ``_baza``, and a page whose performance median falls below the other site's is listed."""
    import contextlib

    sys.path.insert(0, str(TESTLAR))
    from xizmat import xizmat

    papka = ILDIZ / "_build" / "mayoq"
    xulosa: dict = {}
    bazaniki: dict = {}
    with contextlib.ExitStack() as s:
        url = s.enter_context(xizmat(ILDIZ / "_build" / "sayt"))
        baza_url = s.enter_context(xizmat(baza)) if baza else None
        for nom, yol in SAHIFALAR.items():
            yugurishlar, bazada = [], []
            for n in range(1, marta + 1):
                lhr = olch(url + yol, papka / f"{nom}-{n}")
                yugurishlar.append({**baholar(lhr), **korsatkichlar(lhr)})
                print(f"{yol} run {n}: {yugurishlar[-1]}", flush=True)
                if baza_url and (baza / yol).is_file():
                    lhr = olch(baza_url + yol, papka / "baza" / f"{nom}-{n}")
                    bazada.append({**baholar(lhr), **korsatkichlar(lhr)})
                    print(f"  {baza.name} {yol} run {n}: {bazada[-1]}", flush=True)
            xulosa[yol] = _xulosa(yugurishlar)
            if bazada:
                bazaniki[yol] = _xulosa(bazada)
    if baza:
        xulosa["_baza"] = {"sayt": str(baza), **bazaniki}
    (papka / "xulosa.json").write_text(json.dumps(xulosa, indent=2, ensure_ascii=False))
    sahifalar = {yol: x for yol, x in xulosa.items() if not yol.startswith("_")}
    # what make test requires of its few pages, required here of every page (TEST_SAHIFALARI)
    xatolar = [f"{yol}: {t} {x['mediana'][t]:.0f}, not 100" for yol, x in sahifalar.items()
               for t in TALAB_TOIFALARI if x["mediana"][t] < 100]
    xatolar += [f"{yol}: the first view transfers {x['mediana']['bayt']:,.0f} bytes (budget {BYUDJET:,})"
                for yol, x in sahifalar.items() if x["mediana"]["bayt"] > BYUDJET]
    xatolar += [f"{yol}: performance median {xulosa[yol]['mediana']['performance']:.0f}, "
                f"below {b['mediana']['performance']:.0f} at {baza}"
                for yol, b in bazaniki.items()
                if xulosa[yol]["mediana"]["performance"] < b["mediana"]["performance"]]
    for yol, x in sahifalar.items():
        m = x["mediana"]
        print(f"{yol}: performance median {m['performance']:.0f} (runs {[y['performance'] for y in x['yugurishlar']]}), "
              f"FCP {m['FCP_s']:.2f} s, LCP {m['LCP_s']:.2f} s, TBT {m['TBT_ms']:.0f} ms, CLS {m['CLS']:.3f}, "
              f"{m['bayt'] / 1024:.0f} KiB; a11y {m['accessibility']:.0f}, best practices "
              f"{m['best-practices']:.0f}, SEO {m['seo']:.0f}")
        if yol in bazaniki:
            b = bazaniki[yol]["mediana"]
            print(f"  beside it at {baza}: performance median {b['performance']:.0f} "
                  f"(runs {[y['performance'] for y in bazaniki[yol]['yugurishlar']]}), "
                  f"FCP {b['FCP_s']:.2f} s, LCP {b['LCP_s']:.2f} s, TBT {b['TBT_ms']:.0f} ms, "
                  f"CLS {b['CLS']:.3f}, {b['bayt'] / 1024:.0f} KiB")
    if xatolar:
        print("Lighthouse: pages below what make test requires:\n  " + "\n  ".join(xatolar), flush=True)
    xulosa["_xatolar"] = xatolar
    return xulosa


if __name__ == "__main__":
    baza = os.environ.get("MAYOQ_BAZA")
    if baza and not (Path(baza) / "index.html").is_file():
        sys.exit(f"MAYOQ_BAZA={baza}: no built site there (a folder with index.html, such as "
                 "another clone's _build/sayt)")
    sys.exit(1 if bench(int(sys.argv[1]) if len(sys.argv) > 1 else 3,
                        Path(baza).resolve() if baza else None)["_xatolar"] else 0)
