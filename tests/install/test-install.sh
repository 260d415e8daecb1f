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
libdir=${9:-} includedir=${10:-} python=${11:-} cc=${12:-cc}
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

# libflexion-1: the library, its headers, pkg-config file and typelib; a C
# program builds against the installed files and Python loads them
if [ -n "$libdir" ]; then
  for f in "$libdir/libflexion-1.so.0" "$libdir/pkgconfig/flexion-1.pc" \
           "$libdir/girepository-1.0/Flexion-1.0.typelib" "$datadir/gir-1.0/Flexion-1.0.gir" \
           "$includedir/flexion-1/flexion.h" "$includedir/flexion-1/flexion-enum-types.h"
  do
    if [ -s "$destdir$f" ]; then ok "installed $f"; else bad "installed $f"; fi
  done
  prog=$destdir/use-libflexion
  printf '%s\n' '#include <flexion.h>' \
    'int main (int argc, char **argv) {' \
    '  g_autoptr (GError) error = NULL;' \
    '  g_autoptr (FlexionModel) m = flexion_model_new_from_file (argv[1], &error);' \
    '  g_autoptr (FlexionSimulation) s = m ? flexion_simulation_new (m, NULL, &error) : NULL;' \
    '  if (s == NULL || !flexion_simulation_run_until (s, 0.01, NULL, &error)) return 1;' \
    '  g_print ("%g\n", flexion_simulation_get_time (s));' \
    '  return 0; }' > "$prog.c"
  # the installed .pc with its prefix moved into the DESTDIR (a
  # --define-variable would move glib's too)
  mkdir -p "$destdir/pc"
  pc_prefix=$(PKG_CONFIG_PATH=$destdir$libdir/pkgconfig pkg-config --variable=prefix flexion-1)
  sed "s|^prefix=.*|prefix=$destdir$pc_prefix|" "$destdir$libdir/pkgconfig/flexion-1.pc" \
    > "$destdir/pc/flexion-1.pc"
  flags=$(PKG_CONFIG_PATH=$destdir/pc pkg-config --cflags --libs flexion-1 2>&1)
  if "$cc" -o "$prog" "$prog.c" $flags 2>"$prog.log" \
     && out=$(LD_LIBRARY_PATH=$destdir$libdir "$prog" "$destdir$pkgdatadir/examples/cantilever.flexion") \
     && [ "$out" = 0.01 ]; then
    ok "a C program builds with pkg-config flexion-1 and runs"
  else
    bad "a C program builds with pkg-config flexion-1 and runs"
    sed 's/^/# /' "$prog.log"
  fi
  if [ -n "$python" ] && out=$(GI_TYPELIB_PATH=$destdir$libdir/girepository-1.0 \
       LD_LIBRARY_PATH=$destdir$libdir "$python" -c '
import gi, sys
gi.require_version("Flexion", "1.0")
from gi.repository import Flexion
print(Flexion.Model.new_from_file(sys.argv[1]).list_links())' \
       "$destdir$pkgdatadir/examples/cantilever.flexion" 2>&1) && [ "$out" = "['beam']" ]; then
    ok "Python imports the installed Flexion-1.0"
  else
    bad "Python imports the installed Flexion-1.0 ($out)"
  fi
fi

echo "1..$n"
[ $failed -eq 0 ]
