/* The book's own script (registered by book/_ext/qurilish/sahifa.py; checked by tests/test_brauzer.py).

   Keyboard tab stops on boxes that scroll.  pydata-sphinx-theme gives every code block
   and output box tabindex 0 when it scrolls (so a keyboard can scroll it) and -1 when it
   does not, by measuring all of them as soon as the page loads and again after any
   change: on a long page that lays the whole page out at once, 0.4 s of a phone's time
   before the reader can do anything.  yakun.py points the theme's measuring here, which
   keeps its rule and measures at the right time instead:
   - the boxes on and near the screen at once, and every other box as it comes near;
   - all the rest when the reader first does something (scrolls, touches, clicks, types),
     in the browser's idle moments;
   - all of them at once, before the focus moves, when the first thing is the Tab key:
     a keyboard reader finds every scrolling box in the tab order from the first press.
   Until a box is measured it keeps the tabindex="0" the build gave it (sahifa.py), so a
   keyboard reaches every box that may scroll; a measured box is measured again when the
   page's fonts finish loading (a formula may scroll only in its own font).  Display formulas (which kitob.css lets
   scroll sideways) get the same rule.  When every
   box is measured, <html data-tab-stops="tayyor"> says so. */
(() => {
  "use strict";
  const olch = (el) => {
    el.tabIndex = el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight ? 0 : -1;
  };
  // an idle moment, but not later than 200 ms: a busy page still gets its tab stops
  const bosh = (f) => (window.requestIdleCallback ? window.requestIdleCallback(f, { timeout: 200 }) : setTimeout(f, 50));
  const html = document.documentElement;
  let kuzatuvchi = null;
  let qolgan = new Set();
  let faol = false;            // the reader has done something: measure the rest
  let davr = 0;

  const olchangan = new Set();
  const tugat = (el) => {
    olch(el);
    olchangan.add(el);
    qolgan.delete(el);
    if (kuzatuvchi) kuzatuvchi.unobserve(el);
    if (!qolgan.size) html.dataset.tabStops = "tayyor";
  };
  const hammasi = () => { for (const el of [...qolgan]) tugat(el); };
  const boshqasi = (buDavr) => {
    const bosqich = () => {
      if (buDavr !== davr) return;              // a newer round took over
      const boshi = performance.now();
      while (qolgan.size && performance.now() - boshi < 4) tugat(qolgan.values().next().value);
      if (qolgan.size) bosh(bosqich);
    };
    bosh(bosqich);
  };

  window.kitobTabStops = (qutilar) => {
    davr += 1;
    qolgan = new Set([...qutilar, ...document.querySelectorAll(".bd-article div.math")]);
    html.dataset.tabStops = qolgan.size ? "olchanmoqda" : "tayyor";
    if (kuzatuvchi) kuzatuvchi.disconnect();
    kuzatuvchi = "IntersectionObserver" in window
      ? new IntersectionObserver((yozuvlar) => {
          for (const y of yozuvlar) if (y.isIntersecting && qolgan.has(y.target)) tugat(y.target);
        }, { rootMargin: "300px 0px" })
      : null;
    if (kuzatuvchi) qolgan.forEach((el) => kuzatuvchi.observe(el));
    else hammasi();
    if (faol) boshqasi(davr);
  };

  const birinchi = (e) => {
    if (faol) return;
    faol = true;
    for (const t of TURLAR) window.removeEventListener(t, birinchi, true);
    if (e.type === "keydown" && e.key === "Tab") hammasi();
    else boshqasi(davr);
  };
  // a box measured before its font arrived (KaTeX's, font-display: swap) may scroll only
  // once it is drawn in it: measured again when fonts finish loading
  if (document.fonts) document.fonts.addEventListener("loadingdone", () => olchangan.forEach(olch));
  const TURLAR = ["keydown", "pointerdown", "wheel", "touchstart", "scroll"];
  for (const t of TURLAR) window.addEventListener(t, birinchi, { capture: true, passive: true });

  // A lesson's interactive map (div.kitob-xarita, book/_static/xarita.js): its script and
  // data load only on a page that has one, when it comes within 600 px of the view.
  const xaritalar = document.querySelectorAll(".kitob-xarita[data-manba]");
  const manzil = document.currentScript.src;          // a deferred classic script has it
  let skript = null;
  const och = (quti) => (skript ||= new Promise((tayyor, xato) => {
    const s = document.createElement("script");
    s.src = new URL("xarita.js", manzil).href;
    s.onload = tayyor;
    s.onerror = () => xato(new Error(`${s.src} did not load`));
    document.head.append(s);
  })).then(() => window.kitobXarita(quti));
  if (xaritalar.length && "IntersectionObserver" in window) {
    const k = new IntersectionObserver((yozuvlar) => yozuvlar.forEach((y) => {
      if (y.isIntersecting) { k.unobserve(y.target); och(y.target); }
    }), { rootMargin: "600px 0px" });
    xaritalar.forEach((x) => k.observe(x));
  } else xaritalar.forEach(och);
})();
