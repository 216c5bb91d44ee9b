/* The book's own script (registered by book/_ext/tez.py; checked by tests/test_brauzer.py).

   Keyboard tab stops on boxes that scroll.  pydata-sphinx-theme gives every code block
   and output box tabindex 0 when it scrolls (so a keyboard can scroll it) and -1 when it
   does not, by measuring all of them as soon as the page loads and again after any
   change: on a long page that lays the whole page out at once, 0.4 s of a phone's time
   before the reader can do anything.  tez.py points the theme's measuring here, which
   keeps its rule and measures box by box instead: the boxes near the screen at once,
   the rest in the browser's idle moments.  Display formulas (which kitob.css lets scroll
   sideways) get the same rule.  When every box is measured,
   <html data-tab-stops="tayyor"> says so. */
(() => {
  "use strict";
  const olch = (el) => {
    el.tabIndex = el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight ? 0 : -1;
  };
  const boshHolat = (f) => (window.requestIdleCallback ? window.requestIdleCallback(f) : setTimeout(f, 50));
  let kuzatuvchi = null;
  let davr = 0;

  window.kitobTabStops = (qutilar) => {
    davr += 1;
    const buDavr = davr;
    // ... and the display formulas, which kitob.css lets scroll sideways on a phone
    const qolgan = new Set([...qutilar, ...document.querySelectorAll(".bd-article div.math")]);
    document.documentElement.dataset.tabStops = "olchanmoqda";
    const tugat = (el) => {
      olch(el);
      qolgan.delete(el);
      if (kuzatuvchi) kuzatuvchi.unobserve(el);
    };
    const tugadimi = () => {
      if (!qolgan.size && buDavr === davr) document.documentElement.dataset.tabStops = "tayyor";
    };
    if (kuzatuvchi) kuzatuvchi.disconnect();
    kuzatuvchi = "IntersectionObserver" in window
      ? new IntersectionObserver((yozuvlar) => {
          for (const y of yozuvlar) if (y.isIntersecting && qolgan.has(y.target)) tugat(y.target);
          tugadimi();
        }, { rootMargin: "300px 0px" })
      : null;
    if (kuzatuvchi) qolgan.forEach((el) => kuzatuvchi.observe(el));
    const bosqich = () => {
      if (buDavr !== davr) return;              // a newer round took over
      const boshi = performance.now();
      while (qolgan.size && performance.now() - boshi < 4) tugat(qolgan.values().next().value);
      if (qolgan.size) boshHolat(bosqich);
      else tugadimi();
    };
    boshHolat(bosqich);
  };
})();
