"""tools/sayt_izi.py: it sees a change of text, link or image, and nothing else."""

from sayt_izi import farq, main, sahifa_izi

SAHIFA = ('<html><head><style>p{}</style></head><body><p>Bir <b>gap</b>.</p><script>x=1</script>'
          '<a href="b.html?v=12ab">b</a><picture><source srcset="r.webp"><img src="r.png" alt="rasm"></picture>'
          '</body></html>')


def test_markup_scripts_and_checksums_are_not_what_a_reader_gets():
    qayta = SAHIFA.replace("<b>gap</b>", '<span class="x">gap</span>').replace("x=1", "y=2") \
        .replace("?v=12ab", "?v=99ff").replace("<p>", '<p class="yangi">')
    assert farq({"a.html": sahifa_izi(SAHIFA)}, {"a.html": sahifa_izi(qayta)}) == []
    assert sahifa_izi(SAHIFA) == {"matn": ["Bir", "gap.b"], "havolalar": ["b.html"],
                                  "rasmlar": ["source r.webp alt=''", "img r.png alt='rasm'"]}


def test_text_links_images_and_pages_are():
    eski = {"a.html": sahifa_izi(SAHIFA)}
    for yangi in (SAHIFA.replace("Bir", "Ikki"), SAHIFA.replace("b.html", "c.html"),
                  SAHIFA.replace('alt="rasm"', 'alt=""'), SAHIFA.replace("r.webp", "s.webp")):
        assert farq(eski, {"a.html": sahifa_izi(yangi)}), yangi
    assert farq(eski, {**eski, "b.html": eski["a.html"]}) == ["b.html: only in the new site"]
    # a measured number differs; read without digits the text is the same, a word is not
    olchov = SAHIFA.replace("Bir", "0,45 ms")
    assert farq({"a": sahifa_izi(olchov)}, {"a": sahifa_izi(olchov.replace("0,45", "1,89"))})
    assert not farq({"a": sahifa_izi(olchov, True)}, {"a": sahifa_izi(olchov.replace("0,45", "1,89"), True)})
    assert farq({"a": sahifa_izi(olchov, True)}, {"a": sahifa_izi(olchov.replace("ms", "s"), True)})


def test_the_command_says_what_it_needs(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "usage" in capsys.readouterr().err
    for papka in ("eski", "yangi"):
        (tmp_path / papka).mkdir()
        (tmp_path / papka / "index.html").write_text(SAHIFA)
    assert main([str(tmp_path / "eski"), str(tmp_path / "yangi")]) == 0
    (tmp_path / "yangi" / "index.html").write_text(SAHIFA.replace("Bir", "Uch"))
    assert main([str(tmp_path / "eski"), str(tmp_path / "yangi")]) == 1
    assert "-Bir" in capsys.readouterr().out
