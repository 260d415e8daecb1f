#!/bin/bash
# tests/install: install the build into a temporary DESTDIR and check that the
# installed programs run and report the project version and that the desktop
# files, icons, schema, MIME type, examples and translations are in place.
#
# usage: test-install.sh MESON BUILD_ROOT VERSION BINDIR DATADIR LOCALEDIR PKGDATADIR \
#                        GLIB_COMPILE_SCHEMAS
#        (BINDIR ... PKGDATADIR: the absolute installation directories, as
#        configured; they are looked up under the DESTDIR)
set -u
meson=$1 build_root=$2 version=$3 bindir=$4 datadir=$5 localedir=$6 pkgdatadir=$7
compile_schemas=${8:-glib-compile-schemas}
app_id=io.github.flexion.Flexion

destdir=$(mktemp -d "${TMPDIR:-/tmp}/flexion-install-test.XXXXXX") || exit 1
trap 'rm -rf "$destdir"' EXIT

n=0 failed=0
ok()  { n=$((n + 1)); echo "ok $n - $*"; }
bad() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

if out=$("$meson" install --destdir "$destdir" --no-rebuild --quiet -C "$build_root" 2>&1); then
  ok "meson install --destdir"
else
  bad "meson install --destdir"
  printf '%s\n' "$out" | sed 's/^/# /'
  echo "1..$n"
  exit 1
fi

schemas=$destdir$datadir/glib-2.0/schemas
if out=$("$compile_schemas" --strict "$schemas" 2>&1) && [ -f "$schemas/gschemas.compiled" ]; then
  ok "glib-compile-schemas on the installed schemas"
else
  bad "glib-compile-schemas on the installed schemas"
  printf '%s\n' "$out" | sed 's/^/# /'
fi

# The installed programs (run without a display: --version exits before GTK starts)
for prog in flexion flexion-cli; do
  exe=$destdir$bindir/$prog
  if [ ! -x "$exe" ]; then
    bad "$prog is installed in $bindir"
    continue
  fi
  out=$(env FLEXION_INSTALLED=1 GSETTINGS_SCHEMA_DIR="$schemas" GSETTINGS_BACKEND=memory \
            "$exe" --version 2>&1)
  status=$?
  if [ $status -eq 0 ] && [ "$out" = "$prog $version" ]; then
    ok "installed $prog --version prints $version"
  else
    bad "installed $prog --version prints $version (exit $status, printed '$out')"
  fi
done

for f in \
  "$datadir/applications/$app_id.desktop" \
  "$datadir/metainfo/$app_id.metainfo.xml" \
  "$datadir/icons/hicolor/scalable/apps/$app_id.svg" \
  "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" \
  "$datadir/glib-2.0/schemas/$app_id.gschema.xml" \
  "$datadir/mime/packages/$app_id.mime.xml" \
  "$pkgdatadir/examples/four-bar.flexion" \
  "$pkgdatadir/flexion.schema.json" \
  "$pkgdatadir/help/index.html" \
  "$datadir/help/C/flexion/index.page" \
  "$datadir/help/C/flexion/getting-started.page" \
  "$localedir/de/LC_MESSAGES/flexion.mo" \
  "$localedir/fr/LC_MESSAGES/flexion.mo"
do
  if [ -s "$destdir$f" ]; then ok "installed $f"; else bad "installed $f"; fi
done

# The installed catalogues translate (gettext(1) looks in TEXTDOMAINDIR)
if command -v gettext >/dev/null 2>&1; then
  for t in "de:Version ausgeben und beenden" "fr:Afficher la version et quitter"; do
    lang=${t%%:*} want=${t#*:}
    got=$(env -u LC_ALL LANG=C.UTF-8 LANGUAGE=$lang TEXTDOMAINDIR="$destdir$localedir" \
              gettext -d flexion "Print the version and exit")
    if [ "$got" = "$want" ]; then
      ok "installed $lang catalogue translates"
    else
      bad "installed $lang catalogue translates ('$got', expected '$want')"
    fi
  done
fi

# The merged desktop entry carries the translations
desktop=$destdir$datadir/applications/$app_id.desktop
for lang in de fr; do
  if grep -q "^Comment\[$lang\]=" "$desktop" 2>/dev/null; then
    ok "desktop entry has Comment[$lang]"
  else
    bad "desktop entry has Comment[$lang]"
  fi
done

echo "1..$n"
[ $failed -eq 0 ]
