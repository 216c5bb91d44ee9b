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
  // data load only on a page that has one, in the first idle moment after the page has
  // loaded: not in the first view's way, and drawn before the reader gets to it, so that the
  // page keeps its height as it is scrolled (drawing it when it came near grew a page by up
  // to 600 px under the reader).
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
  if (xaritalar.length) {
    const chiz = () => bosh(() => xaritalar.forEach(och));
    if (document.readyState === "complete") chiz();
    else window.addEventListener("load", chiz, { once: true });
  }
  // A glossary's terms get their "#" link (the address of the term, to share) here, with the
  // title its <dl data-havola> gives: the build writes it once, not after every term
  // (sahifa.py, _AtamaHavolalari), which keeps the glossary's first view in one round trip.
  for (const lugat of document.querySelectorAll("dl.glossary[data-havola]")) {
    for (const atama of lugat.querySelectorAll(":scope > dt[id]")) {
      const a = document.createElement("a");
      a.className = "headerlink";
      a.href = `#${atama.id}`;
      a.title = lugat.dataset.havola;
      a.textContent = "#";
      atama.append(a);
    }
  }
  // The on-page contents (the laptop's right-hand column; book/_templates/page-toc.html takes
  // it from the theme's script) highlight the section being read: the last h2/h3 whose top is
  // above 120 px, or at the page's end the last heading on the screen. Measured on each
  // scroll's frame: a heading's place, not its entering a band, decides.
  const mundarija = document.getElementById("kitob-sahifa-mundarija");
  if (mundarija) {
    const havolalar = [...mundarija.querySelectorAll('a[href^="#"]')];
    const yozuvlar = [...mundarija.querySelectorAll(".toc-entry")];
    const juftlar = [];
    for (const a of havolalar) {
      const nishon = document.getElementById(decodeURIComponent(a.hash.slice(1)));
      if (nishon) juftlar.push([a, nishon.querySelector(":scope > :is(h1, h2, h3, h4, h5, h6)") || nishon]);
    }
    let joriy;
    let kutadi = false;
    const belgila = () => {
      kutadi = false;
      const oxiri = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
      let tanlangan = null;
      for (const [a, sarlavha] of juftlar) {
        const yuqori = sarlavha.getBoundingClientRect().top;
        if (yuqori < 120 || (oxiri && yuqori < window.innerHeight)) tanlangan = a;
      }
      if (tanlangan === joriy) return;
      joriy = tanlangan;
      for (const a of havolalar) {
        a.classList.toggle("active", a === tanlangan);
        if (a === tanlangan) a.setAttribute("aria-current", "true");
        else a.removeAttribute("aria-current");
      }
      for (const y of yozuvlar) y.classList.toggle("active", !!tanlangan && y.contains(tanlangan));
    };
    const navbat = () => { if (!kutadi) { kutadi = true; requestAnimationFrame(belgila); } };
    window.addEventListener("scroll", navbat, { passive: true });
    window.addEventListener("resize", navbat);
    navbat();
  }

  // A figure opened large: a tap on a figure's picture (a link to its full-size file) opens it
  // in a modal dialog over the page: the picture as wide as the screen (a tap on it doubles
  // it, the box scrolls; a pinch zooms as on any page), its caption, ✕. Esc, ✕ and Back close
  // it and the focus returns to the figure; the dialog keeps the focus while open. A click
  // with a modifier still opens the file in a new tab.
  const rasmHavolalari = document.querySelectorAll(".bd-article figure a.image-reference");
  if (rasmHavolalari.length && window.HTMLDialogElement) {
    let oyna = null;
    let tarixda = false;          // the dialog added a history entry that Back removes
    const yarat = () => {
      oyna = document.createElement("dialog");
      oyna.className = "kitob-rasm";
      // the close button's name from Sphinx's catalogue of the page's language (translations.js)
      const yop = window.Documentation?.gettext ? Documentation.gettext("Close") : "Close";
      oyna.innerHTML = '<button type="button" class="kitob-rasm-yop"></button>'
        + '<div class="kitob-rasm-quti"></div><figcaption id="kitob-rasm-izoh"></figcaption>';
      oyna.querySelector(".kitob-rasm-yop").setAttribute("aria-label", yop);
      oyna.querySelector(".kitob-rasm-yop").textContent = "✕";
      oyna.setAttribute("aria-labelledby", "kitob-rasm-izoh");
      document.body.append(oyna);
      const quti = oyna.querySelector(".kitob-rasm-quti");
      oyna.querySelector(".kitob-rasm-yop").addEventListener("click", () => oyna.close());
      quti.addEventListener("click", (e) => {
        if (e.target.tagName !== "IMG") return;
        const r = e.target.getBoundingClientRect();
        const [x, y] = [(e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height];
        quti.classList.toggle("katta");
        quti.scrollLeft = x * quti.scrollWidth - quti.clientWidth / 2;
        quti.scrollTop = y * quti.scrollHeight - quti.clientHeight / 2;
      });
      // Esc closes it wherever the focus is inside (Chromium sent no cancel once a click on the
      // picture had put the focus on the dialog itself)
      oyna.addEventListener("keydown", (e) => {
        if (e.key === "Escape") { e.preventDefault(); oyna.close(); }
      });
      oyna.addEventListener("close", () => {
        if (tarixda) { tarixda = false; history.back(); }
      });
      window.addEventListener("popstate", () => {
        if (oyna.open) { tarixda = false; oyna.close(); }
      });
    };
    const och = (havola) => {
      if (!oyna) yarat();
      const rasm = havola.querySelector("picture, img").cloneNode(true);
      for (const i of [rasm, ...rasm.querySelectorAll("img")]) i.removeAttribute("loading");
      const quti = oyna.querySelector(".kitob-rasm-quti");
      quti.classList.remove("katta");
      quti.replaceChildren(rasm);
      const izoh = havola.closest("figure").querySelector("figcaption");
      const nusxa = izoh ? izoh.cloneNode(true) : document.createElement("span");
      nusxa.querySelectorAll("a.headerlink").forEach((a) => a.remove());
      oyna.querySelector("figcaption").replaceChildren(...nusxa.childNodes);
      history.pushState({ kitobRasm: true }, "");
      tarixda = true;
      oyna.showModal();
    };
    rasmHavolalari.forEach((havola) => havola.addEventListener("click", (e) => {
      if (e.button || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      och(havola);
    }));
  }
  // A search hit opens its page at the word it found: Sphinx's sphinx_highlight.js marks the
  // query's words on the page it opens (span.highlighted) but leaves the page at the
  // section's top, screens above the word. The first marked word in the hit's section (or
  // on the page) is brought to the middle of the screen, once, as the marks appear.
  // (sphinx_highlight.js reads and clears the query before or after this script runs, as
  // the scripts' order falls: the marks it adds 10 ms later are watched for instead.)
  const belgi = new MutationObserver((yozuvlar) => {
    if (!yozuvlar.some((y) => [...y.addedNodes].some((n) => n.classList && n.classList.contains("highlighted")))) return;
    belgi.disconnect();
    const bolim = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    const soz = (bolim && bolim.querySelector("span.highlighted"))
      || document.querySelector(".bd-article span.highlighted");
    if (soz) soz.scrollIntoView({ block: "center" });
  });
  belgi.observe(document.documentElement, { childList: true, subtree: true });
  setTimeout(() => belgi.disconnect(), 3000);
  // Back to the tapped link. A phone that has evicted the page loads it again on Back, and
  // the browser puts back the old scroll position as soon as it can; on a slow or busy
  // phone that can be before the fonts and the page's layout are final, and the link then
  // lands screens away (564 px below a 844-px screen once, under load). So the link a reader
  // follows to another page, and its place on the screen, are kept for the tab's session;
  // when Back (or Forward) loads the page again, the link is put back in that place once the
  // page and its fonts have loaded.
  const qaytish = "kitob-qaytish:" + location.pathname;
  // the link is known by its address and its place among the links with that address (a map
  // drawn after the load may add links of its own)
  const shuManzilli = (h) => [...document.querySelectorAll(`a[href="${CSS.escape(h)}"]`)];
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[href]");
    if (!a || new URL(a.href, location.href).pathname === location.pathname) return;
    const h = a.getAttribute("href");
    const n = shuManzilli(h).indexOf(a);
    try {
      sessionStorage.setItem(qaytish, JSON.stringify({ h, n, y: a.getBoundingClientRect().top }));
    } catch (_) { /* storage off: the browser's own restoring stays */ }
  }, true);
  // The script switch (a.kitob-yozuv, book/_templates/yozuv-tugmasi.html) opens the same
  // page at the place being read: the element the address names if it is on the screen, else
  // the section of the last h2/h3 whose top is above 120 px (as the on-page contents choose);
  // and remembers the choice for the head's script (layout.html).
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a.kitob-yozuv");
    if (!a) return;
    try { localStorage.setItem("kitob-yozuv", a.dataset.kitobYozuv); } catch (_) { /* not remembered */ }
    let id = "";
    const nishon = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const r = nishon && nishon.getBoundingClientRect();
    if (r && r.bottom > 0 && r.top < innerHeight) id = nishon.id;
    else {
      for (const h of document.querySelectorAll(".bd-article section > :is(h2, h3)")) {
        if (h.getBoundingClientRect().top >= 120) break;
        id = h.parentElement.id;
      }
    }
    a.href = a.href.split("#")[0] + (id ? "#" + encodeURIComponent(id) : "");
  }, true);
  const kelish = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  if (kelish && kelish.type === "back_forward") {
    let joy = null;
    try { joy = JSON.parse(sessionStorage.getItem(qaytish) || "null"); } catch (_) { /* as above */ }
    if (joy) {
      const qoy = () => requestAnimationFrame(() => requestAnimationFrame(() => {
        const a = shuManzilli(joy.h)[joy.n];
        if (a) window.scrollBy(0, a.getBoundingClientRect().top - joy.y);
      }));
      const keyin = () => (document.fonts ? document.fonts.ready.then(qoy) : qoy());
      if (document.readyState === "complete") keyin();
      else window.addEventListener("load", keyin, { once: true });
    }
  }
})();
