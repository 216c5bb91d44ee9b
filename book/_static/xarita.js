/* The lessons' interactive maps of attention weights (chapter_code.kitob.xarita writes a
   div.kitob-xarita, book/_ext/qurilish/xarita.py moves its data to the JSON file its
   data-manba names; kitob.js loads this script once the page has loaded).

   The reader picks an example, a kind of attention, a layer and a head (or the heads'
   mean), then a query token (tap, click, hover, or focus with the keyboard; the arrow
   keys move between tokens): under every key token, a bar and the weight in the Uzbek
   form (0,84).  A sentence says where the query looks most (read out by screen readers),
   and a table holds every weight of the choice.  Checked by tests/test_brauzer.py. */
(() => {
  "use strict";
  // kind -> [its name, the tokens that ask (queries), the tokens they look at (keys)]
  const TURLAR = {
    cross: ["koder–dekoder", "chiqish", "sozlar"],
    koder: ["koder (oʻz-oʻziga)", "sozlar", "sozlar"],
    dekoder: ["dekoder (oʻz-oʻziga)", "chiqish", "kirish"],
  };
  const raqam = (x, xona) => x.toFixed(xona).replace(".", ",");   // Uzbek form: 0,84
  const son = (w) => raqam(w / 100, 2);                              // a weight in hundredths
  // a special token is written as the lessons write it, <oxir>; in a sentence it is named a token
  const maxsus = (t) => t.startsWith("<");
  const atalishi = (t) => (maxsus(t) ? `${t} tokeni` : `«${t}»`);
  const guruhla = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  const yasa = (teg, xossalar = {}, ...bolalar) => {
    const el = document.createElement(teg);
    for (const [k, v] of Object.entries(xossalar)) {
      if (k === "matn") el.textContent = v;
      else el.setAttribute(k, v);
    }
    el.append(...bolalar);
    return el;
  };
  let sanoq = 0;

  const tanlov = (nom, yorliq, variantlar) => {
    const id = `kitob-xarita-${++sanoq}`;
    const s = yasa("select", { id, "data-tanlov": nom });
    variantlar.forEach(([qiymat, matn]) => s.append(yasa("option", { value: qiymat, matn })));
    return [yasa("label", { for: id, matn: yorliq }), s];
  };

  const chiz = (quti, malumot) => {
    const misollar = malumot.misollar;
    const boshlar = misollar[0].cross[0].length - 1;   // the last "head" is the heads' mean
    const qatlamlar = misollar[0].cross.length;
    const boshqaruv = yasa("div", { class: "kitob-xarita-boshqaruv" },
      ...tanlov("misol", "Misol", misollar.map((m, i) => [i, `${guruhla(m.son)}: ${
        m.javob === String(m.son) ? "toʻgʻri" : `xato (${m.javob ? guruhla(m.javob) : "boʻsh"})`}`])),
      ...tanlov("tur", "Attention turi", Object.entries(TURLAR).map(([k, [matn]]) => [k, matn])),
      // a model of one layer has no choice of layer to offer
      ...(qatlamlar > 1 ? tanlov("qatlam", "Qatlam", [...Array(qatlamlar).keys()].map((q) => [q, `${q}-qatlam`])) : []),
      ...tanlov("bosh", "Bosh", [[boshlar, "boshlar oʻrtachasi"],
        ...[...Array(boshlar).keys()].map((b) => [b, `${b}-bosh`])]));
    const sorovId = `kitob-xarita-${++sanoq}`;
    const sorovlar = yasa("div", { class: "kitob-xarita-sorovlar", role: "group", "aria-labelledby": sorovId });
    const kalitlar = yasa("ol", { class: "kitob-xarita-kalitlar" });
    const xulosa = yasa("p", { class: "kitob-xarita-xulosa", "aria-live": "polite" });
    const jadval = yasa("table");
    quti.replaceChildren(quti.querySelector(".kitob-xarita-izoh") || "", boshqaruv,
      yasa("p", { class: "kitob-xarita-sarlavha", id: sorovId, matn: "Soʻrov (qaraydigan token):" }), sorovlar,
      xulosa,
      yasa("p", { class: "kitob-xarita-sarlavha", matn: "Kalitlar va ularning ogʻirliklari:" }), kalitlar,
      yasa("details", {}, yasa("summary", { matn: "Hamma ogʻirliklar jadvalda" }),
        yasa("div", { class: "kitob-xarita-jadval", tabindex: "0", role: "region",
                      "aria-label": "Ogʻirliklar jadvali" }, jadval)));
    const tanlangan = (nom) => boshqaruv.querySelector(`[data-tanlov=${nom}]`)?.value ?? "0";
    let faol = 0;

    const holat = () => {
      const m = misollar[+tanlangan("misol")], tur = tanlangan("tur");
      const [, sorov, kalit] = TURLAR[tur];
      const bosh = +tanlangan("bosh");
      return { m, tur, w: m[tur][+tanlangan("qatlam")][bosh], sorovlar: m[sorov],
               kalitlar: m[kalit],
               boshda: bosh === boshlar ? "boshlar oʻrtachasida" : `${bosh}-boshda` };
    };

    const korsat = () => {
      const h = holat();
      faol = Math.min(faol, h.sorovlar.length - 1);
      sorovlar.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-pressed", String(i === faol)));
      const qator = h.w[faol];
      kalitlar.replaceChildren(...h.kalitlar.map((k, j) => yasa("li", { "data-w": qator[j] },
        yasa("span", { class: "kitob-xarita-token", matn: k }),
        yasa("span", { class: "kitob-xarita-ustun", style: `--w:${qator[j] / 100}`, "aria-hidden": "true" }),
        yasa("span", { class: "kitob-xarita-qiymat", matn: son(qator[j]) }))));
      // every key with the largest weight as shown (two may round alike: both are named), a
      // token that occurs twice with its place
      const eng = Math.max(...qator);
      const nomi = (j) => (h.kalitlar.filter((k) => k === h.kalitlar[j]).length > 1
        ? `${j}-pozitsiyadagi ${atalishi(h.kalitlar[j])}` : atalishi(h.kalitlar[j]));
      const engilar = qator.flatMap((w, j) => (w === eng ? [nomi(j)] : []));
      // the dative after the last word: «ellik»ka, «qirq»qa, «besh»ga
      const ga = /k»$/.test(engilar[engilar.length - 1]) ? "ka" : /q»$/.test(engilar[engilar.length - 1]) ? "qa" : "ga";
      const sorov = h.sorovlar[faol];
      const kim = h.tur === "koder" ? `«${sorov}» soʻzi`
        : maxsus(sorov) ? `${sorov} tokenini yozayotgan pozitsiya` : `«${sorov}»ni yozayotgan pozitsiya`;
      xulosa.textContent = engilar.length === 1
        ? `${kim} ${h.boshda} eng koʻp ${engilar[0]}${ga} qaraydi: ${son(eng)}.`
        : `${kim} ${h.boshda} eng koʻp ${engilar.join(" va ")}${ga} qaraydi, har biriga taxminan ${son(eng)} dan.`;
    };

    const tanla = (i) => { if (i !== faol) { faol = i; korsat(); } };
    const qur = () => {
      const h = holat();
      faol = Math.min(faol, h.sorovlar.length - 1);
      sorovlar.replaceChildren(...h.sorovlar.map((s, i) => {
        const b = yasa("button", { type: "button", class: "kitob-xarita-token", matn: s });
        b.addEventListener("click", () => tanla(i));
        b.addEventListener("focus", () => tanla(i));
        b.addEventListener("pointerenter", (e) => e.pointerType === "mouse" && tanla(i));
        return b;
      }));
      jadval.replaceChildren(
        yasa("caption", { matn: `${TURLAR[h.tur][0]} attention, ${h.boshda}: har qator — soʻrov, har ustun — kalit` }),
        yasa("thead", {}, yasa("tr", {}, yasa("th", { scope: "col", matn: "soʻrov" }),
          ...h.kalitlar.map((k) => yasa("th", { scope: "col", matn: k })))),
        yasa("tbody", {}, ...h.w.map((qator, i) => yasa("tr", {}, yasa("th", { scope: "row", matn: h.sorovlar[i] }),
          ...qator.map((w) => yasa("td", { matn: son(w) }))))));
      korsat();
    };
    sorovlar.addEventListener("keydown", (e) => {
      const tugmalar = [...sorovlar.querySelectorAll("button")];
      const qadam = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!qadam) return;
      e.preventDefault();
      tugmalar[(faol + qadam + tugmalar.length) % tugmalar.length].focus();
    });
    boshqaruv.addEventListener("change", qur);
    qur();
    quti.dataset.tayyor = "ha";
  };

  // The softmax control: the scores times c, over sqrt(d), through softmax, row by row; c moves
  // in powers of two from 1/4 to where every row's largest weight is at least 0.99 (c = 1: the
  // lesson's division by sqrt(d); c = sqrt(d): no division at all).
  const softmax = (qator) => {
    const eng = Math.max(...qator);
    const e = qator.map((z) => Math.exp(z - eng));
    const jami = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / jami);
  };
  const chizSoftmax = (quti, { ballar, d }) => {
    const id = `kitob-xarita-${++sanoq}`;
    const engKatta = (c) => Math.min(...ballar.map((q) => Math.max(...softmax(q.map((z) => (c * z) / Math.sqrt(d))))));
    let yuqori = 2;             // up to the first power of two where every row has saturated
    while (yuqori < 10 && engKatta(2 ** yuqori) < 0.99) yuqori += 1;
    const surgich = yasa("input", { type: "range", id, min: "-2", max: String(yuqori), step: "0.25", value: "0" });
    const qiymat = yasa("output", { for: id });
    const jadval = yasa("table");
    const xulosa = yasa("p", { class: "kitob-xarita-xulosa", "aria-live": "polite" });
    const T = ballar.length;
    const korsat = () => {
      const c = 2 ** +surgich.value;
      const w = ballar.map((q) => softmax(q.map((z) => (c * z) / Math.sqrt(d))));
      qiymat.textContent = `c = ${raqam(c, 2)}`;
      surgich.setAttribute("aria-valuetext", qiymat.textContent);
      jadval.replaceChildren(
        yasa("caption", { matn: `softmax(c · ball / √${d}), c = ${raqam(c, 2)}: har qator — soʻrov, ` +
          "har ustun — kalit pozitsiyasi" }),
        yasa("thead", {}, yasa("tr", {}, yasa("th", { scope: "col", matn: "soʻrov" }),
          ...[...Array(T).keys()].map((j) => yasa("th", { scope: "col", matn: String(j) })))),
        yasa("tbody", {}, ...w.map((qator, i) => yasa("tr", {}, yasa("th", { scope: "row", matn: String(i) }),
          ...((eng) => qator.map((x) => yasa("td", { "data-w": x, class: x === eng ? "eng" : "",
            matn: raqam(x, 3) })))(Math.max(...qator))))));
      xulosa.textContent = `c = ${raqam(c, 2)}: qatorlarning eng katta ogʻirliklari ${
        w.map((q) => raqam(Math.max(...q), 3)).join("; ")}.`;
    };
    surgich.addEventListener("input", korsat);
    quti.replaceChildren(quti.querySelector(".kitob-xarita-izoh") || "",
      yasa("label", { for: id, class: "kitob-xarita-sarlavha", matn: "Ballar koʻpaytuvchisi c:" }),
      yasa("div", { class: "kitob-xarita-surgich" }, surgich, qiymat),
      yasa("div", { class: "kitob-xarita-jadval", tabindex: "0", role: "region", "aria-label": "Ogʻirliklar jadvali" },
        jadval),
      xulosa);
    korsat();
    quti.dataset.tayyor = "ha";
  };

  // the map's data: a script beside the page (book/_ext/qurilish/xarita.py), which a browser
  // also runs for a page opened from files, where it would refuse a fetch
  const malumot = (nom) => new Promise((tayyor, xato) => {
    const s = document.createElement("script");
    s.src = nom;
    s.onload = () => (window.kitobXaritaMalumot?.[nom] ? tayyor(window.kitobXaritaMalumot[nom])
                                                       : xato(new Error(`${nom} holds no map's data`)));
    s.onerror = () => xato(new Error(`${nom} did not load`));
    document.head.append(s);
  });
  window.kitobXarita = (quti) => malumot(quti.dataset.manba)
    .then((m) => (m.ballar ? chizSoftmax(quti, m) : chiz(quti, m)))
    .catch((xato) => {
      // what the control is and what stands in for it (chapter_code.kitob writes them in
      // data-nima and data-orniga: the figures before the capstone's map, the printed weights
      // before the softmax control)
      const nima = quti.dataset.nima || "interaktiv xarita";
      const orniga = quti.dataset.orniga || "oʻsha ogʻirliklar yuqorida, matnda ham berilgan";
      quti.replaceChildren(yasa("p", { class: "kitob-xarita-jssiz",
        matn: `${nima[0].toUpperCase()}${nima.slice(1)} maʼlumotini yuklab boʻlmadi; ${orniga}.` }));
      console.error(xato);
    });
})();
