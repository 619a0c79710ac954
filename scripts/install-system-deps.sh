#!/usr/bin/env bash
# Installs what pnpgen needs from Debian: the Japanese fonts, DejaVu's italic faces (Latin text styled
# italic: Noto CJK has no italic and would be slanted synthetically), HarfBuzz's subsetter (without it
# WeasyPrint falls back to a subsetter about 5x slower), Ghostscript's ICC profiles, whose CMYK
# profile (AGPL) is the output intent of `pnpgen export --to pdfx`, and Chromium, the browser the tests
# of `pnpgen serve` drive through Playwright (Debian's build: no browser download). As root it installs
# what is missing; otherwise it prints the exact command, and the Makefile falls back to the Japanese font
# from PyPI.
set -u
packages="fonts-noto-cjk fonts-dejavu-extra libharfbuzz-subset0 libpango-1.0-0 libpangoft2-1.0-0 fontconfig libgs-common chromium"
packages="$packages gettext"  # msgfmt: the tests compare how PO files are read with gettext's own check
missing=""
for package in $packages; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -z "$missing" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null && exit 0
  echo "apt-get failed; continuing with the font from PyPI" >&2
else
  echo "missing Debian packages:$missing" >&2
  echo "install them with:  sudo apt-get install$missing" >&2
  echo "continuing with the Japanese font from PyPI (noto-cjk-sans-jp-regular)" >&2
fi
exit 1
