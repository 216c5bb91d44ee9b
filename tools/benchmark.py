"""Benchmark of the author's loop (``make bench``): every figure measured in one run, side by side.

On a scratch copy of the repository (its own ``_build``, its own store of kept
trainings; the real cache, store and site are untouched):

(a) cold execution of the chapter, every lesson in order, each in a fresh kernel
    (nbclient), with an empty store (a lesson that needs an earlier lesson's
    training takes it from the store, as in a build), and, right after it, the
    same for the chapter at commit ``BAZA`` from ``git archive`` (7277799, the
    one-page chapter before the lessons; ``BENCH_BAZA=<commit>`` another, e.g.
    9338d18, the lessons before issue 26): the whole and each lesson side by side;
(b) a cold full build (site + PDF, ``qurish``, as ``make book``);
(c) HTML rebuilds after one edit each, reporting seconds, which lessons
    executed (MyST-NB's "Executing notebook" lines) and how many trainings
    and measurements ran (new entries in the store): prose of a lesson; one
    plotting cell (a figure's size) in each lesson that draws one — the worst
    is the target's; build code (a comment in an extension); the plotting
    helpers (``chapter_code/kitob.py``); model code (``chapter_code/modellar.py``:
    every training depends on it);
(d) the size of each published page's HTML (without images);
(e) ``make preview``: save to reloaded page in Chromium, a prose edit in each lesson and
    each lesson's plotting edit (targets 3 s and 20 s, the worst lesson's);
(f) the published site of commit ``SAYT_BAZA`` (232727c; ``BENCH_SAYT_BAZA=<commit>`` another),
    built as ``make book`` builds it, into ``_build/bench-baza-sayt`` (once: a later run keeps it):
    ``make bench``'s Lighthouse runs measure each page there right after the same page of this
    commit's site.

With ``BENCH_SEED=<path of the seed draft>`` it also times that draft as
written (helpers as no-ops), which takes about 8 minutes.  With ``BENCH_QISM=a`` it
stops after (a), the side-by-side cold execution (about half the time).  Prints a table and writes
``_build/bench.json``.  Not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import jupytext
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
from qurish import ILDIZ, jb_buyrugi  # noqa: E402

#: the commit (a) compares with: 7277799, the one-page chapter before the lessons; another
#: with BENCH_BAZA=<commit> (9338d18: the lessons before issue 26's additions)
BAZA = os.environ.get("BENCH_BAZA", "7277799")
#: (f) the commit whose published site Lighthouse measures beside this one's (issue 46: 232727c;
#: another with BENCH_SAYT_BAZA=<commit>), copied to BAZA_SAYTI (make bench hands it to mayoq.py)
SAYT_BAZA = os.environ.get("BENCH_SAYT_BAZA", "232727c")
BAZA_SAYTI = ILDIZ / "_build" / "bench-baza-sayt"
#: a plotting cell of each lesson that draws a figure: (lesson, the text its first figure's
#: size is edited in: "figsize=(5.6" becomes "figsize=(5.60", the same drawing; rasm_tahriri)
RASM_TAHRIRLARI = [
    ("book/attention/mexanizm.py", "rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4)"),
    ("book/attention/rekurrent.py", "rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4)"),
    ("book/attention/pozitsiyalar.py", "rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4)"),
    ("book/attention/narx.py", "figsize=(5.6, 3.6)"),
    ("book/attention/transformer.py", "figsize=(5.6, 3.8)"),
    ("book/attention/til_modeli.py", "figsize=(6.4, 3.6)"),
    ("book/attention/yakuniy.py", "figsize=(5.6, 4.4)"),
]


def rasm_tahriri(eski: str, nollar: int = 1) -> str:
    """The same drawing, its source changed: the figure's width written with ``nollar`` more
    digits ("figsize=(5.6" becomes "figsize=(5.60").  Each step of the benchmark that times a
    plotting edit makes its own (the execution cache keeps an executed edit: the preview's step
    (e), making (c)'s edit again, took 1,4-2,6 s from the cache, not an execution)."""
    yangi = re.sub(r"figsize=\((\d+\.\d+)", r"figsize=(\g<1>" + "0" * nollar, eski, count=1)
    if yangi == eski:
        raise SystemExit(f"a plotting edit needs a figsize=(<width> with a decimal point: {eski!r}")
    return yangi


NOOP = "def diagramma(*a, **k): pass\ndef show(*a, **k): pass\ndef fig(*a, **k): pass\n"


def soat(fn):
    t0 = time.perf_counter()
    natija = fn()
    return time.perf_counter() - t0, natija


def seed_baseline(ish: Path, seed: Path) -> float:
    """The seed as written, the three helpers as no-ops; its first line is the title."""
    if not seed.is_file():
        raise SystemExit(f"BENCH_SEED={seed}: no such file; give the path of the seed draft")
    matn = seed.read_text().split("\n", 1)[1]
    skript = ish / "seed_baseline.py"
    skript.write_text(NOOP + matn)
    vaqt, natija = soat(lambda: subprocess.run([sys.executable, str(skript)], cwd=ish,
                                               capture_output=True, text=True))
    if natija.returncode != 0:
        raise SystemExit(f"the seed failed:\n{natija.stderr[-2000:]}")
    return vaqt


def darslar(ildiz: Path) -> list[str]:
    """The chapter's lessons (percent-format .py pages) in _toc.yml's order."""
    import yaml

    sahifalar: list[str] = []

    def ichki(yozuvlar) -> None:
        for y in yozuvlar or []:
            if "file" in y and (ildiz / f"{y['file']}.py").is_file():
                sahifalar.append(f"{y['file']}.py")
            ichki(y.get("sections"))

    ichki(yaml.safe_load((ildiz / "_toc.yml").read_text(encoding="utf-8")).get("chapters"))
    return sahifalar


def sovuq_ijro(ildiz: Path, ombor: Path, sahifalar: list[str]) -> tuple[float, list[dict]]:
    """Execute the pages of the project at ``ildiz`` in order, each in a fresh kernel, one store
    that starts empty; the whole time and the slowest cells."""
    eski = dict(os.environ)
    os.environ.update(PYTHONPATH=str(ildiz), KITOB_OMBOR=str(ombor))   # the kernel inherits them
    os.environ.pop("KITOB_OMBORSIZ", None)
    hujayralar, jami = [], 0.0
    try:
        for sahifa in sahifalar:
            nb = jupytext.read(ildiz / sahifa)
            client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                                    resources={"metadata": {"path": str((ildiz / sahifa).parent)}})
            vaqt, _ = soat(client.execute)
            jami += vaqt
            for i, cell in enumerate(nb.cells):
                ex = cell.metadata.get("execution", {}) if cell.cell_type == "code" else {}
                t0, t1 = ex.get("iopub.execute_input"), ex.get("shell.execute_reply")
                if t0 and t1:
                    sekund = (dt.datetime.fromisoformat(t1.replace("Z", "+00:00"))
                              - dt.datetime.fromisoformat(t0.replace("Z", "+00:00"))).total_seconds()
                    hujayralar.append({"page": sahifa, "cell": i, "seconds": round(sekund, 2),
                                       "first_line": cell.source.splitlines()[0][:60] if cell.source else ""})
    finally:
        os.environ.clear()
        os.environ.update(eski)
    return jami, hujayralar


def qur(nusxa: Path, toliq: bool = False) -> tuple[float, str]:
    """Site + PDF as make book does (toliq), or the HTML alone (what an author waits for)."""
    buyruq = ([sys.executable, str(nusxa / "tools" / "qurish.py"), str(nusxa)] if toliq
              else jb_buyrugi(nusxa))
    muhit = {**os.environ, "PYTHONPATH": str(nusxa)}
    for nom in ("KITOB_OMBORSIZ", "KITOB_OMBOR", "KITOB_RASM_PAPKASI"):   # its own store and figures
        muhit.pop(nom, None)
    vaqt, natija = soat(lambda: subprocess.run(buyruq, capture_output=True, text=True, env=muhit))
    log = natija.stdout + natija.stderr
    if natija.returncode != 0:
        raise SystemExit(f"build failed:\n{log[-3000:]}")
    return vaqt, log


def nusxa_qil(maqsad: Path) -> Path:
    nusxa = maqsad / "kitob"
    shutil.copytree(ILDIZ, nusxa, ignore=shutil.ignore_patterns(
        "_build", ".venv", ".git", "__pycache__", ".pytest_cache"))
    return nusxa


def baza_qil(maqsad: Path, commit: str = BAZA, nom: str = "baza") -> Path:
    """The project at ``commit`` (BAZA), from git archive."""
    arxiv = subprocess.run(["git", "-C", str(ILDIZ), "archive", commit], capture_output=True, check=True)
    baza = maqsad / nom
    with tarfile.open(fileobj=io.BytesIO(arxiv.stdout)) as t:
        t.extractall(baza, filter="data")
    return baza


def baza_sayti(ish: Path) -> dict:
    """(f) The published site of SAYT_BAZA, built as ``make book`` builds it (its own build code,
    an empty store of its own), copied to BAZA_SAYTI for Lighthouse to run beside this one."""
    commit = subprocess.run(["git", "-C", str(ILDIZ), "rev-parse", SAYT_BAZA], capture_output=True,
                            text=True, check=True).stdout.strip()
    belgi = BAZA_SAYTI / ".kitob-commit"             # a site of one commit is the same site every run
    if belgi.is_file() and belgi.read_text() == commit:
        return {"commit": SAYT_BAZA, "s": None, "site": str(BAZA_SAYTI), "kept": True}
    papka = baza_qil(ish, SAYT_BAZA, "sayt-baza")
    vaqt, _ = qur(papka, toliq=True)
    shutil.rmtree(BAZA_SAYTI, ignore_errors=True)
    shutil.copytree((papka / "_build" / "sayt").resolve(), BAZA_SAYTI)
    belgi.write_text(commit)
    return {"commit": SAYT_BAZA, "s": round(vaqt, 1), "site": str(BAZA_SAYTI), "kept": False}


def tahrir(fayl: Path, eski: str, yangi: str) -> None:
    matn = fayl.read_text()
    if eski not in matn:
        raise SystemExit(f"benchmark: {eski!r} is not in {fayl}; update the benchmark's edit")
    fayl.write_text(matn.replace(eski, yangi, 1))


#: the edits of (c) after the plotting cells: (name, file, text the edit starts at)
BOSHQA_TAHRIRLAR = [
    ("build code", "book/_ext/qurilish/sahifa.py", '"""Build side'),
    ("plotting helpers", "chapter_code/kitob.py", '"""Kitob yordamchilari'),
    ("model code", "chapter_code/modellar.py", '"""Bobning modellari'),
]


def tahrirlar_bormi(ildiz: Path) -> None:
    """Every text an edit of (c) starts at is in its file, checked before anything is timed."""
    yoq = [f"{yol}: {eski!r}" for yol, eski in
           [("book/attention/mexanizm.py", "# Bu darsda {term}`attentionni"), *RASM_TAHRIRLARI,
            *[(yol, eski) for _, yol, eski in BOSHQA_TAHRIRLAR]]
           if eski not in (ildiz / yol).read_text()]
    if yoq:
        raise SystemExit("benchmark: these edits no longer find their text; update them: " + "; ".join(yoq))


#: (e) the prose edit in each lesson: a word before its first sentence's first word
NASR_SATRI = re.compile(r"^# %% \[markdown\]\n# # .+\n#\n# (\S+)", re.M)


def korish_olchovi(ildiz: Path, darslar_: list[str], kuzat_s: float = 900) -> dict:
    """(e) ``make preview`` (tools/korish.py) on ``ildiz``, timed as the author meets it: the
    page open in Chromium, an edit saved, until the page has reloaded and shows it (prose) or
    has reloaded after its lesson re-executed (the plotting edit of RASM_TAHRIRLARI).  Each
    edit is undone after, and its rebuild awaited.  Returns seconds by lesson and kind."""
    import socket

    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    jurnal = ildiz / "_build" / "korish-bench.log"
    jurnal.parent.mkdir(parents=True, exist_ok=True)
    jarayon = subprocess.Popen([sys.executable, str(ildiz / "tools" / "korish.py"), str(ildiz), "--port", str(port)],
                               stdout=open(jurnal, "w"), stderr=subprocess.STDOUT)
    natija: dict = {"prose": {}, "plotting": {}}
    rasmlar = dict(RASM_TAHRIRLARI)
    try:
        boshi = time.time()
        while "korish: http://" not in jurnal.read_text():
            if jarayon.poll() is not None or time.time() - boshi > kuzat_s:
                raise SystemExit(f"benchmark: the preview did not start:\n{jurnal.read_text()[-3000:]}")
            time.sleep(0.2)
        with sync_playwright() as p:
            brauzer = p.chromium.launch(executable_path="/usr/bin/chromium-headless-shell", args=["--no-sandbox"])
            sahifa = brauzer.new_page()

            def olch(dars: str, yol: str, eski: str, yangi: str, belgi: str | None) -> float:
                sahifa.goto(f"http://127.0.0.1:{port}/{dars}.html", wait_until="load")
                sahifa.wait_for_function("document.getElementById('korish-holat')")
                kelib = sahifa.evaluate("performance.timeOrigin")
                fayl, t = ildiz / yol, time.time()
                asl = fayl.read_text()
                fayl.write_text(asl.replace(eski, yangi, 1))
                try:
                    sahifa.wait_for_function(
                        "([t, b]) => performance.timeOrigin !== t && document.readyState === 'complete' && "
                        "(!b || document.body.textContent.replace(/\\u00ad/g, '').includes(b))",
                        arg=[kelib, belgi], timeout=kuzat_s * 1000, polling=50)
                    return round(time.time() - t, 2)
                finally:
                    kelib = sahifa.evaluate("performance.timeOrigin")
                    fayl.write_text(asl)
                    sahifa.wait_for_function("t => performance.timeOrigin !== t && document.readyState === 'complete'",
                                             arg=kelib, timeout=kuzat_s * 1000, polling=100)

            for n, yol in enumerate(darslar_):
                dars = yol.removesuffix(".py")
                m = NASR_SATRI.search((ildiz / yol).read_text())
                if m:
                    belgi = f"Tahrir{n}x"
                    boshi_ = m.group(0)[:m.start(1) - m.start(0)]
                    natija["prose"][Path(dars).stem] = olch(dars, yol, m.group(0),
                                                            f"{boshi_}{belgi} {m.group(1)}", belgi)
                if yol in rasmlar:
                    natija["plotting"][Path(dars).stem] = olch(dars, yol, rasmlar[yol],
                                                               rasm_tahriri(rasmlar[yol], nollar=2), None)
                print(f"(e) {Path(dars).stem}: prose {natija['prose'].get(Path(dars).stem)} s, "
                      f"plotting {natija['plotting'].get(Path(dars).stem)} s", flush=True)
            brauzer.close()
    finally:
        jarayon.terminate()
        jarayon.wait(timeout=60)
    return natija


def main() -> None:
    natija: dict = {"cores": os.cpu_count(), "workers": os.environ.get("KITOB_JARAYONLAR", "all cores")}
    tahrirlar_bormi(ILDIZ)
    with tempfile.TemporaryDirectory() as tmp:
        ish = Path(tmp)
        nusxa = nusxa_qil(ish)
        ombor = nusxa / "_build" / "ombor"

        if os.environ.get("BENCH_SEED"):
            print("seed as written ...", flush=True)
            natija["seed_s"] = round(seed_baseline(ish, Path(os.environ["BENCH_SEED"])), 1)
        print("(a) cold execution, this commit and", BAZA, "...", flush=True)
        vaqt, hujayralar = sovuq_ijro(nusxa, ish / "bosh-ombor", darslar(nusxa))
        natija["a_cold_s"], natija["cells"] = round(vaqt, 1), hujayralar
        baza = baza_qil(ish)
        vaqt, baza_hujayralari = sovuq_ijro(baza, ish / "baza-ombor", darslar(baza))
        natija["a_cold_base_s"], natija["base"] = round(vaqt, 1), BAZA
        def jami(hujayra_royxati, sahifa):
            return round(sum(c["seconds"] for c in hujayra_royxati if c["page"] == sahifa), 1)
        natija["a_cold_by_lesson"] = {Path(d).stem: {"now": jami(hujayralar, d), "base": jami(baza_hujayralari, d)}
                                      for d in darslar(nusxa)}
        if os.environ.get("BENCH_QISM") == "a":
            natija["ratio_cold_over_base"] = round(natija["a_cold_s"] / natija["a_cold_base_s"], 2)
            (ILDIZ / "_build" / "bench-a.json").write_text(json.dumps(natija, indent=2, ensure_ascii=False))
            print(f"(a) cold execution: {natija['a_cold_s']} s; at {BAZA}: {natija['a_cold_base_s']} s;"
                  f" ratio {natija['ratio_cold_over_base']} (target <= 1.0)")
            for nom, r in natija["a_cold_by_lesson"].items():
                print(f"  {nom:<14}{r['now']:>8}{r['base']:>8}")
            return
        print("(b) cold full build ...", flush=True)
        vaqt, log = qur(nusxa, toliq=True)
        natija["b_build_cold_s"] = round(vaqt, 1)

        def ozgarish(nom: str, yol: str, eski: str, yangi: str) -> None:
            print(f"(c) {nom} ...", flush=True)
            qur(nusxa)                                # nothing pending
            oldin = set(ombor.rglob("*.pt"))
            tahrir(nusxa / yol, eski, yangi)
            vaqt, log = qur(nusxa)
            yangilar = set(ombor.rglob("*.pt")) - oldin
            natija[nom] = {"s": round(vaqt, 1),
                           "executed": sorted(set(re.findall(r"(book/[^\s:]+?)\.py: Executing notebook", log))),
                           "trainings": sum(p.parent.name in ("oqit", "oqit_tarjimon") for p in yangilar),
                           "measurements": sum(p.parent.name in ("mediana_ms", "xotira_chuqqisi")
                                               for p in yangilar)}

        ozgarish("prose", "book/attention/mexanizm.py", "# Bu darsda {term}`attentionni",
                 "# Bu darsda (tahrir) {term}`attentionni")
        for yol, eski in RASM_TAHRIRLARI:
            ozgarish(f"plotting cell, {Path(yol).stem}", yol, eski, rasm_tahriri(eski))
        for nom, yol, eski in BOSHQA_TAHRIRLAR:
            ozgarish(nom, yol, eski, "# tahrir\n" + eski)
        print("(e) the preview, save to reloaded page ...", flush=True)
        natija["e_preview_s"] = korish_olchovi(nusxa, darslar(nusxa))
        sayt = nusxa / "_build" / "html"
        natija["d_page_bytes"] = {p.relative_to(sayt).as_posix(): p.stat().st_size
                                  for p in sorted(sayt.rglob("*.html")) if "_static" not in p.relative_to(sayt).parts}
        print(f"(f) the site at {SAYT_BAZA}, for Lighthouse beside this one ...", flush=True)
        natija["f_base_site"] = baza_sayti(ish)

    natija["ratio_cold_over_base"] = round(natija["a_cold_s"] / natija["a_cold_base_s"], 2)
    rasmlar = {k: v for k, v in natija.items() if k.startswith("plotting cell, ")}
    natija["worst_plotting_cell"] = max(rasmlar, key=lambda k: rasmlar[k]["s"])
    chiqish = ILDIZ / "_build" / "bench.json"
    chiqish.parent.mkdir(exist_ok=True)
    chiqish.write_text(json.dumps(natija, indent=2, ensure_ascii=False))

    print()
    print(f"{'measurement':<48}{'seconds':>8}  executed / trainings / measurements  target")
    print("-" * 110)
    if "seed_s" in natija:
        print(f"{'seed as written (helpers no-op)':<48}{natija['seed_s']:>8}")
    print(f"{'(a) cold execution, empty store':<48}{natija['a_cold_s']:>8}")
    print(f"{'(a) cold execution at ' + BAZA:<48}{natija['a_cold_base_s']:>8}"
          f"  ratio {natija['ratio_cold_over_base']} (target <= 1.0)")
    print(f"{'(b) cold full build (HTML + PDF)':<48}{natija['b_build_cold_s']:>8}")
    maqsad = {"prose": "<= 5 s, no execution", "build code": "<= 8 s, 0 cells executed",
              "plotting helpers": "0 trainings", "model code": "re-executes, retrains"}
    maqsad.update({k: "<= 15 s (worst lesson), 0 trainings, 0 measurements" for k in rasmlar})
    for nom, m in maqsad.items():
        r = natija[nom]
        print(f"{'(c) edit ' + nom + ', rebuild HTML':<48}{r['s']:>8}  {','.join(Path(e).stem for e in r['executed']) or '-'}"
              f" / {r['trainings']} / {r['measurements']}  {m}")
    for tur, maqsad_s in (("prose", 3), ("plotting", 20)):
        olchov = natija["e_preview_s"][tur]
        if olchov:
            eng_dars = max(olchov, key=olchov.get)
            print(f"{'(e) preview, ' + tur + ' edit, save to page':<48}{olchov[eng_dars]:>8}  worst: {eng_dars}"
                  f" (target <= {maqsad_s} s); "
                  + ", ".join(f"{k} {v}" for k, v in olchov.items()))
    eng = max(natija["d_page_bytes"].items(), key=lambda kv: kv[1])
    print(f"{'(d) largest page, HTML without images':<48}{eng[1]:>8} bytes ({eng[0]}; target <= 200 kB)")
    print(f"\ncold execution by lesson (seconds of its cells, this commit / {BAZA}):")
    for nom, r in natija["a_cold_by_lesson"].items():
        print(f"  {nom:<14}{r['now']:>8}{r['base']:>8}")
    print()
    print("per-cell profile of (a), slowest first:")
    for c in sorted(natija["cells"], key=lambda c: -c["seconds"])[:8]:
        print(f"  {Path(c['page']).stem:<14} cell {c['cell']:>3} {c['seconds']:>7.2f} s  {c['first_line']}")
    print(f"\nwritten: {chiqish}")


if __name__ == "__main__":
    main()
