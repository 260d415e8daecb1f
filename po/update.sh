#!/bin/sh
# po/update.sh: regenerate po/flexion.pot from POTFILES.in and msgmerge every
# language in LINGUAS with it; then report translated/fuzzy/untranslated counts.
# No build directory needed (the keywords and flags are meson's 'glib' preset,
# as in po/meson.build).
# Usage: po/update.sh             regenerate po/flexion.pot, merge de.po, fr.po, ...
#        po/update.sh --no-merge  only regenerate po/flexion.pot
#        po/update.sh --pot FILE  only extract, into FILE (po/ is left alone;
#                                 tests/po uses this)
set -eu
pot=po/flexion.pot merge=yes
case "${1:-}" in
  --no-merge) merge=no ;;
  --pot) pot=${2:?--pot needs a file name}; merge=no ;;
  "") ;;
  *) echo "usage: $0 [--no-merge | --pot FILE]" >&2; exit 2 ;;
esac
case $pot in /*) ;; *) [ "$pot" = po/flexion.pot ] || pot=$(pwd)/$pot ;; esac
podir=$(cd "$(dirname "$0")" && pwd)
srcroot=$(dirname "$podir")
version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$srcroot/meson.build" | head -n1)

cd "$srcroot"
# POTFILES.in without comments and blank lines
files=$(mktemp)
trap 'rm -f "$files"' EXIT
grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$files"

xgettext --package-name=Flexion --package-version="$version" \
  --msgid-bugs-address=https://github.com/flexion/flexion/issues \
  --from-code=UTF-8 --add-comments=Translators: \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --keyword=fx_io_report_error:4 --keyword=fx_io_report_warning:4 --keyword=text_error:3 \
  --flag=fx_io_report_error:4:c-format --flag=fx_io_report_warning:4:c-format --flag=text_error:3:c-format \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
  --files-from="$files" --output="$pot"
echo "$pot: $(grep -c '^msgid ' "$pot" | awk '{print $1 - 1}') messages"

[ $merge = yes ] || exit 0
status=0
for lang in $(grep -v '^#' po/LINGUAS); do
  po=po/$lang.po
  if [ -f "$po" ]; then
    msgmerge --quiet --update --backup=none --previous "$po" po/flexion.pot
  else
    msginit --no-translator --locale="$lang" --input=po/flexion.pot --output-file="$po"
  fi
  stats=$(msgfmt --check --statistics -o /dev/null "$po" 2>&1) || status=1
  echo "$po: $stats"
done
exit $status
