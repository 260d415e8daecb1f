#!/usr/bin/env bash
# shots.sh NAME LANG SIZE MODEL STEP...: one screenshot of the app in a state,
# saved as $SHOTS_DIR/NAME-LANG-SIZE.png (LANG en or de, SIZE 1254x800 or
# 1920x1080), under its own Xvfb screen of that size, GSK_RENDERER=cairo.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
name=$1 lang=$2 size=$3 model=$4; shift 4
out=${SHOTS_DIR:-/work/notes/shots}/$name-$lang-$size.png
w=${size%x*} h=${size#*x}
export GSK_RENDERER=cairo NO_AT_BRIDGE=1 GSETTINGS_SCHEMA_DIR=$build/data
if [[ $lang == de ]]; then export LANG=C.UTF-8 LANGUAGE=de; else export LANG=C.UTF-8 LANGUAGE=en; fi
xvfb-run -a -s "-screen 0 ${size}x24" "$build/tools/shots/flexion-shots" "$model" "$w" "$h" "$@" "shot:$out" \
  2>&1 | grep -v "session bus\|dbus" || true
echo "$out"
