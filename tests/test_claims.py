"""Every claim the chapter's text and summary make, checked against the glued measurements.

The values come from the executed chapter (MyST-NB glue), the same numbers the
reader sees.  If a claim fails, the text must change, not this test.
"""

import ast
import math
import re

import jupytext
import pytest
from bs4 import BeautifulSoup
from conftest import DARS_FAYLLARI, ILDIZ, bob_glue, bob_html

from chapter_code.bichim import son   # table cells are written in Uzbek form (0,22; 35 333)
from chapter_code.bichim import pastga, yuqoriga   # "kamida" and "koʻpi bilan" bounds
from sonni_oqish import songa   # ... and read back from it
from davo import davo           # a kind-(a) claim: asserted by name, its margin recorded
from chapter_code.natijalar import yechdi_gapi



@pytest.fixture(scope="module")
def glued(qurilgan):
    """name -> Python value of every glued variable in the executed lessons."""
    glue = bob_glue(qurilgan)
    qiymatlar = {}
    for nom, chiqish in glue.items():
        matn = chiqish["data"].get("text/plain", "")
        try:
            qiymatlar[nom] = ast.literal_eval(matn)
        except (ValueError, SyntaxError):
            qiymatlar[nom] = matn
    return qiymatlar


@pytest.fixture(scope="module")
def sahifa(qurilgan):
    """The published pages of the chapter (its lessons in order), parsed as one."""
    return BeautifulSoup(bob_html(qurilgan), "html.parser")


def _qatorlar(sahifa, jadval_id: str) -> list[list[str]]:
    """The data rows of a table on the page (its header row left out), each cell's text."""
    jadval = sahifa.find("table", id=jadval_id)
    assert jadval is not None, f"table {jadval_id!r} is not on the chapter page"
    tana = jadval.find("tbody")
    assert tana is not None, f"table {jadval_id!r} has no body"
    qatorlar = [[c.get_text().strip() for c in tr.find_all(["td", "th"])] for tr in tana.find_all("tr")]
    assert qatorlar, f"table {jadval_id!r} has no rows"
    return qatorlar


@pytest.mark.build
def test_gradient_ratio_near_one_for_attention_huge_for_rnn_and_lstm(glued):
    """'oʻqitish boshida 0-qadamga deyarli hech narsa yetib bormaydi' (RNN 4,7·10¹¹, LSTM
    1,2·10¹²), attention 'deyarli bir xil' (1,05), forget bias 3 'atigi' (1,26): at
    initialisation only, as the text says."""
    davo("attentionda 0-qadam va oxirgi qadam gradienti deyarli teng", glued["grad_attention"],
         kamida=0.5, kopi=2.0)
    davo("RNNda 0-qadamga gradient yetmaydi (log10 nisbat)", math.log10(glued["grad_rnn"]), kamida=6)
    davo("LSTMda 0-qadamga gradient yetmaydi (log10 nisbat)", math.log10(glued["grad_lstm"]), kamida=6)
    # "20 ta seedda nisbatning medianasi RNNda kattaroq, lekin eng kichigi ham …" (a breaker: medians
    # 10^14,9 and 10^12,1 over 20 initialisations; the smallest of both models 10^10)
    davo("20 seedda RNN nisbatining medianasi LSTMnikidan katta (log10)",
         math.log10(glued["grad_20_rnn_med"] / glued["grad_20_lstm_med"]), kamida=0.5)
    davo("20 seedda eng kichik nisbat ham juda katta (log10)", math.log10(glued["grad_20_min"]), kamida=6)
    assert glued["grad_20_min"] == min(glued["grad_20_rnn_min"], glued["grad_20_lstm_min"])
    # "only the forget gate's starting value differs": with it raised the ratio is of order one
    # in this initialisation ("bu initsializatsiyada atigi"; a breaker saw 0,24-20,4 over 20 others)
    davo("unutish siljishi bilan LSTM nisbati kichik", glued["grad_lstm_unutish"], kopi=10)
    # "standart LSTMdagidan koʻp tartibga kichik": the breaker's worst pair over 20 initialisations
    # was 1,3·10¹⁰ against 20,4, near nine orders
    davo("unutish siljishi nisbatni koʻp tartibga kichraytiradi (log10)",
         math.log10(glued["grad_lstm"] / glued["grad_lstm_unutish"]), kamida=6)
    # "20 xil initsializatsiyada u … dan … gacha oʻzgaradi, lekin baribir standart LSTMdagidan
    # kamida … marta kichik": the smallest standard LSTM's ratio over the largest of the 20
    # (an editor: "millionlab" understated it; 1,3·10¹⁰ / 20 ≈ 6·10⁸ here)
    u = glued["grad_20_u"]
    assert len(u) == 20 and (glued["grad_20_u_min"], glued["grad_20_u_max"]) == (min(u), max(u))
    assert glued["grad_20_u_farq"] == pytest.approx(glued["grad_20_lstm_min"] / glued["grad_20_u_max"], rel=1e-12)
    davo("20 initsializatsiyada ham unutish siljishi koʻp tartibga kichik (log10)",
         math.log10(glued["grad_20_u_farq"]), kamida=6)


# --------------------------------------------------------------------------
# rekurrent: each sentence is fixed prose; each bound below guards one (kind a: by design,
# with the value measured here in the comment), the rest are the glued spread (kind b)
# --------------------------------------------------------------------------
def _matn(sahifa) -> str:
    """The page's text with runs of ASCII white space (line breaks in the source) as one space
    (U+202F, the thin space of Uzbek numbers, stays)."""
    return re.sub(r"[ \t\r\n]+", " ", sahifa.get_text())


@pytest.mark.build
@pytest.mark.parametrize("qisqa", ("rnn", "lstm", "attn", "attn0"))
def test_every_model_trains_on_five_seeds_and_the_table_shows_them(glued, sahifa, qisqa):
    """'har model besh seed bilan': the glued accuracies are the table's, five of each."""
    aniq = glued[f"{qisqa}_seedlar"]
    assert len(aniq) == 5
    assert (glued[f"{qisqa}_min"], glued[f"{qisqa}_max"]) == (min(aniq), max(aniq))
    nomi = {"rnn": "RNN", "lstm": "LSTM", "attn": "pozitsiyali attention",
            "attn0": "pozitsiyasiz attention"}[qisqa]
    qatorlar = {q[0]: q[1] for q in _qatorlar(sahifa, "sinov-jadval")}
    assert qatorlar[nomi] == "; ".join(son(a, ".3f") for a in aniq)


@pytest.mark.build
def test_the_training_claims_of_rekurrent_hold(glued):
    """The four bullets under the training table, and the summary's position row."""
    # "Pozitsiyali attention vazifani besh seedning hammasida yechdi" (0,993 on every seed)
    davo("pozitsiyali attention besh seedning hammasida yechadi", glued["attn_min"], kamida=0.9)
    # RNN: "natijasi seedga kuchli bogʻliq" — best and worst differ by more than three
    # standard errors of a difference (0,737–0,942); "oʻrganishni imkonsiz qilmaydi" — it
    # solves the task on some seed (max 0,942).  (No bound on its worst seed: a reviewer's
    # seeds 5 and 9 stayed at chance, 0,510 and 0,477; the text now says it may.)
    lo, hi = glued["rnn_min"], glued["rnn_max"]
    xato = math.sqrt((lo * (1 - lo) + hi * (1 - hi)) / glued["protokol_n_sinov"])
    davo("RNN natijasi seedga kuchli bogʻliq (farq / 3 xato)", (hi - lo) / (3 * xato), kamida=1)
    davo("RNN vazifani biror seedda yechadi", hi, kamida=0.9)
    assert glued["rnn_yechdi"] == sum(a >= 0.9 for a in glued["rnn_seedlar"]) >= 1
    # LSTM: the count is the accuracies' (kind b: no bound), at the threshold the text names
    assert glued["yechdi_chegara"] == 0.9
    assert glued["lstm_yechdi"] == sum(a >= 0.9 for a in glued["lstm_seedlar"])
    # "Pozitsiyasiz attention vazifani hech bir seedda yecha olmadi" (0,55–0,58): it sees a
    # set, not a sequence (float32 rounding only)
    davo("pozitsiyasiz attention hech bir seedda yecha olmaydi", glued["attn0_max"], kopi=0.9)
    # "Toʻgʻri javoblar yarmidan biroz koʻp ekani tasodif emas": every seed above a half (0,540-0,558;
    # a breaker: 0,507-0,560 on seeds 5-9), as the order-blind sign majority is
    davo("pozitsiyasiz attention har seedda yarmidan koʻp toʻgʻri (farq)", min(glued["attn0_seedlar"]) - 0.5, kamida=0)
    davo("pozitsiyasiz attention tartibni koʻrmaydi (aralashtirilgan farq)", glued["aralash_farq"], kopi=1e-5)


@pytest.mark.build
def test_the_model_looked_at_puts_its_weight_on_step_0(glued, sahifa):
    """The map section: the best seed's model (the table's best), 'oʻrtacha eʼtiborning … 0-qadamga'
    (0,9996) found by itself, and in one sample every query gives step 0 a large weight (the
    figure's bright left column)."""
    aniq = glued["attn_seedlar"]
    davo("oʻrtacha ogʻirlikning deyarli hammasi 0-qadamda", glued["qadam0"], kamida=0.9)
    # "ogʻirligining deyarli hammasini 0-qadamga beradi: eng kami …" (1,00; a breaker saw 1,000)
    davo("bitta namunada har soʻrov 0-qadamga deyarli hamma ogʻirligini beradi", glued["bir_namuna0"], kamida=0.9)
    assert max(aniq) >= 0.9
    # the RNN step written by hand is nn.RNN's (exercise 4)
    davo("qoʻlda yozilgan RNN qadami nn.RNN bilan bir xil", glued["m4_farq"], kopi=1e-5)


@pytest.mark.build
def test_scaling_by_sqrt_d_keeps_scores_and_softmax_from_growing_with_d(glued):
    """The sqrt(d) sweep: unscaled std grows like sqrt(d) (1024/8 = 128, sqrt = 11.3),
    scaled std stays put, and the unscaled softmax is the peakier one at d = 512."""
    assert glued["sq_std_1024"] / glued["sq_std_8"] == pytest.approx(128 ** 0.5, rel=0.2)
    # scaled, the spread does not grow with d: "bu initsializatsiyada" (seed 0) within a quarter at
    # every d (a breaker: over seeds 1-4, 0,25-0,37 at d = 8 and 0,33-0,34 at d = 512 and 1024)
    assert glued["sq_std_bol_max"] / glued["sq_std_bol_min"] < 1.25
    assert glued["sq_max_512"] > glued["sq_max_512_bol"] + 0.3
    # the text's explanation of the level: Q's components have variance ≈ 1/3, so the
    # scaled std is ≈ 1/3 and the unscaled std at d = 512 is ≈ sqrt(512)/3
    assert glued["sq_var_q"] == pytest.approx(1 / 3, rel=0.1)
    assert glued["sq_std_512"] == pytest.approx(512 ** 0.5 * glued["sq_var_q"], rel=0.2)
    assert glued["sq_max_512_min"] < glued["sq_max_512"] <= 1


@pytest.mark.build
def test_sdpa_removes_the_quadratic_memory_not_the_quadratic_time(glued, sahifa):
    """flash's paragraphs (FlashAttention and SDPA).  Each bound guards a sentence stated without a branch
    (kind a: by design, with room on every CPU seen; the measured value in the comment)."""
    # the hand-written attention (the tables' "qoʻlda") keeps two 8 x T x T float matrices at
    # once, the scores and the weights ("ikkita ... matritsa"): slope 2 (2,00), 1024 MiB at T = 4096
    davo("formulaning xotira qiyaligi 2", glued["fl_xq"], kamida=1.8, kopi=2.2)
    assert glued["fl_mib"] == pytest.approx(2 * 8 * 4096 * 4096 * 4 / 2**20, rel=0.01)
    # SDPA's flash kernel (4-D): its output, linear in T, and a fixed buffer, so a slope
    # under 1 ("qiyalik 1 dan ham kichik"; 0,79) and a small fraction of the formula's peak
    davo("SDPA (4D) xotira qiyaligi 1 dan kichik", glued["fl_xq_sdpa"], kopi=1)
    davo("SDPA (4D) choʻqqisi formulanikidan ancha kichik (nisbat / 50)",
         glued["fl_mib"] / glued["fl_mib_sdpa"] / 50, kamida=1)
    # the online softmax over key tiles: "T ga chiziqli" (1,00: its 8 x T x B tiles), far
    # below the full matrix (68 against 1024 MiB), and the same result ("faqat float32
    # yaxlitlashidan": 2,1·10⁻⁷)
    davo("boʻlaklab xotira qiyaligi 1 ga yaqin", glued["fl_xq_bolak"], kamida=0.8, kopi=1.2)
    davo("boʻlaklab choʻqqisi formulanikidan ancha kichik (nisbat / 5)",
         glued["fl_mib"] / glued["fl_mib_bolak"] / 5, kamida=1)
    davo("boʻlaklab natija formulaniki bilan bir xil", glued["bolak_farq"], kopi=1e-5)
    # the byte count (by design: integer arithmetic): (4Td + 4T²) / (2Td + 2T²d/B) at T = 4096,
    # B = 128; "Katta T da bu nisbat 2B/d ga yaqinlashadi": within 5 % of it at T = 4096
    for d in (64, 128):
        kutilgan = (4 * 4096 * d + 4 * 4096**2) / (2 * 4096 * d + 2 * 4096 * d * 32)
        assert glued[f"bayt_nisbat_{d}"] == pytest.approx(kutilgan)
        assert glued[f"bayt_nisbat_{d}"] == pytest.approx(2 * 128 / d, rel=0.05)
    # 3-D input falls back to the math path: T x T again (1,99)
    davo("SDPA (3D) xotira qiyaligi 2 ga yaqin", glued["fl_xq_3d"], kamida=1.8)
    assert glued["fl_mib_3d"] >= 8 * 4096 * 4096 * 4 / 2**20
    # "Vaqt esa toʻrtala usulda ham T ning oʻzidan ancha tez oʻsdi: qiyaliklar 1 dan ancha katta
    # …, chunki … hisob hajmi T² ga proporsional": 8·T²·d multiply-adds dominate at T >= 1024,
    # so the fitted slope is near 2 on a quiet machine (stop 69's AVX-512 Xeon: 2,14; 2,22;
    # 1,99; 2,14).  Other work on the machine moves it either way: make test's load took it to
    # 2,33-2,48 on stop 67's machine, make arifmetika's to 2,53, and down to 1,66 (SDPA) and
    # 1,67 (3-D) on stop 69's in x105, where the page said "T² ga yaqin yoki undan tezroq" and
    # this test asked 1,7.  The sentence now claims what holds under load too: far above linear.
    for nom in ("fl_vq", "fl_vq_bolak", "fl_vq_sdpa", "fl_vq_3d"):
        davo(f"vaqt chiziqlidan ancha tez oʻsadi ({nom})", glued[nom], kamida=1.4)
    # "flash kerneli qoʻlda yozilgan funksiya sarflagan vaqtning N foizini sarfladi; bu ulush
    # protsessorga bogʻliq"
    # is kind (b): the share glued, no direction claimed (make arifmetika measured 61 % natively,
    # 96 % with MKL limited to SSE4.2 and oneDNN to SSE4.1; "faster" had a margin of 0,04)
    jadval_fl = sahifa.find("table", id="flash-jadval")
    sarlavha_fl = [c.get_text().strip() for c in jadval_fl.find("thead").find_all("th")]
    vaqt = {q["usul"]: songa(q["vaqt (ms)"]) for q in
            (dict(zip(sarlavha_fl, q)) for q in _qatorlar(sahifa, "flash-jadval")) if q["T"] == "4096"}
    # the share is the table's two times (rounded there to 0,1 ms)
    assert glued["fl_vaqt_foiz"] == pytest.approx(100 * vaqt["SDPA"] / vaqt["qoʻlda"], rel=0.01)
    # the chunked sentence follows the sign of its times at T = 4096 (one of two prepared wordings)
    assert ("tezlashmadi" in glued["fl_bolak_gap"]) == (vaqt["boʻlaklab"] >= vaqt["qoʻlda"]), glued["fl_bolak_gap"]
    # "Natijalar amalda bir xil"
    davo("SDPA va formula natijasi amalda bir xil", glued["fl_farq"], kopi=1e-5)
    jadval = sahifa.find("table", id="flash-jadval")
    assert jadval is not None and len(jadval.find("tbody").find_all("tr")) == 16
    # the slopes' table shows the glued slopes
    qiy = {q[0]: q[1:] for q in _qatorlar(sahifa, "qiyalik-jadval")}
    assert songa(qiy["qoʻlda"][0]) == pytest.approx(glued["fl_xq"], abs=0.006)
    assert songa(qiy["SDPA"][1]) == pytest.approx(glued["fl_vq_sdpa"], abs=0.006)


#: flash's two functions timed at T = 1024 and 2048 in a fresh process by the book's own timer
#: (``mediana_ms`` without its store), with its allocator setting (``kitob``) or with it turned
#: off, glibc's defaults (``odatiy``); prints their medians in ms.
_AJRATUVCHI_SKRIPTI = """
import ast, json, sys, torch
from chapter_code import oqitish
torch.set_flush_denormal(True)
if sys.argv[1] == "odatiy":
    oqitish._malloc_sozla = lambda: None
daraxt = ast.parse(sys.argv[2])
daraxt.body = [t for t in daraxt.body if isinstance(t, ast.FunctionDef)]
nomlar = {"torch": torch}
exec(compile(daraxt, "flash.py", "exec"), nomlar)
natija = {}
for T in (1024, 2048):
    torch.manual_seed(0)
    qkv = tuple(torch.randn(8, 1, T, 32) for _ in range(3))
    with torch.no_grad():
        natija[T] = {nom: oqitish.mediana_ms.__wrapped__("fn(*k)", fn=nomlar[nom], k=qkv)
                     for nom in ("formula", "bolaklab")}
print(json.dumps(natija))
"""


def test_til_modeli_only_two_layers_depend_on_the_vocabulary():
    """til_modeli's table 1.16 caption: «qolgan qatlamlardagi parametrlar soni lugʻatga bogʻliq
    emas» (the embedding and the output layer are the table's; the rest is one number)."""
    from chapter_code.modellar import KichikGPT

    def qolgan(V):
        m = KichikGPT(V, d=64, boshlar=4, qatlamlar=2, T_max=64)
        jami = sum(p.numel() for p in m.parameters())
        return jami - sum(p.numel() for q in (m.emb, m.chiqish) for p in q.parameters())

    assert qolgan(99) == qolgan(599) == qolgan(50257) > 0


def test_flash_the_allocator_decides_whether_chunks_save_time():
    """flash: «Bu funksiya [mediana_ms] chaqirilmagan jarayonda esa Linuxda glibc kutubxonasining
    odatiy sozlamasi amal qiladi. U holda jadvaldagi T = 1024 va undan katta qiymatlarda qoʻlda
    yozilgan funksiya … ancha sekinlashadi (T = 512 da esa baʼzan). Ikki funksiya orasidagi farq
    keskin qisqaradi: protsessorga qarab boʻlaklab funksiya hatto tezroq boʻlishi mumkin».  The
    lesson's own two functions at the table's T = 1024 and 2048, each setting in a fresh process
    (mallopt cannot be undone).  Measured at stop 67: natively the manual function 2,56 and 2,65
    times slower with glibc's defaults, and chunked / manual 1,27 -> 0,60 and 1,34 -> 0,50 (the
    chunked one overtakes it); under ATEN_CPU_CAPABILITY=default 1,80 and 1,77 times slower, and
    chunked / manual 1,60 -> 1,02 and 1,58 -> 1,15 (the gap closes, the order stays).  So the
    page says the chunked one may become faster, not that it does: that held natively only.  At
    T = 512 the slowdown depends on the process (2 of 3, claim-breaker 14), so the page starts
    at 1024."""
    import json
    import subprocess
    import sys
    manba = jupytext.read(ILDIZ / "book" / "attention" / "flash.py")
    katak = next(h.source for h in manba.cells if "def bolaklab(" in h.source)
    olchov = {}
    for rejim in ("kitob", "odatiy"):
        chiqish = subprocess.run([sys.executable, "-c", _AJRATUVCHI_SKRIPTI, rejim, katak],
                                 capture_output=True, text=True, check=True, cwd=ILDIZ)
        olchov[rejim] = json.loads(chiqish.stdout)
    for T in ("1024", "2048"):
        davo(f"odatiy sozlamada qoʻlda yozilgan funksiya ancha sekinlashadi (T = {T})",
             olchov["odatiy"][T]["formula"] / olchov["kitob"][T]["formula"], kamida=1.3)
        nisbat = {r: olchov[r][T]["bolaklab"] / olchov[r][T]["formula"] for r in olchov}
        davo(f"odatiy sozlamada boʻlaklab hisob bilan farq ancha qisqaradi (T = {T})",
             nisbat["odatiy"] / nisbat["kitob"], kopi=0.85)


@pytest.mark.build
def test_narx_and_flash_exercises_answers_hold(glued):
    """The answers' words: narx's exercise 1 is arithmetic; flash's: a causal mask written by
    hand is SDPA's is_causal up to float32 rounding; raising d from 32 to 128 at T = 2048 leaves
    the formula's peak almost as it was (the T x T matrices, allocated while the inputs already
    exist, make the peak: equal here)."""
    assert glued["n1_f32"] == 2 * glued["n1_bf16"] == 128
    assert glued["f1_farq"] < 1e-5
    assert abs(glued["f2_128"] - glued["f2_32"]) < 0.5     # "Oʻzgarmaydi": the same MiB printed
    # flash's exercise 3: the tile size changes only the order of additions, and the peak grows
    # with B (12 and 130 MiB) while staying under the full matrix's (2-mashq: 256 MiB at T = 2048)
    assert glued["f3_farq"] < 1e-5
    assert glued["f3_32"] < glued["f3_512"] < glued["f2_32"]


@pytest.mark.build
def test_exercise_3s_parameter_formula_matches_the_table(glued, sahifa):
    """The solution's formula 3d² + d(T + 7) + 2, computed by the chapter, is the table's count."""
    qatorlar = {q[0]: q for q in _qatorlar(sahifa, "sinov-jadval")}
    assert songa(qatorlar["pozitsiyali attention"][-1]) == glued["param_formula"]


@pytest.mark.build
def test_memory_grows_as_t_squared(glued, sahifa):
    """narx's memory paragraph and figure, against the memory table: the matrix holds
    64·T² floats ("elementlari soni 64·T²"), and the peak holds the scores and the weights at
    once ("bir lahza ikkalasi ham xotirada turadi"), growing about 4 times a doubling of T
    at the large end (the figure's slope 2)."""
    qatorlar = _qatorlar(sahifa, "xotira-jadval")
    T = [int(songa(q[0])) for q in qatorlar]
    matritsa = [songa(q[1]) for q in qatorlar]
    chuqqi = [songa(q[2]) for q in qatorlar]
    assert T == [30, 60, 120, 240, 480, 960]
    assert matritsa == [pytest.approx(64 * t * t * 4 / 2**20, abs=0.006) for t in T]
    davo("choʻqqida ikki matritsa (choʻqqi / matritsa)", chuqqi[-1] / matritsa[-1], kamida=2)
    davo("choʻqqi T ikki barobar oshganda ~4 marta oʻsadi", chuqqi[-1] / chuqqi[-2], kamida=3.5, kopi=4.5)
    assert glued["matritsa_960"] == pytest.approx(matritsa[-1], abs=0.01)
    assert glued["chuqqi_960"] == pytest.approx(chuqqi[-1], abs=0.01)


@pytest.mark.build
def test_attention_does_more_work_in_one_step_and_is_slower_on_one_thread(glued, sahifa):
    """narx's timing paragraph and the summary's row: the work ratio at T = 240 is the table's,
    and on one thread attention is slower there (kind a: 4,0–4,5 times on the CPUs seen)."""
    jadval = sahifa.find("table", id="vaqt-jadval")
    sarlavha = [c.get_text().strip() for c in jadval.find("thead").find_all("th")]
    qatorlar = [dict(zip(sarlavha, q)) for q in _qatorlar(sahifa, "vaqt-jadval")]
    assert len(qatorlar) == 8, qatorlar
    jadval_ = {(q["T"], q["model"]): q for q in qatorlar}
    assert glued["mac_nisbat"] == pytest.approx(
        songa(jadval_["240", "attention"]["MAC"]) / songa(jadval_["240", "RNN"]["MAC"]), rel=1e-9)
    assert glued["vaqt_nisbat"] == pytest.approx(
        songa(jadval_["240", "attention"]["oldinga (ms)"]) / songa(jadval_["240", "RNN"]["oldinga (ms)"]), rel=0.02)
    davo("bitta oqimda attention RNNdan sekin (T = 240)", glued["vaqt_nisbat"], kamida=1.5)
    # "sekinligi MAC nisbatidan kichik": one MAC is cheaper in attention's large products (0,25
    # natively, 0,48 under make arifmetika's "compatible": "ancha kichik", at most half, kept a
    # margin of 0,02 and was cut to what holds with room)
    davo("sekinlik MAC nisbatidan kichik", glued["vaqt_nisbat"] / glued["mac_nisbat"], kopi=1)



def test_a_claim_that_does_not_hold_names_itself_and_its_value(tmp_path, monkeypatch):
    """davo(): the failure says which claim, what was measured and what the text needs; with
    KITOB_DAVOLAR set, each claim is recorded with its margin (make arifmetika reads them)."""
    fayl = tmp_path / "davolar.jsonl"
    monkeypatch.setenv("KITOB_DAVOLAR", str(fayl))
    davo("A yechadi", 0.93, kamida=0.9)
    with pytest.raises(AssertionError, match=r"«B yechmaydi» does not hold .* measured 0.95, the text needs at most 0.9"):
        davo("B yechmaydi", 0.95, kopi=0.9)
    with pytest.raises(TypeError):
        davo("C", 1.0)
    import json
    yozuv = [json.loads(q) for q in fayl.read_text(encoding="utf-8").splitlines()]
    assert [(y["davo"], round(y["zaxira"], 6)) for y in yozuv] == [("A yechadi", 0.03), ("B yechmaydi", -0.05)]

# --------------------------------------------------------------------------
# no measured number typed by hand into the prose
# --------------------------------------------------------------------------
def _nasr(matn: str) -> str:
    """Markdown text without maths, glue roles, code, directives' options."""
    matn = re.sub(r"\$\$.*?\$\$", " ", matn, flags=re.S)
    matn = re.sub(r"\$[^$]*\$", " ", matn)
    matn = re.sub(r"\{glue(:\w+)?\}`[^`]*`", " ", matn)
    matn = re.sub(r"```.*?```", " ", matn, flags=re.S)
    matn = re.sub(r"`[^`]*`", " ", matn)
    return matn


ONLIK = re.compile(r"(?<![\w.])\d+[.,]\d+")


def hand_typed_decimals(manba: str) -> list[str]:
    nb = jupytext.reads(manba, fmt="py:percent")
    return [m.group(0) for c in nb.cells if c.cell_type == "markdown"
            for m in ONLIK.finditer(_nasr(c.source))]


def test_no_hand_typed_decimal_in_the_prose():
    for dars in DARS_FAYLLARI:
        assert hand_typed_decimals(dars.read_text()) == [], dars.name


def test_the_decimal_check_can_fail():
    assert hand_typed_decimals("# %% [markdown]\n# Aniqlik 0.993 boʻldi.\n") == ["0.993"]
    assert hand_typed_decimals("# %% [markdown]\n# Qadam $0{,}005$ va {glue:text}`x:.2f`.\n") == []


# --- the sections of "Beyond the anchors": causal mask, multi-head, positions, KV cache, capstone

@pytest.mark.build
def test_causal_mask_zeroes_the_future_and_rows_still_sum_to_one(glued):
    assert glued["kauzal_yuqori"] == 0.0
    assert glued["kauzal_birinchi"] == 1.0          # "position 0 looks only at itself"
    assert glued["kauzal_yigindi_farq"] < 1e-6


# --------------------------------------------------------------------------
# pozitsiyalar: each sentence is fixed prose; each bound below guards one (kind a: by design
# on five seeds, with the value measured here in the comment), the rest is the glued spread
# (kind b)
# --------------------------------------------------------------------------
POZ_T = (30, 60, 120, 240)


@pytest.mark.build
def test_sinusoids_carry_to_longer_sequences_and_rope_does_not(glued, sahifa):
    """pozitsiyalar's four bullets under poz_jadval, the table itself and the summary's row."""
    sin = glued["poz_sin"]
    assert len(sin) == 4 * 5
    # the accuracies are listed by T, then by seed
    sin60, sin240 = sin[5:10], sin[15:20]
    # "T = 240 da vazifani … yechdi": the count at the chapter's threshold, in one of the two
    # prepared wordings (kind b: 5 of 5 on the settings tried; at 60 epochs it was 4 of 5 with
    # ATEN_CPU_CAPABILITY=default)
    k = sum(a >= 0.9 for a in sin240)
    assert glued["poz_sin_yechdi"] == k
    assert glued["poz_sin_yechdi_gap"] == yechdi_gapi(k, 5)
    # "uzunroq ketma-ketlikka yaxshi koʻchdi … koʻpi bilan … ga tushdi (RoPE modellarida esa
    # kamida … ga)": the sinusoids' worst drop from T = 60 to 240 is under half of RoPE's
    # smallest (0,018 vs 0,356; ATEN_CPU_CAPABILITY=default 0,028 vs 0,322)
    rope60, rope240 = glued["poz_rope_60"], glued["poz_rope_240"]
    sin_tushish = max(a - b for a, b in zip(sin60, sin240))
    rope_tushish = min(a - b for a, b in zip(rope60, rope240))
    # "koʻpi bilan" rounds up and "kamida" down, so the printed bound holds (a breaker caught
    # "kamida 0,36" for 0,356 and "kamida 0,95" for 0,946 when they were rounded to nearest)
    assert glued["poz_sin_pasayish"] == yuqoriga(sin_tushish) >= sin_tushish
    assert glued["poz_rope_pasayish"] == pastga(rope_tushish) <= rope_tushish
    davo("sinusoidal pasayish RoPEnikining yarmidan kichik (nisbat)", sin_tushish / rope_tushish, kopi=0.5)
    # "0-qadamga oʻrtacha kamida … ogʻirlik berdi: … javobni asosan 0-qadamdan oldi" (0,95;
    # default 0,91)
    davo("sinusoidal model javobni asosan 0-qadamdan oladi", glued["poz_sin_w0"], kamida=0.5)
    rope = {T: glued[f"poz_rope_{T}"] for T in POZ_T}
    for T in POZ_T:
        assert len(rope[T]) == 5
        assert (glued[f"poz_rope_{T}_min"], glued[f"poz_rope_{T}_max"]) == (min(rope[T]), max(rope[T]))
    # RoPE "oʻqitish uzunligida (T = 60) yechdi" (worst 0,970; default 0,970)
    davo("RoPE oʻqitish uzunligida (T = 60) yechadi", min(rope[60]), kamida=0.9)
    # "Uzunroq ketma-ketlikda esa yomonlashdi": T = 120 below every seed at T = 60 (0,814 vs
    # 0,970; default 0,862 vs 0,970), and "T = 240 da … hech bir seedda yechmadi" (best 0,636;
    # default 0,662)
    davo("RoPE T = 120 da har seedning T = 60 dagisidan past (farq)", min(rope[60]) - max(rope[120]), kamida=0)
    davo("RoPE T = 240 da hech bir seedda yechmaydi", max(rope[240]), kopi=0.9)
    # "0-pozitsiyaga ogʻirlik T = 60 da eng kami … edi, T = 240 da esa eng koʻpi … boʻldi" (0,70 -> 0,10;
    # the extremes as measured, rounded as the printed ranges above them are)
    w60, w240 = glued["poz_rope_w0_60"], glued["poz_rope_w0_240"]
    assert (glued["poz_rope_w0_60_min"], glued["poz_rope_w0_240_max"]) == (min(w60), max(w240))
    davo("RoPEning 0-qadamga ogʻirligi T = 240 da yarmidan kam (nisbat)", max(w240) / min(w60), kopi=0.5)
    # "Oʻrganiladigan model T = 30 da ham ishladi" (0,990; default 0,988); none beyond T = 60
    davo("oʻrganiladigan pozitsiyali model T = 30 da yechadi", min(glued["poz_org_30"]), kamida=0.9)
    assert glued["poz_org_30_min"] == min(glued["poz_org_30"])
    # the order-blind rule reads only the data: "hamma T da past boʻlib qoladi: eng kattasi …",
    # "T oshgan sari u 0,5 ga yaqinlashadi" (0,556 -> 0,528: the same data on every machine)
    kop = glued["poz_kop"]
    assert glued["poz_kop_max"] == max(kop)
    davo("koʻpchilik qoidasi hech bir T da 0,6 dan oshmaydi", max(kop), kopi=0.6)
    assert kop[-1] < kop[0]
    # the table shows each model's worst and best seed
    qatorlar = {q[0]: q[1:] for q in _qatorlar(sahifa, "poz-jadval")}
    assert list(qatorlar) == [str(T) for T in POZ_T]
    for i, T in enumerate(POZ_T):
        s = sin[5 * i: 5 * i + 5]
        # "0,95–1,00", or one number where both ends round alike ("1,00", not "1,00–1,00")
        assert qatorlar[str(T)][:2] == ["–".join(dict.fromkeys([son(min(q), '.2f'), son(max(q), '.2f')]))
                                        for q in (s, rope[T])]
        assert songa(qatorlar[str(T)][2]) == pytest.approx(round(kop[i], 2))
    # the summary's row: fixed words, this lesson's numbers
    # (the sinusoids' drop bound is left out of it: five seeds' best case; a breaker saw 4 of 20 fail)
    qator = {q[0]: q[1] for q in _qatorlar(sahifa, "xulosa-jadval")}["Uzunroq ketma-ketlik"]
    assert son(pastga(rope_tushish), ".2f") in qator and "kafolat emas" in qator


@pytest.mark.build
def test_hiding_unseen_distances_brings_rope_back(glued):
    """'Besh seedning hammasida aniqlik yana … gacha koʻtarildi' (0,960–0,990; default
    0,960–0,990): the pairs at distances not seen in training hidden, only queries 0-59
    pooled."""
    nazorat, rope = glued["poz_nazorat"], glued["poz_rope_240"]
    assert len(nazorat) == 5
    assert (glued["poz_nazorat_min"], glued["poz_nazorat_max"]) == (min(nazorat), max(nazorat))
    davo("koʻrilmagan masofalar yashirilsa RoPE yana yechadi", min(nazorat), kamida=0.9)
    assert all(b > a for a, b in zip(rope, nazorat)), (rope, nazorat)


@pytest.mark.build
def test_the_causal_mask_alone_gives_some_order_not_the_position(glued):
    """The causal section: 'Kauzal maskali model … maskasiz model esa … tasodifiy javobga yaqin.
    … kauzal model hech bir seedda vazifani yechmadi, sinusoidal model esa … kamida …'."""
    kauzal, maskasiz = glued["kz_kauzal"], glued["kz_maskasiz"]
    assert len(kauzal) == len(maskasiz) == 5
    # "U tartibni koʻrmaydigan ishoralar koʻpchiligi qoidasidan ham yuqori" (0,668 against 0,58;
    # different samples of the same task, 500 and the training's test set: a margin of 0,09)
    assert glued["poz_kop_60"] == glued["poz_kop"][1]
    davo("kauzal model koʻpchilik qoidasidan yuqori", min(kauzal) - glued["poz_kop_60"], kamida=0.03)
    # "Maskasiz model … ishoralar koʻpchiligi darajasida qoldi … Kauzal model har seedda ikkalasidan
    # ham yuqori": the rule on the models' own 600 test samples (0,532; a breaker: expected 0,551)
    davo("maskasiz model koʻpchilik qoidasi darajasida (farq)", abs(max(maskasiz) - glued["kz_kop"]), kopi=0.05)
    davo("kauzal model shu namunalardagi koʻpchilik qoidasidan yuqori", min(kauzal) - glued["kz_kop"], kamida=0.05)
    # "oʻrtacha yaxshi boʻla olmaydi; 600 ta namunada … tasodifan biroz yuqori": the rule's expected
    # accuracy at T = 60 (the Bayes rule of an order-blind reader: P(x0 > 0 | values) = share of
    # positives), and the maskless models within a sampling error of it (600 samples: sd 0,02)
    T = 60
    kut = sum(math.comb(T, k) * max(k, T - k) for k in range(T + 1)) / (T * 2**T)
    assert glued["kz_kop_kut"] == pytest.approx(kut)
    davo("maskasiz model kutilgan koʻpchilik aniqligiga yaqin", abs(max(maskasiz) - kut), kopi=0.04)
    davo("kauzal model kutilgan koʻpchilik aniqligidan ancha yuqori", min(kauzal) - kut, kamida=0.05)
    # sinusoidal on seeds 0-9 (the five above among them): the count in words, in a fixed sentence
    k10 = glued["poz_sin10"]
    assert glued["poz_sin_yechdi"] <= k10 <= 10, k10
    assert glued["poz_sin10_yechdi"] == yechdi_gapi(k10, 10)
    # the maskless models are the previous lesson's own five (the store's)
    assert maskasiz == glued["attn0_seedlar"]
    # the mask gives order: every masked seed (30 epochs) above every maskless one (60 epochs):
    # 0,668 vs 0,558
    davo("kauzal model har maskasiz seeddan yuqori (farq)", min(kauzal) - max(maskasiz), kamida=0.05)
    # maskless: no order-blind model beats the sign majority by much (0,540–0,558)
    davo("maskasiz model tartibni koʻrmaydigan qoida darajasida", max(maskasiz), kopi=0.65)
    # "hech bir seedda vazifani yechmadi" (best 0,682); sinusoids far above (0,990)
    davo("kauzal model hech bir seedda yechmaydi", max(kauzal), kopi=0.9)
    assert glued["kz_sin60_min"] == pastga(min(glued["kz_sin60"]))
    davo("sinusoidal model kauzaldan ancha yuqori (farq)", glued["kz_sin60_min"] - max(kauzal), kamida=0.1)


@pytest.mark.build
def test_position_properties_and_exercise_answers_hold(glued):
    # learned positions exist only up to the training length: nothing to evaluate beyond it
    assert "poz_org_120" not in glued and "poz_org_240" not in glued
    # sinusoids: neighbours alike, far positions less so (a formula, no training)
    assert glued["poz_oxshash_1"] > glued["poz_oxshash_uzoq"]
    # exercise 1, ALiBi: the softmax of the biases is the geometric formula; the steepest head
    # looks at its neighbours ("0-qadamga esa atigi"), the gentlest hardly feels the bias
    assert glued["m1_farq"] < 1e-6
    assert glued["m1_oz_1"] > 0.3 and glued["m1_nol_1"] < 1e-6
    assert glued["m1_nol_8"] > 0.5 * glued["m1_oz_8"]
    # exercise 2, T = 960: "Natija seedga kuchli bogʻliq" (accuracy 0,50–0,98, weight 0,05–0,93;
    # default 0,52–0,98 and 0,04–0,91)
    aniq, w0 = glued["m2_aniq"], glued["m2_w0"]
    assert len(aniq) == len(w0) == 5
    assert (glued["m2_min"], glued["m2_max"]) == (min(aniq), max(aniq))
    assert (glued["m2_w0_min"], glued["m2_w0_max"]) == (min(w0), max(w0))
    assert max(aniq) - min(aniq) > 0.2 and max(w0) - min(w0) > 0.3, (aniq, w0)
    # "Ayrim seedlarda soʻrovlar ogʻirligining koʻp qismini 0-qadamdan boshqa pozitsiyalarga
    # berdi va javobga shovqin aralashdi" (0,05 and 0,50)
    assert min(w0) < 0.5 and min(aniq) < 0.9, (aniq, w0)
    # exercise 3: arithmetic
    assert glued["m3_sorov_120"] == 0.5 and glued["m3_sorov_240"] == 0.75
    for T in (120, 240):
        juft = sum(abs(m - n) >= 60 for m in range(T) for n in range(T)) / T**2
        assert glued[f"m3_juft_{T}"] == pytest.approx(juft)
    assert glued["m3_juft_240"] > 0.5        # "koʻpchilik juftlik model uchun yangi"


@pytest.mark.build
def test_kv_cache_equals_recomputation_and_its_size_is_the_formula(glued):
    """transformer's block and KV-cache sections: each bound guards a fixed sentence (kind a, by
    design: float32 rounding, integer arithmetic, a published configuration)."""
    # "nn.MultiheadAttention ... bir xil narsani hisoblaydi" (8,9·10⁻⁸)
    assert glued["mha_farq"] < 1e-5
    # the pre-LN Blok's count; "Post-LN blokda ham xuddi shuncha" (TransformerBlok: test_modellar)
    assert glued["blok_param"] == 12704
    # "Ikkala yoʻl ... hammasini aynan bir xil tanladi"; logits equal up to rounding (6,0·10⁻⁷)
    assert glued["kv_farqli"] == 0
    assert glued["kv_farq"] < 1e-5
    assert glued["kv_formula_bayt"] == glued["kv_haqiqiy_bayt"]
    assert glued["kv_llama_token_kib"] == 2 * 32 * 8 * 128 * 2 / 2**10
    assert glued["kv_llama_gib"] == 1 and glued["kv_llama_gqa_marta"] == 4
    assert glued["kv_llama_mha_gib"] == glued["kv_llama_gqa_marta"] * glued["kv_llama_gib"]
    # MLA (DeepSeek-V2, arXiv 2405.04434, its Table 1): (d_c + d_h^R) · l = (512 + 64) · 60
    # elements a token, "equal to GQA with only 2.25 groups"; 57 times less than MHA's 2 · 128 · 128
    assert glued["mla_kib"] == (512 + 64) * 60 * 2 / 2**10
    assert glued["mla_guruh"] == 2.25
    assert round(glued["mla_mha_marta"]) == 57
    # exercise 1: heads do not change the cache, layers double it
    assert glued["kv_mashq_bosh8_mib"] == glued["kv_gpt_mib"]
    assert glued["kv_mashq_qatlam4_mib"] == 2 * glued["kv_gpt_mib"]
    # exercise 2: RMSNorm written by hand is torch's, and LayerNorm's on zero-mean input
    assert glued["t2_farq"] < 1e-5 and glued["t2_ln_farq"] < 1e-5


@pytest.mark.build
def test_the_cache_is_faster_and_its_time_grows_slower_with_t(glued, sahifa):
    """transformer's timing paragraph (kind a; the measured values, with repeats on a busy and a
    quiet machine and under ATEN_CPU_CAPABILITY=default and MKL SSE4_2, in the comments)."""
    T = [songa(q[0]) for q in _qatorlar(sahifa, "kv-vaqt-jadval")]
    assert T == [128, 256, 512, 1024] and glued["kv_T_kichik"] == 128 and glued["kv_T_katta"] == 1024
    # "kesh N marta tez", "Vaqt boʻyicha esa kesh bundan (T marta: keshsiz qadam T ta pozitsiyaning
    # har biri uchun kesh bilan qadamning ishini bajaradi) ancha kam tezlashtirdi": 59–147 against 1024
    davo("kesh bilan qadam tezroq", glued["kv_nisbat"], kamida=1)
    davo("kesh tezlashtirishi T dan (hisob nisbatidan) ancha kam (nisbat)", glued["kv_nisbat"] / glued["kv_T_katta"], kopi=0.25)
    assert glued["kv_nisbat"] == pytest.approx(glued["kv_ms_keshsiz"] / glued["kv_ms_kesh"])
    # "keshsiz qadamning vaqti ... marta oʻsdi — T ning oʻzidan ham tez" (T eight times: 20–60)
    davo("keshsiz qadam vaqti T dan tez oʻsadi (T 8 marta)", glued["kv_osish_keshsiz"], kamida=8)
    # "Kesh bilan qadamning vaqti esa ancha kam oʻzgardi": its growth over the eight-fold T
    # (0,4–2,3, a busy machine's noise both ways) against the uncached one's
    davo("kesh bilan qadam vaqti ancha kam oʻzgaradi (nisbat)", glued["kv_osish_kesh"] / glued["kv_osish_keshsiz"], kopi=0.25)


# --------------------------------------------------------------------------
# yakuniy: fixed prose; each bound guards one sentence (kind a), with the spread measured on five
# seeds (0-4) in two arithmetics (this CPU's own, ATEN_CPU_CAPABILITY=default) in the comment: ten
# runs each; the rest is glued (kind b)
# --------------------------------------------------------------------------
@pytest.mark.build
def test_the_capstone_learns_the_task_on_both_seeds(glued, sahifa):
    """'Ikkala seedda ham model vazifani deyarli toʻliq oʻrgandi' (ten runs: 0,977-0,996), and
    the errors' table holds every error of seed 0 and nothing else."""
    davo("yakuniy model vazifani deyarli toʻliq oʻrganadi", min(glued["tr_aniq_0"], glued["tr_aniq_1"]), kamida=0.95)
    # the prose writes the protocol's small counts in words: "toʻrtta bosh, koder ham, dekoder
    # ham bitta qatlamdan iborat", "toʻrt boshning oʻrtachasi", "GQAda toʻrtta soʻrov boshi"
    assert (glued["tp_boshlar"], glued["tp_qatlamlar"]) == (4, 1)
    n = glued["tp_n_sinov"]
    assert glued["tr_xato_soni"] == round((1 - glued["tr_aniq_0"]) * n)
    assert glued["tr1_xato_soni"] == round((1 - glued["tr_aniq_1"]) * n)
    # kind b: the counts of errors with "00" (five seeds: 5/5, 18/18, 4/4, 1/6, 5/6): no claim that
    # all the errors sit there, seed 3 has one in six
    assert 0 <= glued["tr0_00_xato"] <= glued["tr_xato_soni"]
    assert 0 <= glued["tr1_00_xato"] <= glued["tr1_xato_soni"]
    # "Xatolar orasida esa ularning ulushi ancha katta: seed 0 modelining … ta xatosidan … tasi,
    # seed 1 modelining …" (the counts glued, kind b; the bound is on "ancha katta"): the share
    # of "00" numbers among a seed's errors over their share in the test numbers (five seeds:
    # 27, 27, 27, 4,5, 22,5 times)
    sinovda = glued["tr_00_sinov"] / n
    davo("xatolar orasida «00»li sonlar ulushi sinovdagidan ancha katta (necha marta)",
         min(glued["tr0_00_xato"] / glued["tr_xato_soni"], glued["tr1_00_xato"] / glued["tr1_xato_soni"])
         / sinovda, kamida=3)
    xatolar = _qatorlar(sahifa, "tarjima-misollar")
    assert len(xatolar) == glued["tr_xato_soni"]
    assert all(q[1] != q[2] for q in xatolar)      # the right answer, the model's answer
    assert glued["tr0_00_xato"] == sum("00" in q[1].replace("\u202f", "") for q in xatolar)


@pytest.mark.build
def test_the_held_out_structure_probe_holds(glued, sahifa):
    """The groups' table and the held-out "00" training."""
    qatorlar = _qatorlar(sahifa, "tarjima-tuzilma")
    assert [(q[0], q[1]) for q in qatorlar] == [("hamma son", "0"), ("hamma son", "1"),
                                                ("«00»siz", "0"), ("«00»siz", "1")]
    # the models trained on every number score what their training reported
    assert [songa(q[2]) for q in qatorlar[:2]] == [round(glued["tr_aniq_0"], 3),
                                                   round(glued["tr_aniq_1"], 3)]
    # "nolsiz sonlar oson" (the worst seed), both trainings (ten runs: 1,000 every time)
    davo("nolsiz sonlar oson", min(glued["tz_hamma_nolsiz_min"], glued["tz_yopiq_nolsiz_min"]), kamida=0.98)
    # "bu modellar «00»li sinov sonlarining yarmini ham toʻgʻri yoza olmadi" (ten runs: 0,027-0,364)
    davo("«00»siz oʻqitilgan model «00»li sonlarning yarmini ham yoza olmaydi", glued["tz_yopiq_00_max"], kopi=0.5)
    # "yaxshi ishlamadi … boshqa seedlarda … bundan ham past" (a breaker: seeds 0-1 0,243-0,270,
    # seeds 2-4 0,027-0,114, the other arithmetic 0,135-0,189): at most about a third, and "ancha
    # past" than the models trained on every number (their worst seed 0,51 here: a gap of 0,24)
    davo("«00»siz model: kompozitsion umumlashtirish yaxshi ishlamadi", glued["tz_yopiq_00_max"], kopi=0.35)
    davo("«00»siz model hamma son bilan oʻqitilganidan ancha past", glued["tz_hamma_00_min"] - glued["tz_yopiq_00_max"],
         kamida=0.15)
    # "kompozitsion umumlashtirish bu yerda faqat qisman ishladi": some are written right (a
    # claim-breaker's ten runs: 0,027 the fewest; here 0,243)
    davo("«00»siz oʻqitilgan model «00»li sonlarning baʼzilarini toʻgʻri yozadi", glued["tz_yopiq_00_min"], kamida=0.01)
    # "Har seedda bu hamma son bilan oʻqitilgan modelnikidan ancha past" (ten runs: the
    # smallest gap 0,27, seed 1 here: 0,514 against 0,243)
    for hamma, yopiq in zip(qatorlar[:2], qatorlar[2:]):
        davo("«00»li sonlarda hamma son bilan oʻqitilgandan ancha past (farq)", songa(hamma[5]) - songa(yopiq[5]), kamida=0.15)
    # "Umumiy aniqlik ... buni yashiradi" (ten runs: 0,964-0,976)
    davo("umumiy aniqlik «00» dagi zaiflikni yashiradi", glued["tz_yopiq_hammasi_min"], kamida=0.9)
    # the glued ranges are the table's columns
    for q, qatorlar_ in (("tz_hamma", qatorlar[:2]), ("tz_yopiq", qatorlar[2:])):
        for ustun, u in ((2, "hammasi"), (3, "nolsiz"), (4, "nolli"), (5, "00")):
            qiymat = [songa(x[ustun]) for x in qatorlar_]
            assert glued[f"{q}_{u}_min"] == pytest.approx(min(qiymat), abs=5e-4)
            assert glued[f"{q}_{u}_max"] == pytest.approx(max(qiymat), abs=5e-4)


@pytest.mark.build
def test_cross_attention_finds_the_word_that_gives_the_digit(glued):
    """'Bu muvofiqlik faqat toʻgʻri raqamlarni yozishga oʻqitishdan kelib chiqdi': the heads' mean
    puts a non-zero digit's strongest weight on its word in most cases (ten runs: 97,9-99,1 %)."""
    davo("raqamning eng kuchli ogʻirligi uni beradigan soʻzda (foiz)", glued["tr_moslik_foiz"], kamida=90)
    assert 0 <= glued["tr_misol_oz"] <= glued["tr_misol_n"] == 5    # a 6-digit number, one zero
    # "noldan farqli raqamning eng yorqin katagi, odatda, shu raqamni beradigan soʻz ustunida"
    davo("misolda raqamlarning koʻpchiligi oʻz soʻziga qaraydi (ulush)",
         glued["tr_misol_oz"] / glued["tr_misol_n"], kamida=0.6)
    # the words the text names: 1 from «bir», 3 from «oʻttiz» (the test numbers do not depend
    # on the arithmetic)
    from chapter_code.sonlar import soz_bilan
    assert soz_bilan(glued["tr_misol"]).split()[:3] == ["bir", "yuz", "oʻttiz"]
    # the three shares, in whole percents by the largest remainder, add up to 100 as printed
    uchta = [glued[f"tr_orta_{n}"] for n in ("oz", "ym", "boshqa")]
    assert all(u == int(u) for u in uchta) and sum(uchta) == 100
    assert 0 <= glued["tr_bosh_min"] <= glued["tr_bosh_max"] <= 100
    assert 0 <= glued["tr_nol_ym"] <= 100


@pytest.mark.build
def test_attention_variants_learn_and_their_caches_are_the_formula(glued, sahifa):
    """The variants' table: 'Beshala turdagi modellar ham ikkala seedda vazifani oʻrgandi' (ten runs:
    0,977-0,998; the window-1 control 0,978-0,992); the caches are 2 L T n_kv d_head 4 bytes,
    exactly (kind a by design)."""
    qatorlar = _qatorlar(sahifa, "turlar-jadval")
    assert [q[0] for q in qatorlar] == ["MHA", "GQA", "MQA", "oyna 2", "oyna 1"]
    aniq = [(songa(q[1]), songa(q[2])) for q in qatorlar]
    davo("attention turlarining hammasi vazifani oʻrganadi", min(min(a) for a in aniq), kamida=0.9)
    assert glued["at_min"] == pytest.approx(min(min(a) for a in aniq), abs=5e-4)
    assert glued["at_max"] == pytest.approx(max(max(a) for a in aniq), abs=5e-4)
    assert glued["at_oyna1_min"] == pytest.approx(min(aniq[4]), abs=5e-4)
    # "Bitta seedda turlar orasidagi farq koʻpi bilan …, bitta turning ikki seedi orasidagi farq
    # esa koʻpi bilan …. Bu sonlar kattaligi jihatidan bir-biriga yaqin, shuning uchun … ishonch
    # bilan turga bogʻlab boʻlmaydi": the largest seed gap is at least a third of the largest
    # spread across types (0,013 against 0,015 on stop 67's machine; 0,010 against 0,023 on stop
    # 69's, an AVX-512 Xeon, where the page said "deyarli bir xil kattalikda" and this test asked
    # for a half: 0,43 failed it; the sentence now says "close in size", which a factor of 3
    # still is, and that type cannot be told "with confidence"; a breaker: 0,003-0,013 and
    # 0,015-0,018 on seeds 0-3)
    assert glued["at_tur_farq"] == pytest.approx(max(max(a[i] for a in aniq) - min(a[i] for a in aniq)
                                                     for i in (0, 1)), abs=1e-3)
    assert glued["at_seed_farq"] == pytest.approx(max(abs(a - b) for a, b in aniq), abs=1e-3)
    davo("turlar farqi seedlar farqiga kattaligi jihatidan yaqin (seed farqi / tur farqi)",
         glued["at_seed_farq"] / glued["at_tur_farq"], kamida=1 / 3)
    bayt = [int(songa(q[3])) for q in qatorlar]
    token = [int(songa(q[4])) for q in qatorlar]
    # d = 64, 4 query heads of 16; one decoder layer; float32; 7 tokens read (start + 6 digits)
    assert token == [2 * 1 * n_kv * 16 * 4 for n_kv in (4, 2, 1, 4, 4)]
    assert bayt == [t * T for t, T in zip(token, (7, 7, 7, 2, 1))]


@pytest.mark.build
def test_yakuniy_exercises_answers_hold(glued):
    """The answers: the window mask built by hand is kauzal_maska's and SDPA's (15 open pairs for
    T = 6, window 3: 1 + 2 + 3·4); the padding mask keeps a one-word number's encoding as it is
    alone; the seed-0 model writes more of 100 zero-free numbers than of 100 "00" numbers."""
    assert glued["y1_ochiq"] == 15 and glued["y1_farq"] < 1e-5
    assert glued["y2_pad"] == 7 and glued["y2_farq"] < 1e-5
    assert glued["y3_00"] < glued["y3_nolsiz"] <= 100




def test_make_arifmetika_reports_each_claims_smallest_margin():
    """tools/arifmetika.py gathers davo()'s records of each setting: a claim's value and margin
    per setting and its smallest margin over them."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import arifmetika

    hammasi = {"native": {"davolar": [{"davo": "A yechadi", "qiymat": 0.99, "zaxira": 0.09}]},
               "default": {"davolar": [{"davo": "A yechadi", "qiymat": 0.93, "zaxira": 0.03},
                                       {"davo": "B", "qiymat": 2.0, "zaxira": 1.0}]}}
    z = arifmetika.zaxiralar(hammasi)
    assert z["A yechadi"]["eng_kichik"] == 0.03 and z["B"]["eng_kichik"] == 1.0
    assert z["A yechadi"]["sozlamalar"] == {"native": (0.99, 0.09), "default": (0.93, 0.03)}


@pytest.mark.build
def test_the_language_model_lessons_claims_hold(glued):
    """til_modeli: every sentence that compares two measured numbers (kind a where it is arithmetic,
    kind b with its margin recorded where a training or a sampling decides it)."""
    # "bigramdan ancha kam"; the BPE model ends below the letter model ("harflar modelidan kam")
    davo("harflar modeli bigramdan past (nat)", glued["bigram"] - glued["harf_oxirgi"], kamida=0.3)
    davo("BPE modeli harflar modelidan past (nat)", glued["harf_oxirgi"] - glued["bpe_oxirgi"],
         kamida=0.02)
    # "yoʻqotish N-qadamda eng kichik ..., keyin esa oʻsadi"
    assert glued["bpe_eng_qadam"] < glued["p_qadamlar"]
    davo("BPE oʻqitishi oxirida yoʻqotish oʻsgan (nat)", glued["bpe_oxirgi"] - glued["bpe_eng"],
         kamida=0.03)
    # tokens: "BPE bilan bitta soʻz ... token, harflar bilan ..."; "tokenlar kam": fewer tokens
    # for more parameters than the letters' (the strings are the book's "18 887")
    assert glued["bpe_soz"] < glued["harf_soz"]
    tok_b, tok_h, par_b, par_h = (songa(glued[k]) for k in
                                  ("bpe_oqish_tok", "harf_oqish_tok", "bpe_param", "harf_param"))
    assert tok_b < tok_h and par_b > par_h
    assert glued["bpe_nisbat"] > 2 * glued["harf_nisbat"]     # "qariyb N ta parametr (harflarda M ta)"
    # the sampling paragraph: greedy has the most corpus words ("hammasidan koʻp"); a higher
    # temperature fewer; top-k gives some back
    davo("ochkoʻz: korpus soʻzlari eng koʻp (%)", glued["och_ulush"] - max(
        glued["t07_ulush"], glued["t15_ulush"], glued["topk_ulush"]), kamida=2)
    davo("τ 0,7 → 1,5: korpus soʻzlari kamayadi (%)", glued["t07_ulush"] - glued["t15_ulush"],
         kamida=5)
    davo("top-k ulushni qaytaradi (%)", glued["topk_ulush"] - glued["t15_ulush"], kamida=5)
    # "1–3 harfli ... va 4–6 harfli soʻzlarining ... 7 va undan koʻp harflilarining esa atigi ..."
    davo("uzun soʻzlar kamroq toʻgʻri (%)",
         min(glued["qisqa_ulush"], glued["orta_ulush"]) - glued["uzun_ulush"], kamida=5)
    # "Uzun soʻzlarning korpusda yoʻqlarini ... oʻzi toʻqigan": a good part of them
    davo("uzun soʻzlarning korpusda yoʻq qismi (%)", 100 - glued["uzun_ulush"], kamida=20)
    # "Harflar modelining yoʻqotishi esa oxirgi N ta yangilanishda ham ... kamaydi" (the breaker's
    # seeds 0-2: 0,068 / 0,073 / 0,083 nat over updates 400-600)
    davo("harflar modeli oxirgi yangilanishlarda ham oʻrganadi (nat)", glued["harf_oxir_kamay"],
         kamida=0.03)
    # "bir yangilanishda BPE modeli taxminan N baravar koʻp harf koʻradi": letters per training token
    assert glued["bpe_harf_oqish"] > 2, glued["bpe_harf_oqish"]
    # "(tekshirish matnidagidan biroz koʻp)": the training text's letters per token, beside the
    # held-out text's (2,78 against 2,67; the corpus and the merges are fixed)
    assert glued["bpe_harf_token"] < glued["bpe_harf_oqish"] < 1.1 * glued["bpe_harf_token"]
    # "-lar qoʻshimchasi ikki birlashmada hosil boʻladi: M-birlashmada la, N-birlashmada lar"
    assert glued["la_tartib"] < glued["lar_tartib"]
    assert glued["ng_tartib"] > 13           # "ng esa keyinroq": after the table's 13 merges
    # "BPE modeli boshidanoq pastroqda": an untrained model's loss per token is about ln V, and
    # a BPE token holds bpe_harf_token letters
    assert glued["bpe_bosh"] < glued["harf_bosh"]
    for nom, bir_tokenga, V in (("harf", glued["harf_bosh"], glued["harf_lugat"]),
                                ("bpe", glued["bpe_bosh"] * glued["bpe_harf_token"], glued["bpe_lugat"])):
        # "(ehtimollar toʻliq teng boʻlmagani uchun yoʻqotish ln V dan biroz koʻp)": a random
        # softmax's expected loss exceeds ln V (1,029 and 1,025 in every arithmetic measured)
        davo(f"oʻqitilmagan {nom} modeli: bir tokenga yoʻqotish / ln V", bir_tokenga / math.log(V),
             kamida=1.0, kopi=1.1)
    # the note on «ingl» explains a word of the computed list: it must be there
    assert "«ingl»" in glued["kop_sozlar"], f"the text explains «ingl», the list is {glued['kop_sozlar']}"
    # "Bu soʻzlarning har biri BPE lugʻatida bitta token" (a breaker: the five are " bilan",
    # " ingl", " bitta", " uchun", " attention"; a token-bigram sampler writes as many corpus words)
    from chapter_code import til
    bpe = til.tokenlovchi("bpe", 500)
    sozlar = re.findall(r"«(.*?)»", glued["kop_sozlar"])
    assert len(sozlar) == 5 and all(len(bpe.kodla(" " + s)) == 1 for s in sozlar), sozlar
    # exercise 3: a token bigram with add-1 smoothing is worse than the trained BPE model (1,96
    # against 1,66), with add-0,01 better (1,59): "oddiy sanoq BPE modelidan yaxshiroq"; the
    # counts are the corpus's own, only the model's loss moves with seed and arithmetic (a
    # breaker: 1,640-1,666 over seeds 0-4)
    davo("token bigrami (k = 1) BPE modelidan yomon", glued["m3_k1"] - glued["bpe_oxirgi"], kamida=0.1)
    davo("token bigrami (k = 0,01) BPE modelidan yaxshi", glued["bpe_oxirgi"] - glued["m3_k001"], kamida=0.03)
    # "eng yaxshi nuqtasida ... bigramdan yaxshiroq" (1,55 against 1,59; a breaker: 1,521-1,561 on
    # seeds 0-4, every one below 1,588)
    davo("BPE modelining eng yaxshi nuqtasi token bigramidan yaxshi", glued["m3_k001"] - glued["bpe_eng"], kamida=0.01)
    # "Transformer yaxshi silliqlangan bigramdan ustun emas": the unigram-interpolated token
    # bigram (0,7 / 0,3) is at most 0,01 nat above the model's best point (1,52 against 1,55 on
    # seed 0; a breaker's seeds 0-4 put the best point at 1,521-1,561)
    davo("aralash bigram BPE modelining eng yaxshi nuqtasidan yomon emas",
         glued["bpe_eng"] + 0.01 - glued["m3_aralash"], kamida=0.0)
    # the KV cache: "Tokenlar bir xil. Vaqt jihatidan esa kesh bu yerda kam yutadi ... uzun matnda
    # ... N marta tezlashtirgan edi": the cache's time at most a little above the other's (two
    # claim-breakers' 28 series of the same model: 0,65-0,995 of it; clean builds at stop 65: 0,80
    # and 0,72; 0,49 with oneDNN limited to SSE4.1 under load, make arifmetika; a stored 0,91
    # against 0,76 from an older build did not reproduce), and small beside the long text's gain
    # (the transformer lesson's at T = 1024, about 60)
    assert glued["kesh_bir_xil"] is True
    r = glued["kesh_ms"] / glued["keshsiz_ms"]
    davo("KV kesh: bu yerda kesh kam yutadi (kesh bilan / keshsiz)", r, kopi=1.1)
    davo("KV kesh: bu yerda vaqt kam farq qiladi (katta / kichik)", max(r, 1 / r), kopi=3)
    davo("KV kesh: bu yerdagi farq uzun matndagidan ancha kichik (nisbat / 5)",
         glued["kv_nisbat"] / (5 * max(r, 1 / r)), kamida=1)
    # exercise 1: top-p at 0,9 keeps fewer corpus words than top-k at the same temperature
    davo("top-k top-p dan koʻp (%)", glued["topk_ulush"] - glued["topp_ulush"], kamida=4)
    # "oddiy τ = 1,5 dagidan deyarli farq qilmaydi" (within 5 points; the breaker saw 0 to 5)
    davo("top-p ≈ τ = 1,5 (%)", abs(glued["topp_ulush"] - glued["t15_ulush"]), kopi=5)
    # exercise 2: "Soʻzga token 20 barobar emas" and the vocabulary's share grows
    assert 1 < glued["m_marta"] < 20 and glued["m2000_ulush"] > glued["m100_ulush"]


@pytest.mark.build
def test_attention_finds_the_key_by_its_content_and_a_position_only_control_cannot(glued):
    """mexanizm's associative recall (issue 45 item 1), kind (a) by design: the answer's pair
    stands at a uniformly random place, so only matching the query with the keys' content
    solves it.  Measured 1,000 on five seeds (0,99 of the weight on the answer's pair) and
    0,25-0,27 for the position-only control against a chance level of 0,25."""
    aniq, w, nazorat = glued["es_aniq"], glued["es_w"], glued["es_nazorat"]
    assert len(aniq) == len(w) == len(nazorat) == 5
    # "besh seedning hammasida deyarli hamma sinov namunasini toʻgʻri yechdi"
    davo("eslash: mazmun boʻyicha model yechadi (eng yomon seed)", min(aniq), kamida=0.95)
    # "soʻrov ogʻirligining deyarli hammasini javob turgan juftga beradi"
    davo("eslash: javob juftiga ogʻirlik (eng yomon seed)", min(w), kamida=0.9)
    # "Javob qaysi oʻrinda tursa ham, ... kamida ..." (every place of the answer)
    davo("eslash: har oʻrinda javob juftiga ogʻirlik", glued["es_joy_min"], kamida=0.9)
    # the control "tasodifiy daraja atrofida qoldi": the chance level is the test set's own
    # (the most frequent value's share among the pairs), the control within 0,05 of it
    assert 1 / glued["es_qiymatlar"] < glued["es_tasodif"] < 0.5
    # "Kalitlar ham, qiymatlar ham N ta belgidan olinadi": one number for both
    assert glued["es_kalitlar"] == glued["es_qiymatlar"]
    davo("eslash: nazorat tasodifiy darajaga yaqin (ortigʻi)", max(nazorat) - glued["es_tasodif"], kopi=0.05)
    # exercise 3: 32 pairs of 64 keys are still found, and the chance level falls
    davo("eslash 3-mashq: 32 juftda ham yechadi", glued["m3_aniq"], kamida=0.95)
    # "Aniqlik oʻzgarmaydi, javob juftiga ogʻirlik esa biroz kamayadi" (1,000; 0,99 -> 0,96)
    assert abs(glued["m3_aniq"] - min(aniq)) <= 0.01 and glued["m3_w"] < min(w)
    assert glued["m3_tasodif"] < glued["es_tasodif"]
