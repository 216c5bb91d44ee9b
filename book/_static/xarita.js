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
  // Every word the maps write, in one JSON object between the two kitob-soz comments: an
  // edition in another script writes its copy of this file with the object in its script
  // (book/_ext/qurilish/xarita.py).  {name} is a value put in (soz); the tokens, the model's,
  // stay as the data give them.
  const SOZ = /* kitob-soz */ {
    "koder-dekoder": "koder-dekoder", "koder": "koder (oʻz-oʻziga)", "dekoder": "dekoder (oʻz-oʻziga)",
    "tokeni": "{t} tokeni", "toʻgʻri": "toʻgʻri", "xato": "xato ({javob})", "boʻsh": "boʻsh",
    "Misol": "Misol", "Attention turi": "Attention turi", "Qatlam": "Qatlam", "qatlam": "{q}-qatlam",
    "Bosh": "Bosh", "boshlar oʻrtachasi": "boshlar oʻrtachasi", "bosh": "{b}-bosh",
    "Soʻrov": "Soʻrov (qaraydigan token):", "Kalitlar": "Kalitlar va ularning ogʻirliklari:",
    "Hamma": "Hamma ogʻirliklar jadvalda", "Jadval": "Ogʻirliklar jadvali",
    "boshlar oʻrtachasida": "boshlar oʻrtachasida", "boshda": "{b}-boshda",
    "pozitsiyadagi": "{j}-pozitsiyadagi {nomi}", "ga": "ga", "ka": "ka", "qa": "qa",
    "soʻzi": "«{s}» soʻzi", "tokenini yozayotgan": "{s} tokenini yozayotgan pozitsiya",
    "ni yozayotgan": "«{s}»ni yozayotgan pozitsiya",
    "bittaga": "{kim} {boshda} eng koʻp {eng}{ga} qaraydi: {w}.",
    "bir nechtaga": "{kim} {boshda} eng koʻp {engilar}{ga} qaraydi, har biriga taxminan {w} dan.",
    "va": " va ", "jadval sarlavhasi": "{tur} attention, {boshda}: har qator — soʻrov, har ustun — kalit",
    "soʻrov": "soʻrov",
    "softmax sarlavhasi": "softmax(c · ball / √{d}), c = {c}: har qator — soʻrov, har ustun — kalit pozitsiyasi",
    "softmax xulosasi": "c = {c}: qatorlarning eng katta ogʻirliklari {w}.",
    "koʻpaytuvchi": "Ballar koʻpaytuvchisi c:", "interaktiv xarita": "interaktiv xarita",
    "oʻrniga": "oʻsha ogʻirliklar yuqorida, matnda ham berilgan",
    "yuklanmadi": "{nima} maʼlumotini yuklab boʻlmadi; {orniga}."
  } /* kitob-soz */;
  const soz = (kalit, qiymatlar = {}) => SOZ[kalit].replace(/\{(\w+)\}/g, (_, k) => qiymatlar[k]);
  // kind -> [its name, the tokens that ask (queries), the tokens they look at (keys)]
  const TURLAR = {
    cross: [soz("koder-dekoder"), "chiqish", "sozlar"],
    koder: [soz("koder"), "sozlar", "sozlar"],
    dekoder: [soz("dekoder"), "chiqish", "kirish"],
  };
  const raqam = (x, xona) => x.toFixed(xona).replace(".", ",");   // Uzbek form: 0,84
  const son = (w) => raqam(w / 100, 2);                              // a weight in hundredths
  // a special token is written as the lessons write it, <oxir>; in a sentence it is named a token
  const maxsus = (t) => t.startsWith("<");
  const atalishi = (t) => (maxsus(t) ? soz("tokeni", { t }) : `«${t}»`);
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
      ...tanlov("misol", soz("Misol"), misollar.map((m, i) => [i, `${guruhla(m.son)}: ${
        m.javob === String(m.son) ? soz("toʻgʻri") : soz("xato", { javob: m.javob ? guruhla(m.javob) : soz("boʻsh") })}`])),
      ...tanlov("tur", soz("Attention turi"), Object.entries(TURLAR).map(([k, [matn]]) => [k, matn])),
      // a model of one layer has no choice of layer to offer
      ...(qatlamlar > 1 ? tanlov("qatlam", soz("Qatlam"), [...Array(qatlamlar).keys()].map((q) => [q, soz("qatlam", { q })])) : []),
      ...tanlov("bosh", soz("Bosh"), [[boshlar, soz("boshlar oʻrtachasi")],
        ...[...Array(boshlar).keys()].map((b) => [b, soz("bosh", { b })])]));
    const sorovId = `kitob-xarita-${++sanoq}`;
    const sorovlar = yasa("div", { class: "kitob-xarita-sorovlar", role: "group", "aria-labelledby": sorovId });
    const kalitlar = yasa("ol", { class: "kitob-xarita-kalitlar" });
    const xulosa = yasa("p", { class: "kitob-xarita-xulosa", "aria-live": "polite" });
    const jadval = yasa("table");
    quti.replaceChildren(quti.querySelector(".kitob-xarita-izoh") || "", boshqaruv,
      yasa("p", { class: "kitob-xarita-sarlavha", id: sorovId, matn: soz("Soʻrov") }), sorovlar,
      xulosa,
      yasa("p", { class: "kitob-xarita-sarlavha", matn: soz("Kalitlar") }), kalitlar,
      yasa("details", {}, yasa("summary", { matn: soz("Hamma") }),
        yasa("div", { class: "kitob-xarita-jadval", tabindex: "0", role: "region",
                      "aria-label": soz("Jadval") }, jadval)));
    const tanlangan = (nom) => boshqaruv.querySelector(`[data-tanlov=${nom}]`)?.value ?? "0";
    let faol = 0;

    const holat = () => {
      const m = misollar[+tanlangan("misol")], tur = tanlangan("tur");
      const [, sorov, kalit] = TURLAR[tur];
      const bosh = +tanlangan("bosh");
      return { m, tur, w: m[tur][+tanlangan("qatlam")][bosh], sorovlar: m[sorov],
               kalitlar: m[kalit],
               boshda: bosh === boshlar ? soz("boshlar oʻrtachasida") : soz("boshda", { b: bosh }) };
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
        ? soz("pozitsiyadagi", { j, nomi: atalishi(h.kalitlar[j]) }) : atalishi(h.kalitlar[j]));
      const engilar = qator.flatMap((w, j) => (w === eng ? [nomi(j)] : []));
      // the dative after the last word: «ellik»ka, «qirq»qa, «besh»ga
      const oxirgi = engilar[engilar.length - 1];
      const ga = soz(/k»$/.test(oxirgi) ? "ka" : /q»$/.test(oxirgi) ? "qa" : "ga");
      const s = h.sorovlar[faol];
      const kim = soz(h.tur === "koder" ? "soʻzi" : maxsus(s) ? "tokenini yozayotgan" : "ni yozayotgan", { s });
      xulosa.textContent = engilar.length === 1
        ? soz("bittaga", { kim, boshda: h.boshda, eng: engilar[0], ga, w: son(eng) })
        : soz("bir nechtaga", { kim, boshda: h.boshda, engilar: engilar.join(soz("va")), ga, w: son(eng) });
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
        yasa("caption", { matn: soz("jadval sarlavhasi", { tur: TURLAR[h.tur][0], boshda: h.boshda }) }),
        yasa("thead", {}, yasa("tr", {}, yasa("th", { scope: "col", matn: soz("soʻrov") }),
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
        yasa("caption", { matn: soz("softmax sarlavhasi", { d, c: raqam(c, 2) }) }),
        yasa("thead", {}, yasa("tr", {}, yasa("th", { scope: "col", matn: soz("soʻrov") }),
          ...[...Array(T).keys()].map((j) => yasa("th", { scope: "col", matn: String(j) })))),
        yasa("tbody", {}, ...w.map((qator, i) => yasa("tr", {}, yasa("th", { scope: "row", matn: String(i) }),
          ...((eng) => qator.map((x) => yasa("td", { "data-w": x, class: x === eng ? "eng" : "",
            matn: raqam(x, 3) })))(Math.max(...qator))))));
      xulosa.textContent = soz("softmax xulosasi", { c: raqam(c, 2),
                                                     w: w.map((q) => raqam(Math.max(...q), 3)).join("; ") });
    };
    surgich.addEventListener("input", korsat);
    quti.replaceChildren(quti.querySelector(".kitob-xarita-izoh") || "",
      yasa("label", { for: id, class: "kitob-xarita-sarlavha", matn: soz("koʻpaytuvchi") }),
      yasa("div", { class: "kitob-xarita-surgich" }, surgich, qiymat),
      yasa("div", { class: "kitob-xarita-jadval", tabindex: "0", role: "region", "aria-label": soz("Jadval") },
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
      const nima = quti.dataset.nima || soz("interaktiv xarita");
      const orniga = quti.dataset.orniga || soz("oʻrniga");
      quti.replaceChildren(yasa("p", { class: "kitob-xarita-jssiz",
        matn: soz("yuklanmadi", { nima: `${nima[0].toUpperCase()}${nima.slice(1)}`, orniga }) }));
      console.error(xato);
    });
})();
