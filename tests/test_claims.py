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
from conftest import DARS_FAYLLARI, bob_glue, bob_html

from chapter_code.bichim import son   # table cells are written in Uzbek form (0,22; 35 333)
from sonni_oqish import songa   # ... and read back from it
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
    assert 0.5 <= glued["grad_attention"] <= 2.0
    assert glued["grad_rnn"] >= 1e6
    assert glued["grad_lstm"] >= 1e6
    # "only the forget gate's starting value differs": with it raised the ratio is of order one
    assert glued["grad_lstm_unutish"] <= 10


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
    nomi = {"rnn": "RNN", "lstm": "LSTM", "attn": "attention (+ pozitsiya)",
            "attn0": "attention (pozitsiyasiz)"}[qisqa]
    qatorlar = {q[0]: q[1] for q in _qatorlar(sahifa, "sinov-jadval")}
    assert qatorlar[nomi] == "; ".join(son(a, ".3f") for a in aniq)


@pytest.mark.build
def test_the_training_claims_of_rekurrent_hold(glued):
    """The four bullets under the training table, and the summary's position row."""
    # "Pozitsiyali attention vazifani besh seedning hammasida yechdi" (0,993 on every seed)
    assert glued["attn_min"] >= 0.9
    # RNN: "natijasi seedga kuchli bogʻliq" — best and worst differ by more than three
    # standard errors of a difference (0,737–0,942); "oʻrganishni imkonsiz qilmaydi" — it
    # solves the task on some seed (max 0,942).  (No bound on its worst seed: a reviewer's
    # seeds 5 and 9 stayed at chance, 0,510 and 0,477; the text now says it may.)
    lo, hi = glued["rnn_min"], glued["rnn_max"]
    xato = math.sqrt((lo * (1 - lo) + hi * (1 - hi)) / glued["protokol_n_sinov"])
    assert hi - lo > 3 * xato, (lo, hi, xato)
    assert hi >= 0.9
    assert glued["rnn_yechdi"] == sum(a >= 0.9 for a in glued["rnn_seedlar"]) >= 1
    # LSTM: the count is the accuracies' (kind b: no bound), at the threshold the text names
    assert glued["yechdi_chegara"] == 0.9
    assert glued["lstm_yechdi"] == sum(a >= 0.9 for a in glued["lstm_seedlar"])
    # "Pozitsiyasiz attention vazifani hech bir seedda yecha olmadi" (0,55–0,58): it sees a
    # set, not a sequence (float32 rounding only)
    assert glued["attn0_max"] < 0.9
    assert glued["aralash_farq"] < 1e-5


@pytest.mark.build
def test_the_model_looked_at_puts_its_weight_on_step_0(glued, sahifa):
    """The map section: the best seed's model (the table's best), 'oʻrtacha eʼtiborning … 0-qadamga'
    (0,9996) found by itself, and in one sample every query gives step 0 a large weight (the
    figure's bright left column)."""
    aniq = glued["attn_seedlar"]
    assert glued["qadam0"] >= 0.9
    assert glued["bir_namuna0"] >= 0.5
    assert max(aniq) >= 0.9
    # the RNN step written by hand is nn.RNN's (exercise 4)
    assert glued["m4_farq"] < 1e-5


@pytest.mark.build
def test_scaling_by_sqrt_d_keeps_scores_and_softmax_from_growing_with_d(glued):
    """The sqrt(d) sweep: unscaled std grows like sqrt(d) (1024/8 = 128, sqrt = 11.3),
    scaled std stays put, and the unscaled softmax is the peakier one at d = 512."""
    assert glued["sq_std_1024"] / glued["sq_std_8"] == pytest.approx(128 ** 0.5, rel=0.2)
    assert glued["sq_std_bol_max"] / glued["sq_std_bol_min"] < 1.25
    assert glued["sq_max_512"] > glued["sq_max_512_bol"] + 0.3
    # the text's explanation of the level: Q's components have variance ≈ 1/3, so the
    # scaled std is ≈ 1/3 and the unscaled std at d = 512 is ≈ sqrt(512)/3
    assert glued["sq_var_q"] == pytest.approx(1 / 3, rel=0.1)
    assert glued["sq_std_512"] == pytest.approx(512 ** 0.5 * glued["sq_var_q"], rel=0.2)
    assert glued["sq_max_512_min"] < glued["sq_max_512"] <= 1


@pytest.mark.build
def test_sdpa_removes_the_quadratic_memory_not_the_quadratic_time(glued, sahifa):
    """narx's FlashAttention paragraphs.  Each bound guards a sentence stated without a branch
    (kind a: by design, with room on every CPU seen; the measured value in the comment)."""
    # the formula keeps two 8 x T x T float matrices at once, the scores and the weights
    # ("ikkita ... matritsa"): slope 2 (2,00), 1024 MiB at T = 4096
    assert 1.8 <= glued["fl_xq"] <= 2.2
    assert glued["fl_mib"] == pytest.approx(2 * 8 * 4096 * 4096 * 4 / 2**20, rel=0.01)
    # SDPA's flash kernel (4-D): its output, linear in T, and a fixed buffer, so a slope
    # under 1 ("qiyalik 1 dan ham kichik"; 0,65) and a small fraction of the formula's peak
    assert glued["fl_xq_sdpa"] < 1
    assert glued["fl_mib"] > 50 * glued["fl_mib_sdpa"]
    # 3-D input falls back to the math path: T x T again (1,99)
    assert glued["fl_xq_3d"] >= 1.8 and glued["fl_mib_3d"] >= 8 * 4096 * 4096 * 4 / 2**20
    # "Vaqt esa uchala usulda ham T² bilan oʻsdi": 8·T²·d multiply-adds dominate at T >= 1024
    # (2,07; 2,02; 1,98)
    for nom in ("fl_vq", "fl_vq_sdpa", "fl_vq_3d"):
        assert 1.7 <= glued[nom] <= 2.3, (nom, glued[nom])
    # "Flash kerneli ... formuladan N marta tez ishladi" (2,0)
    assert glued["fl_tezlik"] > 1.2
    # "Natijalar amalda bir xil"
    assert glued["fl_farq"] < 1e-5
    jadval = sahifa.find("table", id="flash-jadval")
    assert jadval is not None and len(jadval.find("tbody").find_all("tr")) == 12
    # the slopes' table shows the glued slopes
    qiy = {q[0]: q[1:] for q in _qatorlar(sahifa, "qiyalik-jadval")}
    assert songa(qiy["formula"][0]) == pytest.approx(glued["fl_xq"], abs=0.006)
    assert songa(qiy["SDPA"][1]) == pytest.approx(glued["fl_vq_sdpa"], abs=0.006)


@pytest.mark.build
def test_narx_exercises_answers_hold(glued):
    """The answers' words: a causal mask written by hand is SDPA's is_causal up to float32
    rounding; raising d from 32 to 128 at T = 2048 leaves the formula's peak almost as it was
    (the T x T matrices, allocated while the inputs already exist, make the peak: equal here)."""
    assert glued["n2_farq"] < 1e-5
    assert abs(glued["n3_128"] - glued["n3_32"]) < 0.5     # "Oʻzgarmaydi": the same MiB printed
    assert glued["n1_f32"] == 2 * glued["n1_bf16"] == 128


@pytest.mark.build
def test_exercise_3s_parameter_formula_matches_the_table(glued, sahifa):
    """The solution's formula 3d² + d(T + 7) + 2, computed by the chapter, is the table's count."""
    qatorlar = {q[0]: q for q in _qatorlar(sahifa, "sinov-jadval")}
    assert songa(qatorlar["attention (+ pozitsiya)"][-1]) == glued["param_formula"]


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
    assert chuqqi[-1] >= 2 * matritsa[-1], (matritsa[-1], chuqqi[-1])
    osish = chuqqi[-1] / chuqqi[-2]
    assert 3.5 <= osish <= 4.5, f"peak memory grew {osish:.2f}x from T={T[-2]} to T={T[-1]}"
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
        songa(jadval_["240", "attention"]["fwd (ms)"]) / songa(jadval_["240", "RNN"]["fwd (ms)"]), rel=0.02)
    assert glued["vaqt_nisbat"] > 1.5
    # "sekinligi MAC nisbatidan ancha kichik" (4,5 against 17,5; a reviewer's repeats 2,95–7,36)
    assert glued["vaqt_nisbat"] < glued["mac_nisbat"] / 2


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
    # "nn.MultiheadAttention computes exactly this" (float32 rounding)
    assert glued["mha_farq"] < 1e-5


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
    assert glued["poz_sin_pasayish"] == pytest.approx(sin_tushish)
    assert glued["poz_rope_pasayish"] == pytest.approx(rope_tushish)
    assert sin_tushish < rope_tushish / 2, (sin60, sin240, rope60, rope240)
    # "0-qadamga oʻrtacha kamida … ogʻirlik berdi: … javobni asosan 0-qadamdan oldi" (0,95;
    # default 0,91)
    assert glued["poz_sin_w0"] >= 0.5, glued["poz_sin_w0"]
    rope = {T: glued[f"poz_rope_{T}"] for T in POZ_T}
    for T in POZ_T:
        assert len(rope[T]) == 5
        assert (glued[f"poz_rope_{T}_min"], glued[f"poz_rope_{T}_max"]) == (min(rope[T]), max(rope[T]))
    # RoPE "oʻqitish uzunligida (T = 60) yechdi" (worst 0,970; default 0,970)
    assert min(rope[60]) >= 0.9, f"a RoPE model got {min(rope[60]):.3f} at T = 60"
    # "Uzunroq ketma-ketlikda esa yomonlashdi": T = 120 below every seed at T = 60 (0,814 vs
    # 0,970; default 0,862 vs 0,970), and "T = 240 da … hech bir seedda yechmadi" (best 0,636;
    # default 0,662)
    assert max(rope[120]) < min(rope[60]), (rope[120], rope[60])
    assert max(rope[240]) < 0.9, f"a RoPE model solved the task at T = 240: {max(rope[240]):.3f}"
    # "0-qadamga ogʻirlik T = 60 dagi kamida … dan T = 240 da koʻpi bilan … ga tushdi" (0,70 -> 0,10)
    w60, w240 = glued["poz_rope_w0_60"], glued["poz_rope_w0_240"]
    assert (glued["poz_rope_w0_60_min"], glued["poz_rope_w0_240_max"]) == (min(w60), max(w240))
    assert max(w240) < min(w60) / 2, (w240, w60)
    # "Oʻrganiladigan model T = 30 da ham ishladi" (0,990; default 0,988); none beyond T = 60
    assert min(glued["poz_org_30"]) >= 0.9 and glued["poz_org_30_min"] == min(glued["poz_org_30"])
    # the order-blind rule reads only the data: "hech bir T da … dan oshmadi", drifting to
    # one half as T grows (0,556 -> 0,528: the same data on every machine)
    kop = glued["poz_kop"]
    assert glued["poz_kop_max"] == max(kop) < 0.6
    assert kop[-1] < kop[0]
    # the table shows each model's worst and best seed
    qatorlar = {q[0]: q[1:] for q in _qatorlar(sahifa, "poz-jadval")}
    assert list(qatorlar) == [str(T) for T in POZ_T]
    for i, T in enumerate(POZ_T):
        s = sin[5 * i: 5 * i + 5]
        assert qatorlar[str(T)][:2] == [f"{son(min(q), '.2f')}–{son(max(q), '.2f')}" for q in (s, rope[T])]
        assert songa(qatorlar[str(T)][2]) == pytest.approx(round(kop[i], 2))
    # the summary's row: fixed words, this lesson's numbers
    qator = {q[0]: q[1] for q in _qatorlar(sahifa, "xulosa-jadval")}["Uzunroq ketma-ketlik"]
    assert son(sin_tushish, ".2f") in qator and son(rope_tushish, ".2f") in qator


@pytest.mark.build
def test_hiding_unseen_distances_brings_rope_back(glued):
    """'Besh seedning hammasida aniqlik yana … gacha koʻtarildi' (0,960–0,990; default
    0,960–0,990): the pairs at distances not seen in training hidden, only queries 0-59
    pooled."""
    nazorat, rope = glued["poz_nazorat"], glued["poz_rope_240"]
    assert len(nazorat) == 5
    assert (glued["poz_nazorat_min"], glued["poz_nazorat_max"]) == (min(nazorat), max(nazorat))
    assert min(nazorat) >= 0.9, f"the control left a RoPE model at {min(nazorat):.3f}"
    assert all(b > a for a, b in zip(rope, nazorat)), (rope, nazorat)


@pytest.mark.build
def test_the_causal_mask_alone_gives_some_order_not_the_position(glued):
    """The causal section: 'Kauzal maskali model … maskasiz model esa … tasodifiy javobga yaqin.
    … kauzal model hech bir seedda vazifani yechmadi, sinusoidal model esa … kamida …'."""
    kauzal, maskasiz = glued["kz_kauzal"], glued["kz_maskasiz"]
    assert len(kauzal) == len(maskasiz) == 5
    # the maskless models are the previous lesson's own five (the store's)
    assert maskasiz == glued["attn0_seedlar"]
    assert (glued["kz_kauzal_min"], glued["kz_kauzal_max"]) == (min(kauzal), max(kauzal))
    assert (glued["kz_maskasiz_min"], glued["kz_maskasiz_max"]) == (min(maskasiz), max(maskasiz))
    # the mask gives order: every masked seed (30 epochs) above every maskless one (60 epochs):
    # 0,668 vs 0,558
    assert min(kauzal) > max(maskasiz) + 0.05, (kauzal, maskasiz)
    # maskless "tasodifiy javobga yaqin" (0,540–0,558)
    assert max(maskasiz) < 0.65, maskasiz
    # "hech bir seedda vazifani yechmadi" (best 0,682); sinusoids far above (0,990)
    assert max(kauzal) < 0.9, kauzal
    assert glued["kz_sin60_min"] == min(glued["kz_sin60"]) > max(kauzal) + 0.1


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
    assert glued["kv_farqli"] == 0
    assert glued["kv_farq"] < 1e-5 and glued["kv_vaqt_farq"] < 1e-5
    assert glued["kv_formula_bayt"] == glued["kv_haqiqiy_bayt"]
    assert glued["kv_mac_nisbat"] == glued["kv_T_katta"]        # "exactly T times the work"
    assert 1 < glued["kv_nisbat"] < glued["kv_mac_nisbat"]      # "faster, but only ... times"
    assert glued["kv_llama_token_kib"] == 2 * 32 * 8 * 128 * 2 / 2**10
    assert glued["kv_llama_mha_gib"] == glued["kv_llama_gqa_marta"] * glued["kv_llama_gib"]
    assert glued["kv_mashq_bosh8_mib"] == glued["kv_gpt_mib"]   # exercise 8: heads do not change it
    assert glued["kv_mashq_qatlam4_mib"] == 2 * glued["kv_gpt_mib"]


def _toplangan(xato_soni, xato_00, sinov_00, n):
    """The errors sit on "00" numbers: so many would land there by chance with probability < 1 %."""
    p = sinov_00 / n
    return xato_00 > 0 and sum(math.comb(xato_soni, k) * p**k * (1 - p)**(xato_soni - k)
                               for k in range(xato_00, xato_soni + 1)) < 0.01


def test_the_concentration_rule_can_say_both():
    assert _toplangan(7, 3, 37, 1000)          # 3 of 7 errors where 3.7 % of numbers are: p ≈ 0.002
    assert not _toplangan(2, 1, 37, 1000)      # 1 of 2: p ≈ 0.07
    assert not _toplangan(7, 0, 37, 1000)


@pytest.mark.build
def test_capstone_sentences_follow_the_measurement(glued, sahifa):
    qatorlar = _qatorlar(sahifa, "tarjima-misollar")
    xatolar = [q for q in qatorlar if q[-1] == "yoʻq"]
    assert len(xatolar) == glued["tr_xato_soni"]
    assert len(qatorlar) - len(xatolar) == min(4, glued["tr_n_sinov"] - glued["tr_xato_soni"])
    assert glued["tr_00_xato"] == sum("00" in q[1].replace("\u202f", "") for q in xatolar)   # "200 190": grouped
    n = glued["tr_n_sinov"]
    kons0 = _toplangan(glued["tr_xato_soni"], glued["tr_00_xato"], glued["tr_00_sinov"], n)
    kons1 = _toplangan(glued["tr1_xato_soni"], glued["tr1_00_xato"], glued["tr1_00_sinov"], n)
    paragraf = glued["tr_00_paragraf"]
    assert paragraf.startswith("Xatolarga qarang: ") == kons0
    if kons0:
        assert f"{glued['tr_xato_soni']} ta xatoning {glued['tr_00_xato']} tasida" in paragraf \
            or f"{glued['tr_xato_soni']} ta xatoning hammasida" in paragraf \
            or (glued["tr_xato_soni"] == 1 and "yagona xatoda" in paragraf)
    assert ("Seed 1 modelida ham shu manzara" in paragraf) == (kons0 and kons1)
    assert ("Seed 1 modelida xatolar «00»li sonlarga toʻplanmagan" in paragraf) == (
        not kons1 and glued["tr1_xato_soni"] > 0)
    assert ("nollar guruhini hech bir soʻz aytmaydi" in paragraf) == (kons0 or kons1)
    assert " 0 tasida" not in paragraf                        # none is "hech birida … yoʻq"
    # the map of the example and its caption; the zeros
    togri, yorqin = glued["tr_misol_togri"], glued["tr_misol_yorqin"]
    assert glued["tr_xarita_gap"].startswith("har noldan farqli raqamning qatorida bitta yorqin katak") == (togri and yorqin)
    assert glued["tr_xarita_gap"].startswith("noldan farqli raqamlarning hammasida ham") == (not togri)
    izohlar = [f.get_text() for f in sahifa.select("figcaption")]
    assert any("Har noldan farqli raqamning eng yorqin katagi — uni beradigan soʻz" in i for i in izohlar) == togri
    assert any("Noldan farqli raqamlarning hammasida ham eng yorqin katak" in i for i in izohlar) == (not togri)
    assert glued["tr_nol_gap"].startswith("aynan shu soʻzlar") == (glued["tr_nol_ym"] > 0.5)
    # heads
    farqli = glued["tr_moslik_max"] - glued["tr_moslik_min"] > 0.1
    assert glued["tr_boshlar_soz"] == ("bir xil emas" if farqli else "bir-biriga oʻxshaydi")
    assert glued["tr_kop_boshli_gap"].startswith("Koʻp boshli attentionning maʼnosi shu") == farqli
    assert glued["tr_zaif_gap"].startswith(f"Eng past ulushli {glued['tr_zaif_bosh']}-bosh ham") == (
        glued["tr_zaif_oz"] > max(glued["tr_zaif_ym"], glued["tr_zaif_boshqa"]))
    u0, u1 = glued["tr0_ym_max"], glued["tr1_ym"]
    gap = glued["tr_seed_boshlar_gap"]
    assert gap.startswith("Boshlar ishni qanday taqsimlashi seedga bogʻliq.") == (
        (u0 > 0.5 and u1 < 0.3) or (u1 > 0.5 and u0 < 0.3))
    assert gap.startswith("Ikkala seedda ham") == (u0 > 0.5 and u1 > 0.5)
    assert gap.startswith("Hech bir seedda") == (u0 < 0.3 and u1 < 0.3)
    if u1 > 0.5 and u0 < 0.3:
        assert f"{glued['tr1_ym_bosh']}-bosh" in gap and "Seed 0 modelida esa" in gap
        assert ("atigi" in gap) == (glued["tr1_ym_moslik"] < 0.5)
    matn = _matn(sahifa)
    for nom in ("tr_00_paragraf", "tr_xarita_gap", "tr_nol_gap", "tr_zaif_gap", "tr_kop_boshli_gap",
                "tr_seed_boshlar_gap"):
        assert glued[nom] in matn, nom


@pytest.mark.build
def test_decoding_as_a_memory_bound_loop_is_said_as_measured(glued, sahifa):
    qatorlar = [[songa(c) for c in q] for q in _qatorlar(sahifa, "kv-xotira-jadval")]
    assert [q[0] for q in qatorlar] == [256, 1024, 2048, 4096]
    gbs = glued["bw_gbs"]
    for T, mib, chegara, oldindan, cat, oqish in qatorlar:
        # the limit is the bytes over the copy's bandwidth; the rate is the bytes over the time
        assert chegara == pytest.approx(mib * 2**20 / (gbs * 1e9) * 1000, abs=0.01, rel=0.01)
        assert oqish == pytest.approx(mib * 2**20 / oldindan / 1e6, abs=0.1, rel=0.02)
    assert glued["bw_farq"] < 1e-5                                     # both caches, the same logits
    tebranish = glued["bw_oqish_max"] / glued["bw_oqish_min"]
    assert glued["bw_ergash_gap"].startswith("vaqt baytlarga ergashadi") == (tebranish <= 1.3)
    # memory-bound is said only when the arithmetic is idle AND the time follows the bytes
    assert glued["bw_hisob_gap"].startswith("qadamda protsessor koʻp vaqt sonlarni kutadi") == (
        glued["bw_gmac_marta"] > 3 and tebranish <= 1.3)
    assert glued["bw_hisob_gap"].startswith("qadam protsessorning hisob kuchidan kam") == (
        glued["bw_gmac_marta"] > 3 and tebranish > 1.3)
    assert glued["bw_gmac_marta"] == pytest.approx(glued["bw_gmac_toliq"] / glued["bw_gmac_kesh"])
    assert glued["bw_ulush_gap"].startswith("qadam oʻtkazuvchanlikning") == (glued["bw_ulush"] <= 1)
    assert glued["bw_ulush"] == pytest.approx(glued["bw_chegara_ms"] / glued["bw_ms"])
    cat_marta = glued["bw_cat_marta"]
    assert glued["bw_cat_gap"].startswith(f"{son(cat_marta, '.1f')} marta sekinroq") == (
        cat_marta > 1.2)
    assert cat_marta == pytest.approx(qatorlar[-1][4] / qatorlar[-1][3], rel=0.02)
    # the small model: far above its limit ("u yerda vaqtni ... chaqiruvlar oladi")
    assert glued["bw_kichik_marta"] > 3
    matn = _matn(sahifa)
    for nom in ("bw_ergash_gap", "bw_hisob_gap", "bw_ulush_gap", "bw_cat_gap"):
        assert glued[nom] in matn, nom


@pytest.mark.build
def test_the_held_out_structure_probe_is_said_as_measured(glued, sahifa):
    qatorlar = _qatorlar(sahifa, "tarjima-tuzilma")
    assert [(q[0], q[1]) for q in qatorlar] == [("hamma son", "0"), ("hamma son", "1"),
                                                ("«00»siz", "0"), ("«00»siz", "1")]
    # the models trained on every number score what their training reported
    assert [songa(q[2]) for q in qatorlar[:2]] == [round(glued["tr_aniq_0"], 3), round(glued["tr_aniq_1"], 3)]
    yiqildi = glued["tz_yopiq_00_max"] < 0.5 and glued["tz_yopiq_00_max"] < glued["tz_hamma_00_min"] - 0.2
    assert glued["tz_xulosa"].startswith("Bu — kompozitsion umumlashtirishning muvaffaqiyatsizligi") == yiqildi
    # the held-out numbers: how many bring a word pair no training number has (seed 0)
    assert 0 <= glued["tz_yangi_juft"] <= glued["tz_nol00"]
    assert glued["tz_nol00"] >= glued["tz_00_soni_min"]
    assert glued["tz_nol_gap"].startswith("xatolar asosan soʻzi yoʻq raqamlarda") == (
        glued["tz_hamma_nolsiz_min"] > glued["tz_hamma_nolli_max"])
    assert glued["tz_kam_gap"].startswith("bu sonlarda maʼlumot kamaygani modelni zaiflashtirmadi") == (
        glued["tz_yopiq_nolsiz_min"] >= glued["tz_hamma_nolsiz_min"] - 0.02)
    # the glued ranges are the table's columns
    assert glued["tz_yopiq_00_max"] == pytest.approx(max(songa(q[5]) for q in qatorlar[2:]), abs=5e-4)
    assert glued["tz_hamma_00_min"] == pytest.approx(min(songa(q[5]) for q in qatorlar[:2]), abs=5e-4)
    assert glued["tz_00_soni_min"] > 10                    # enough "00" numbers to say anything
    for nom in ("tz_yopiq_00", "tz_hamma_00", "tz_yopiq_hammasi"):    # the ranges the prose prints
        # accuracy is a fraction, as in the lessons before and the tables ("0,953–0,988")
        a, b = son(glued[f"{nom}_min"], ".3f"), son(glued[f"{nom}_max"], ".3f")
        assert glued[f"{nom}_oraliq"] == (a if a == b else f"{a}–{b}")
    matn = _matn(sahifa)
    for nom in ("tz_xulosa", "tz_nol_gap", "tz_kam_gap"):
        assert glued[nom] in matn, nom


@pytest.mark.build
def test_capstone_properties_that_hold_on_any_cpu(glued):
    # "bunga parametrlarni 500 marta yangilash yetdi" and the spec: held-out exact match on both
    # seeds (re-run, 5 seeds: 0.980-0.996; here 0.993 and 0.980 natively, 0.992/0.983 generic)
    assert glued["tr_aniq_0"] >= 0.9 and glued["tr_aniq_1"] >= 0.9
    # "tekislashni modelga hech kim oʻrgatmagan": the mean over heads puts a non-zero digit's
    # strongest attention on its word (re-run, 5 seeds: 0.978-0.996)
    assert glued["tr_moslik"] >= 0.9


@pytest.mark.build
def test_attention_variants_are_said_as_measured(glued, sahifa):
    qatorlar = _qatorlar(sahifa, "turlar-jadval")
    assert [q[0] for q in qatorlar] == ["MHA: 4 ta kalit/qiymat boshi", "GQA: 2 ta kalit/qiymat boshi",
                                        "MQA: 1 ta kalit/qiymat boshi", "oyna: 2 token", "oyna: 1 token"]
    seedlar = [(songa(q[1]), songa(q[2])) for q in qatorlar]
    bayt = [songa(q[3]) for q in qatorlar]
    for (a, b), qisqa in zip(seedlar, ("mha", "gqa", "mqa", "oyna2", "oyna1")):
        assert glued[f"at_{qisqa}_min"] == pytest.approx(min(a, b), abs=5e-4), qisqa
        assert glued[f"at_{qisqa}_max"] == pytest.approx(max(a, b), abs=5e-4), qisqa
    # the cache holds what the formula says: 2 KV heads half of 4, 1 a quarter; a window of 2 (or 1)
    # keeps 2 (1) of the 7 tokens the decoder read
    assert bayt[1] * 2 == bayt[0] and bayt[2] * 4 == bayt[0]
    assert bayt[3] * 7 == bayt[0] * 2 and bayt[4] * 7 == bayt[0]
    assert [glued[f"at_{q}_bayt"] for q in ("mha", "gqa", "mqa", "oyna2")] == bayt[:4]
    mha = min(seedlar[0]), max(seedlar[0])

    def baho(s):
        return "pastroq" if max(s) < mha[0] else "yuqoriroq" if min(s) > mha[1] else "teng"

    for s, qisqa in zip(seedlar[1:], ("gqa", "mqa", "oyna2", "oyna1")):
        assert glued[f"at_{qisqa}_baho"] == baho(s), qisqa
    hammasi_teng = all(baho(s) == "teng" for s in seedlar[1:4])
    assert glued["at_aniqlik_gap"].startswith("Uch turning hech birida aniqlik MHAnikidan sezilarli farq qilmadi") == hammasi_teng
    assert glued["at_narx_gap"].startswith("2 ta seed bilan bu narx koʻrinmadi: javob") == hammasi_teng
    assert glued["at_nazorat_gap"].startswith("Nazorat modeli (oyna 1) ham shunday") == (
        baho(seedlar[4]) == "teng")
    # time per token: the sentence follows the glued extremes
    assert glued["at_vaqt_gap"].startswith("Bitta token vaqti esa turga deyarli bogʻliq emas") == (
        glued["at_ms_max"] / glued["at_ms_min"] < 1.25)
    # the big model: caches by the formula 2 L T n_kv d_head 4 bytes (L = 4, 64-wide heads)
    L, T = glued["at_k_L"], glued["at_k_T"]
    # (MHA and MQA in a preallocated buffer with room for the step's token: T + 1)
    assert glued["at_k_mha_mib"] == pytest.approx(2 * L * (T + 1) * glued["at_k_h"] * 64 * 4 / 2**20)
    assert glued["at_k_mqa_mib"] == pytest.approx(2 * L * (T + 1) * 1 * 64 * 4 / 2**20)
    assert glued["at_k_oyna_mib"] == pytest.approx(2 * L * glued["at_k_oyna"] * glued["at_k_h"] * 64 * 4 / 2**20)
    assert glued["at_k_bayt_nisbat"] > 1
    assert glued["at_k_tezlik"] == pytest.approx(glued["at_k_mha_ms"] / glued["at_k_mqa_ms"])
    assert glued["at_k_aylanadi"].startswith("Katta modelda esa tejalgan bayt") == (glued["at_k_tezlik"] > 1.2)
    ergashdi = glued["at_k_tezlik"] > 1.2 and glued["at_k_ulush_min"] > 0.6 * glued["at_k_ulush_max"]
    assert glued["at_k_gap"].startswith("Vaqt oʻqiladigan baytlar bilan birga kamaydi") == ergashdi
    matn = _matn(sahifa)
    for nom in ("at_aniqlik_gap", "at_nazorat_gap", "at_narx_gap", "at_vaqt_gap", "at_k_gap", "at_k_aylanadi"):
        assert glued[nom] in matn, nom
