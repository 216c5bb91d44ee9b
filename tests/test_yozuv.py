"""Unit tests of book/_ext/qurilish/yozuv.py: the chapter's words in another script (issue 48).

The Cyrillic script is checked against its gold list (``book/_yozuvlar/kirill/oltin.tsv``):
every chapter word with a hard pattern (ts/ц, e/э, ye, yo, yoʻ, ʼ/ъ, ь in loanwords, capitals,
acronyms with suffixes, English terms) must be right, and at most 0,5 % of at least 300 words
drawn at random.  A third script is a folder of data, shown with a toy letter table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qurilish.yozuv import PAPKA, Yozuv, YozuvXatosi


def _oltin(nom: str) -> list[tuple[str, str, str]]:
    qatorlar = (PAPKA / nom / "oltin.tsv").read_text(encoding="utf-8").splitlines()
    return [tuple(q.split("\t")[:3]) for q in qatorlar if q and not q.startswith(("#", "latin\t"))]


@pytest.fixture(scope="module")
def kirill() -> Yozuv:
    return Yozuv.oqi("kirill")


def test_every_hard_chapter_word_is_written_right(kirill):
    qiyinlar = [(l, k) for l, k, tur in _oltin("kirill") if tur.startswith("a:")]
    assert len(qiyinlar) >= 700
    xatolar = [(l, k, kirill.soz(l)) for l, k in qiyinlar if kirill.soz(l) != k]
    assert not xatolar, f"{len(xatolar)} of {len(qiyinlar)} wrong (latin, gold, written): {xatolar[:20]}"


def test_at_most_half_a_percent_of_random_words_are_wrong(kirill):
    tasodifiy = [(l, k) for l, k, tur in _oltin("kirill") if tur.startswith("b:")]
    assert len(tasodifiy) >= 300
    xatolar = [(l, k, kirill.soz(l)) for l, k in tasodifiy if kirill.soz(l) != k]
    assert len(xatolar) <= 0.005 * len(tasodifiy), xatolar


@pytest.mark.parametrize("lotin, kirillcha", [
    ("GQAning", "GQAнинг"), ("RNNdan", "RNNдан"), ("LSTMdagidan", "LSTMдагидан"),
    ("8Bda", "8Bда"), ("KichikGPTda", "KichikGPTда"), ("seedga", "seedга"),
    ("PyTorchda", "PyTorchда"), ("Attention", "Attention"),
    ("funksiyaning", "функциянинг"), ("Funksiya", "Функция"), ("boshlangʻich", "бошланғич"),
    ("gradienti", "градиенти"), ("maʼlumot", "маълумот"), ("yoʻl", "йўл"), ("esa", "эса"),
    ("Yangi", "Янги"), ("T", "T"), ("u", "у"), ("soʻz-soʻz", "сўз-сўз"),
])
def test_the_policy_on_its_examples(kirill, lotin, kirillcha):
    assert kirill.soz(lotin) == kirillcha


def test_running_text_keeps_what_lies_between_words(kirill):
    assert kirill.matn("Soʻrov (ingl. query) — 4 096 ta, GQAning 2 guruhi: 0,97!") \
        == "Сўров (ингл. query) — 4 096 та, GQAнинг 2 гуруҳи: 0,97!"


def test_a_third_script_is_a_folder_of_data_not_code(tmp_path):
    """A toy script: a letter table, one exception, one kept word; nothing in yozuv.py names it."""
    papka = tmp_path / "oyna"
    papka.mkdir()
    (papka / "yozuv.yml").write_text("sarlavha: Oyna\ntil: uz-Zyyy\nsphinx_tili: uz\nharflar: harflar.tsv\n"
                                     "alifbo: α b d e f g h i j k l m n o p q r ς t u v x y z ø gʻ ʃ ch ng\n",
                                     encoding="utf-8")
    (papka / "harflar.tsv").write_text("sh\tʃ\noʻ\tø\na\tα\ns\tς\n", encoding="utf-8")
    (papka / "istisnolar.tsv").write_text("bosh\tBOS\t+\n", encoding="utf-8")
    (papka / "lotinda.txt").write_text("seed\n", encoding="utf-8")
    oyna = Yozuv.oqi("oyna", tmp_path)
    assert (oyna.sarlavha, oyna.til) == ("Oyna", "uz-Zyyy")
    assert oyna.matn("Shosh soʻz, seedlar va boshqa") == "Ʃoʃ ςøz, seedlαr vα BOSqα"
    # a capital the table does not name stays a capital
    assert oyna.matn("Ikki Soʻz, Bir") == "Ikki Σøz, Bir"


def test_the_2026_latin_alphabet_is_a_kept_librarys_function(tmp_path):
    papka = tmp_path / "yangi"
    papka.mkdir()
    (papka / "yozuv.yml").write_text("sarlavha: Yangi lotin\ntil: uz-Latn\nsphinx_tili: uz\nalifbo: a b\n"
                                     "otkazgich: alifbo.to_new_latin\n", encoding="utf-8")
    yangi = Yozuv.oqi("yangi", tmp_path)
    assert yangi.matn("Soʻrov shahar choʻl GQAning") == "Sörov şahar çöl GQAning"


def test_a_broken_script_folder_says_what_is_wrong_and_what_would_be_right(tmp_path):
    with pytest.raises(YozuvXatosi, match="no script 'yoq'.*scripts there: none"):
        Yozuv.oqi("yoq", tmp_path)
    papka = tmp_path / "x"
    papka.mkdir()
    (papka / "yozuv.yml").write_text("sarlavha: X\ntil: x\nsphinx_tili: x\nalifbo: a b\notkazgich: yoq_paket.f\n", encoding="utf-8")
    with pytest.raises(YozuvXatosi, match="yoq_paket.f' cannot be imported.*requirements.txt"):
        Yozuv.oqi("x", tmp_path)
    (papka / "yozuv.yml").write_text("sarlavha: X\ntil: x\nsphinx_tili: x\nalifbo: a b\notkazgich: alifbo.to_cyrillic\n",
                                     encoding="utf-8")
    (papka / "istisnolar.tsv").write_text("funksiya\tфункция\n", encoding="utf-8")
    with pytest.raises(YozuvXatosi, match=r"istisnolar.tsv:1: expected 'latin<TAB>written<TAB>='"):
        Yozuv.oqi("x", tmp_path)
    (papka / "istisnolar.tsv").unlink()
    (papka / "yozuv.yml").write_text("sarlavha: X\ntil: x\nsphinx_tili: x\notkazgich: alifbo.to_cyrillic\n",
                                     encoding="utf-8")
    with pytest.raises(YozuvXatosi, match="'alifbo' .*«а б в ...».* is missing"):
        Yozuv.oqi("x", tmp_path)
    (papka / "yozuv.yml").write_text("til: x\n", encoding="utf-8")
    with pytest.raises(YozuvXatosi, match="'sarlavha' \\(a string\\) is missing"):
        Yozuv.oqi("x", tmp_path)


def test_a_page_is_written_in_the_script_but_its_code_formulas_glosses_and_citations_are_not(kirill):
    from docutils import nodes
    from docutils.core import publish_doctree

    from qurilish.yozuv import doctree_yoz

    doctree = publish_doctree(
        "Soʻrov\n======\n\n"
        "Har soʻrov (ingl. *query*) ``soʻrov = x @ W`` bilan, :math:`q_t` esa vektor.\n"
        "Manzil: https://arxiv.org/abs/1706.03762, kitob [Vaswani]_.\n\n"
        "::\n\n    print('soʻrov')  # natija\n\n"
        ".. [Vaswani] Ashish Vaswani va boshq. Attention is all you need.\n",
        settings_overrides={"report_level": 5})
    assert doctree_yoz(doctree, kirill) > 0
    matn = doctree.astext()
    assert "Сўров" in matn and "Ҳар сўров (ингл. query)" in matn and "билан" in matn
    assert "soʻrov = x @ W" in matn and "q_t" in matn and "print('soʻrov')  # natija" in matn
    assert "https://arxiv.org/abs/1706.03762" in matn
    assert "Ashish Vaswani va boshq. Attention is all you need." in matn
    assert not list(doctree.findall(lambda n: isinstance(n, nodes.Text) and "ʻ" in n
                                    and not isinstance(n.parent, (nodes.literal, nodes.literal_block, nodes.citation))
                                    and not isinstance(n.parent.parent, nodes.citation)))


def test_the_cyrillic_glossary_order_is_the_cyrillic_alphabets():
    """Ў Қ Ғ Ҳ come after Я; a word kept in Latin letters after every Cyrillic one, filed under
    «A–Z»; a word before a longer one that starts with it."""
    kirill = Yozuv.oqi("kirill")
    sozlar = ["ҳарорат", "яширин", "ўрганиш", "GQA", "аниқлик", "аниқ мослик", "қадам", "эмбеддинг",
              "attention (эътибор механизми)", "ғалва", "ёрлиқ", "е"]
    assert sorted(sozlar, key=kirill.tartib_kaliti) == [
        "аниқ мослик", "аниқлик", "е", "ёрлиқ", "эмбеддинг", "яширин", "ўрганиш", "қадам", "ғалва",
        "ҳарорат", "attention (эътибор механизми)", "GQA"]
    assert [kirill.harf_guruhi(s) for s in ("ўрганиш", "Қадам", "GQA", "8B")] == ["Ў", "Қ", "A–Z", ""]


def test_the_pdfs_index_key_sorts_as_the_alphabets_order():
    """makeindex sorts ASCII: the PDF's key for a word sorts among the others' keys exactly as
    the word does in the alphabet's order (the glossary's), and is ASCII letters and spaces."""
    kirill = Yozuv.oqi("kirill")
    sozlar = ["ҳарорат", "яширин", "ўрганиш", "GQA", "аниқлик", "аниқ мослик", "қадам", "эмбеддинг",
              "attention (эътибор механизми)", "ғалва", "ёрлиқ", "е", "top-k", "top-p", "8B", "кэш"]
    kalitlar = {s: kirill.ascii_kalit(s) for s in sozlar}
    assert all(re.fullmatch(r"[a-z ]+", k) for k in kalitlar.values()), kalitlar
    assert sorted(sozlar, key=kalitlar.get) == sorted(sozlar, key=kirill.tartib_kaliti)
    assert len(set(kalitlar.values())) == len(sozlar)


def test_a_babel_locale_that_is_not_a_name_is_refused(tmp_path):
    papka = tmp_path / "oyna"
    papka.mkdir()
    (papka / "yozuv.yml").write_text("sarlavha: Oyna\ntil: uz-Zyyy\nsphinx_tili: uz\nalifbo: a b\n"
                                     "babel: '{uz}'\nharflar: harflar.tsv\n", encoding="utf-8")
    (papka / "harflar.tsv").write_text("a\tα\n", encoding="utf-8")
    with pytest.raises(YozuvXatosi, match=r"'babel' is '\{uz\}': write the name of a babel locale"):
        Yozuv.oqi("oyna", tmp_path)


def test_a_gloss_at_a_paragraphs_start_stays_english(kirill):
    """The English after «ingl.» is known before «ingl.» itself is written (ингл.): a gloss that
    opens a paragraph, as a glossary's definitions do, stays as written, every word of it."""
    from docutils.core import publish_doctree

    from qurilish.yozuv import doctree_yoz

    doctree = publish_doctree("ingl. *vanishing gradient*. Gradient soʻnadi.\n", settings_overrides={"report_level": 5})
    doctree_yoz(doctree, kirill)
    assert doctree.astext() == "ингл. vanishing gradient. Градиент сўнади."


def test_text_written_already_is_written_the_same(kirill):
    """Writing is idempotent: a title the navigation writes again (attentionни, Transformerлар,
    GQAнинг) stays as the first writing left it, for every word of the gold list."""
    for l, _, _ in _oltin("kirill"):
        bir = kirill.matn(l)
        assert kirill.matn(bir) == bir, (l, bir, kirill.matn(bir))
    assert kirill.matn(kirill.matn("FlashAttention: attentionni boʻlaklab hisoblash")) == \
        "FlashAttention: attentionни бўлаклаб ҳисоблаш"


def test_the_dictionary_check_finds_misspelt_and_wrongly_written_words(kirill):
    """hunspell-uz with the endings and lugatda_yoq.txt: right forms pass, a misspelt stem, a
    wrong ending, a stray letter, a word the converter wrote half in Latin and a suffix that is
    not one are each caught (the build test runs it on every page of the edition)."""
    togri = ["моделлардан", "токенларнинг", "позициясиз", "текширамиз", "қиялиги", "бўлаклаб",
             "ингл", "сўровлардан", "ўлчаймиз"]
    assert kirill.lugatda_yoqlar(togri, ["нинг", "ларда", "расм"]) == []
    xato = ["моделлардн", "токенлрни", "пазиция", "текширамизз", "Wх"]
    assert kirill.lugatda_yoqlar(togri + xato, ["нинг", "х", "ъни"]) == sorted(xato + ["х", "ъни"])


def test_a_script_without_a_dictionary_says_so(tmp_path):
    (tmp_path / "oyinchoq").mkdir()
    (tmp_path / "oyinchoq" / "yozuv.yml").write_text(
        "sarlavha: Oy\ntil: uz-x-oy\nsphinx_tili: uz\nalifbo: a b\nharflar: harflar.tsv\n", encoding="utf-8")
    (tmp_path / "oyinchoq" / "harflar.tsv").write_text("a\tä\n", encoding="utf-8")
    with pytest.raises(YozuvXatosi, match="names no dictionary"):
        Yozuv.oqi("oyinchoq", tmp_path).lugatda_yoqlar(["ä"], [])
    (tmp_path / "oyinchoq" / "yozuv.yml").write_text(
        "sarlavha: Oy\ntil: uz-x-oy\nsphinx_tili: uz\nalifbo: a b\nharflar: harflar.tsv\nlugat: lugat.dic\n",
        encoding="utf-8")
    with pytest.raises(YozuvXatosi, match="absolute path"):
        Yozuv.oqi("oyinchoq", tmp_path)
