#!/usr/bin/env bash
# Recipe for the page-retrieval corpus of `npm run bench:pages` (benchmarks/pages.ts): real
# multi-page PDF manuals from Debian's documentation packages, plus a few short text and HTML
# files from the same packages as distractors. The files are never committed: this script
# downloads the packages with `apt-get download` (nothing is installed), unpacks them with
# `dpkg-deb -x` in a temporary folder, copies the chosen files into the corpus folder, then
# runs benchmarks/pages-judgments.ts, which reads each PDF's outline (bookmarks) and writes the
# queries with their judged document and pages.
#
#   bash benchmarks/pages-corpus.sh [corpus dir]     (default ../shared/corpora/pages)
#
# Needs Debian's apt (run `apt-get update` first) and the project's node_modules (pdf.js).
# Output in the corpus dir: files/<id>.<ext>, packages.tsv (package, version), manifest.json
# (every file with its package, source path, sha256, pages), pages-text.jsonl.gz (each PDF
# page's text as pdf.js reads it, for the peer), queries.jsonl (the judged queries),
# copyright/<package> (license terms) and README.md.
set -euo pipefail

# Bump with any change to the selection below or to the judgment rules in pages-judgments.ts.
RECIPE_VERSION=1

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CORPUS="${1:-$ROOT/../shared/corpora/pages}"
mkdir -p "$CORPUS"
CORPUS="$(cd "$CORPUS" && pwd)"

# package | path inside the package | corpus id (the Folio document id and the file's name).
# live-manual-pdf was left out: its PDFs have text only on their contents pages.
PDFS='
gnuplot-doc|usr/share/doc/gnuplot/gnuplot.pdf|gnuplot
r-doc-pdf|usr/share/R/doc/manual/R-FAQ.pdf|R-FAQ
r-doc-pdf|usr/share/R/doc/manual/R-admin.pdf|R-admin
r-doc-pdf|usr/share/R/doc/manual/R-data.pdf|R-data
r-doc-pdf|usr/share/R/doc/manual/R-exts.pdf|R-exts
r-doc-pdf|usr/share/R/doc/manual/R-intro.pdf|R-intro
r-doc-pdf|usr/share/R/doc/manual/R-ints.pdf|R-ints
r-doc-pdf|usr/share/R/doc/manual/R-lang.pdf|R-lang
debian-reference-en|usr/share/debian-reference/debian-reference.en.pdf|debian-reference
developers-reference|usr/share/developers-reference/developers-reference.pdf|developers-reference
debian-policy|usr/share/doc/debian-policy/policy.pdf.gz|debian-policy
debian-policy|usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz|fhs-3.0
asymptote-doc|usr/share/doc/asymptote/asymptote.pdf|asymptote
asymptote-doc|usr/share/doc/asymptote/asy-latex.pdf|asy-latex
asymptote-doc|usr/share/doc/asymptote/CAD.pdf|asymptote-CAD
auto-multiple-choice-doc-pdf|usr/share/doc/auto-multiple-choice/auto-multiple-choice.en.pdf|auto-multiple-choice
auto-multiple-choice-doc-pdf|usr/share/doc/auto-multiple-choice/latex/automultiplechoice.pdf|automultiplechoice-latex
camlidl-doc|usr/share/doc/camlidl/camlidl-1.04.doc.pdf|camlidl
docbook-xsl-doc-pdf|usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz|docbook-xsl-reference
glpk-doc|usr/share/doc/glpk-doc/glpk.pdf|glpk
glpk-doc|usr/share/doc/glpk-doc/gmpl.pdf|gmpl
glpk-doc|usr/share/doc/glpk-doc/graphs.pdf|glpk-graphs
glpk-doc|usr/share/doc/glpk-doc/cnfsat.pdf|glpk-cnfsat
gprolog-doc|usr/share/doc/gprolog-doc/gprolog.pdf|gprolog
gri-pdf-doc|usr/share/doc/gri/gri.pdf.gz|gri
maxima-doc|usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz|maximabook
ngspice-doc|usr/share/doc/ngspice-doc/manual.pdf.gz|ngspice
octave-doc|usr/share/doc/octave/octave.pdf|octave
octave-doc|usr/share/doc/octave/liboctave.pdf|liboctave
python-reportlab-doc|usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf|reportlab-userguide
why3-doc-pdf|usr/share/doc/why3-doc-pdf/manual.pdf|why3
zsh-doc|usr/share/doc/zsh-common/zsh.pdf|zsh
siscone-doc-pdf|usr/share/doc/siscone-doc-pdf/pdf/refman.pdf.gz|siscone-refman
pari-doc|usr/share/pari/doc/users.pdf|pari-users
pari-doc|usr/share/pari/doc/libpari.pdf|libpari
pari-doc|usr/share/pari/doc/tutorial.pdf|pari-tutorial
pari-doc|usr/share/pari/doc/tutorial-mf.pdf|pari-tutorial-mf
pari-doc|usr/share/pari/doc/INSTALL.pdf|pari-INSTALL
pari-doc|usr/share/pari/doc/develop.pdf|pari-develop
pari-doc|usr/share/pari/doc/parallel.pdf|pari-parallel
c++-annotations-pdf|usr/share/doc/c++-annotations/cplusplus.pdf|cplusplus-annotations
'

# Short non-PDF files from the same packages: READMEs, NEWS, FAQ pages. None repeats a PDF's
# text (the HTML and reStructuredText copies of the manuals are left out on purpose), so no
# query has a second right answer among them. Judged for no query; they only compete.
DISTRACTORS='
gnuplot-doc|usr/share/doc/gnuplot/README.gz|gnuplot-README.txt
gnuplot-doc|usr/share/doc/gnuplot/NEWS.gz|gnuplot-NEWS.txt
gri-pdf-doc|usr/share/doc/gri-pdf-doc/README|gri-README.txt
ngspice-doc|usr/share/doc/ngspice-doc/README|ngspice-README.txt
docbook-xsl-doc-pdf|usr/share/doc/docbook-xsl-doc-pdf/README|docbook-xsl-README.txt
c++-annotations-pdf|usr/share/doc/c++-annotations-pdf/README.papersize|cplusplus-annotations-README.txt
maxima-doc|usr/share/doc/maxima-doc/implementation/dir_vars.txt|maxima-dir_vars.txt
maxima-doc|usr/share/doc/maxima-doc/implementation/external-interface.txt|maxima-external-interface.txt
maxima-doc|usr/share/doc/maxima-doc/implementation/sloop-loop-changes.txt|maxima-sloop-loop-changes.txt
maxima-doc|usr/share/doc/maxima-doc/share/translation_hints.txt|maxima-translation_hints.txt
python-reportlab-doc|usr/share/doc/python-reportlab-doc/examples/odyssey/odyssey.txt|reportlab-odyssey.txt
python-reportlab-doc|usr/share/doc/python-reportlab-doc/examples/rlzope/readme.txt|reportlab-rlzope-readme.txt
zsh-doc|usr/share/doc/zsh-common/html/FAQ01.html|zsh-FAQ01.html
zsh-doc|usr/share/doc/zsh-common/html/FAQ02.html|zsh-FAQ02.html
zsh-doc|usr/share/doc/zsh-common/html/FAQ03.html|zsh-FAQ03.html
zsh-doc|usr/share/doc/zsh-common/html/FAQ04.html|zsh-FAQ04.html
zsh-doc|usr/share/doc/zsh-common/html/FAQ05.html|zsh-FAQ05.html
zsh-doc|usr/share/doc/zsh-common/html/FAQ06.html|zsh-FAQ06.html
'

WORK="$(mktemp -d -t folio-pages-debs-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
# apt-get download as root hands the download to the _apt user, which must be able to write.
chmod 0777 "$WORK"

packages="$(printf '%s\n%s\n' "$PDFS" "$DISTRACTORS" | awk -F'|' 'NF == 3 { print $1 }' | sort -u)"
echo "[pages-corpus] downloading $(echo "$packages" | wc -l) packages into $WORK" >&2
# shellcheck disable=SC2086
(cd "$WORK" && apt-get download -q $packages) || {
  echo "[pages-corpus] apt-get download failed: run 'apt-get update' first (Debian only)" >&2
  exit 1
}

mkdir -p "$WORK/root"
: > "$WORK/packages.tsv"
for deb in "$WORK"/*.deb; do
  dpkg-deb -x "$deb" "$WORK/root"
  printf '%s\t%s\n' "$(dpkg-deb -f "$deb" Package)" "$(dpkg-deb -f "$deb" Version)" >> "$WORK/packages.tsv"
done

rm -rf "$CORPUS/files"
mkdir -p "$CORPUS/files"
: > "$CORPUS/sources.tsv"
copy() { # package, path in the package, corpus file name
  local source="$WORK/root/$2"
  source="$(readlink -f "$source")" # some doc paths are symlinks inside the package
  if [[ "$2" == *.gz ]]; then gzip -dc "$source" > "$CORPUS/files/$3"; else cp "$source" "$CORPUS/files/$3"; fi
  printf '%s\t%s\t%s\n' "$3" "$1" "/$2" >> "$CORPUS/sources.tsv"
}
while IFS='|' read -r package path id; do
  [ -n "$package" ] && copy "$package" "$path" "$id.pdf"
done <<< "$PDFS"
while IFS='|' read -r package path name; do
  [ -n "$package" ] && copy "$package" "$path" "$name"
done <<< "$DISTRACTORS"
sort "$WORK/packages.tsv" > "$CORPUS/packages.tsv"
# Each package's license terms travel with its files.
rm -rf "$CORPUS/copyright"
mkdir -p "$CORPUS/copyright"
for package in $packages; do
  if [ -f "$WORK/root/usr/share/doc/$package/copyright" ]; then
    cp "$WORK/root/usr/share/doc/$package/copyright" "$CORPUS/copyright/$package"
  else # e.g. zsh-doc, whose doc folder is a link to zsh-common's (another package)
    target="$(readlink "$WORK/root/usr/share/doc/$package" || true)"
    echo "$package ships no copyright file of its own; see the one in /usr/share/doc/${target:-$package} of Debian's ${target:-$package} package." > "$CORPUS/copyright/$package"
  fi
done
cat > "$CORPUS/README.md" <<EOF
# pages/: the page-retrieval corpus of npm run bench:pages

Made by benchmarks/pages-corpus.sh (recipe $RECIPE_VERSION) on $(date -u +%Y-%m-%d) from Debian's
documentation packages listed in packages.tsv (each file's package and path: sources.tsv;
checksums and page counts: manifest.json; license terms: copyright/). Do not edit by hand:
run the recipe again. queries.jsonl holds the judged queries (benchmarks/pages-judgments.ts
says how they are made), pages-text.jsonl.gz the text of every PDF page as pdf.js reads it.
EOF

echo "[pages-corpus] $(ls "$CORPUS/files" | wc -l) files, $(du -sh "$CORPUS/files" | cut -f1); judging…" >&2
cd "$ROOT"
npx tsx benchmarks/pages-judgments.ts "$CORPUS" "$RECIPE_VERSION"
