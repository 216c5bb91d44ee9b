"""The bytes a page's first view transfers, as Lighthouse's mobile run weighs them.

Lighthouse (``tools/mayoq.py``) runs on a few pages in ``make test`` and on every page in
``make bench`` (tests/test_mayoq.py says why).  The first-view budget holds on every page in
``make test`` all the same: Chromium, through Playwright, loads each page on the phone
Lighthouse emulates and adds up what crossed the wire (``test_brauzer``), and on the pages
Lighthouse does measure, ``test_mayoq`` checks that the two figures agree.
"""

from __future__ import annotations

from mayoq import BYUDJET  # noqa: F401  (the page budget, defined once for tests and make bench)

#: Lighthouse's default mobile device (its emulated Moto G Power): the screen, pixel density
#: and touch that decide which pictures the first view asks for.
LIGHTHOUSE_TELEFONI = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75,
                       "is_mobile": True, "has_touch": True}


#: Resolves when every picture the page has asked for has loaded or failed (a lazy one is asked
#: for once it comes within Chromium's 2,500 px of the view), or after 3 s (4 of the 56 pages the
#: tests leave took that long with two other jobs running on the 2 cores).
RASMLAR_TUGASIN = """() => {
    const yaqin = i => { const r = i.getBoundingClientRect();
                         return r.bottom > -2500 && r.top < innerHeight + 2500; };
    // a figure's picture for the other theme is never asked for (display: none)
    const kutilgan = [...document.images].filter(i => !i.complete && i.checkVisibility()
                                                    && (i.loading !== "lazy" || yaqin(i)));
    return Promise.race([
        Promise.all(kutilgan.map(i => new Promise(tayyor => {
            i.addEventListener("load", tayyor, {once: true});
            i.addEventListener("error", tayyor, {once: true});
        }))).then(() => true),
        new Promise(tayyor => setTimeout(() => tayyor(false), 3000)),
    ]);
}"""


def birinchi_korinish(brauzer, url: str) -> dict:
    """Load ``url`` once on Lighthouse's phone, in a context of its own, until the network has
    been quiet for 500 ms and the fonts are ready; return {"jami": bytes, "fayllar": [{"url",
    "bayt"}]}, a response's bytes being its headers and its body as sent (compressed)."""
    kontekst = brauzer.new_context(**LIGHTHOUSE_TELEFONI)
    try:
        sahifa = kontekst.new_page()
        tugagan = []
        sahifa.on("requestfinished", lambda r: tugagan.append(r))
        sahifa.goto(url, wait_until="networkidle")
        sahifa.evaluate("document.fonts.ready.then(() => true)")
        # a lazy picture near the view is asked for only once the layout has settled (the
        # fonts): as Lighthouse, wait for the quiet after that too
        sahifa.evaluate(RASMLAR_TUGASIN)
        sahifa.wait_for_load_state("networkidle")
        fayllar = []
        for r in tugagan:
            olcham = r.sizes()
            fayllar.append({"url": r.url, "bayt": olcham["responseHeadersSize"] + olcham["responseBodySize"]})
    finally:
        kontekst.close()
    return {"jami": sum(f["bayt"] for f in fayllar), "fayllar": sorted(fayllar, key=lambda f: -f["bayt"])}
