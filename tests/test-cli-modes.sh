#!/usr/bin/env bash
# TAP tests of "flexion-cli modes": counts, the frequency table, shapes, statuses.
#   test-cli-modes.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-modes.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-modes.sh FLEXION_CLI SOURCE_ROOT}
examples=$root/data/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-modes.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
check () {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  n=$((n + 1))
  if "$@" >"$tmp/last.out" 2>&1; then echo "ok $n - $what"
  else failures=$((failures + 1)); echo "not ok $n - $what"; sed 's/^/#   /' "$tmp/last.out"; fi
}

"$cli" modes "$examples/four-bar.flexion" --count 3 --csv "$tmp/fb.csv" --shapes "$tmp/fb-shapes.csv" \
  >"$tmp/fb.out" 2>"$tmp/fb.err"
check "modes on the four-bar exits 0" test $? -eq 0
check "the four-bar has mobility 1 and is statically determinate" \
  grep -qx ".*: mobility 1 · statically determinate" "$tmp/fb.out"
check "the frequency table's header" test "$(head -1 "$tmp/fb.csv")" = "mode,frequency_hz,kind"
check "one motion row, then 3 vibration rows" \
  test "$(cut -d, -f3 "$tmp/fb.csv" | tail -n +2 | tr '\n' ' ')" = "motion vibration vibration vibration "
check "the frequencies are finite and rising" \
  awk -F, 'NR > 2 { if ($2 !~ /^[0-9.e+-]+$/ || $2 + 0 <= prev + 0) exit 1; prev = $2 }' "$tmp/fb.csv"
check "the shapes' header" test "$(head -1 "$tmp/fb-shapes.csv")" = "mode,kind,link,node,x,y,dx,dy,moment,axial"
# 4 modes x (11 + 7 + 7) nodes
check "one shape row per node and mode" test "$(tail -n +2 "$tmp/fb-shapes.csv" | wc -l)" -eq 100

"$cli" modes "$examples/triangle-truss.flexion" --count 2 --csv "$tmp/tt.csv" >"$tmp/tt.out" 2>&1
check "the welded truss on two pins is indeterminate to degree 4" \
  grep -q "mobility 0 · indeterminate to degree 4" "$tmp/tt.out"
check "its table lists 4 self-stress states" test "$(grep -c ',self-stress$' "$tmp/tt.csv")" -eq 4

"$cli" modes >"$tmp/none.out" 2>&1
check "modes without a model exits 1" test $? -eq 1
"$cli" modes "$tmp/missing.flexion" >"$tmp/missing.out" 2>&1
check "modes on a missing file exits 2" test $? -eq 2
"$cli" modes "$examples/four-bar.flexion" --count 0 >"$tmp/zero.out" 2>&1
check "--count 0 exits 1" test $? -eq 1
"$cli" modes "$examples/four-bar.flexion" --csv "$tmp/no/such/dir.csv" >"$tmp/bad.out" 2>&1
check "an unwritable table exits 4" test $? -eq 4
"$cli" modes "$examples/triangle-truss.flexion" --count 1 --animation "$tmp/tt.gif" --mode self-stress:2 \
  >"$tmp/anim.out" 2>&1
check "--animation writes a GIF of a self-stress state" grep -q "self-stress state 2, one cycle in 48 frames" "$tmp/anim.out"
check "the GIF is a GIF" test "$(head -c 6 "$tmp/tt.gif")" = "GIF89a"
"$cli" modes "$examples/four-bar.flexion" --animation "$tmp/none.gif" --mode motion:2 >"$tmp/nomode.out" 2>&1
check "an unknown mode exits 4 and names what there is" \
  test $? -eq 4 -a -n "$(grep 'no mode "motion:2": this model has 1 motions' "$tmp/nomode.out")"
# issue 25.4: the hand-pull frame at 200 elements per link (3609 unknowns,
# iterative) once got no modes (exit 3); at 60 (dense) its first is 2.181 Hz
sed 's/"elements": [0-9]*/"elements": 200/' "$examples/hand-pull.flexion" >"$tmp/hp200.flexion"
"$cli" modes "$tmp/hp200.flexion" --count 4 >"$tmp/hp.out" 2>&1
check "the hand-pull frame at 200 elements per link gets its modes" test $? -eq 0
check "its first mode is near the dense 2.181 Hz" \
  awk '$1 == 1 && $2 > 2.17 && $2 < 2.19 { ok = 1 } END { exit !ok }' "$tmp/hp.out"
# issue 21.7: a chain of three pinned links gets a regularising mass at B;
# the vibrations that live in it are listed as regularisation, after the
# structure's own, and the first vibration is the chain's, not the mass's
cat >"$tmp/chain3.flexion" <<'JSON'
{"format": "flexion-model", "version": 1,
 "joints": [{"id": "A", "at": [0, 0], "support": "pin"}, {"id": "B", "at": [1, 0]},
            {"id": "C", "at": [2, 0]}, {"id": "D", "at": [3, 0]}],
 "links": [{"id": "a", "from": "A", "to": "B", "elements": 4,
            "section": {"EA": 1e6, "GA": 1e6, "EI": 100, "rhoA": 1, "rhoI": 0.01}},
           {"id": "b", "from": "B", "to": "C", "elements": 4,
            "section": {"EA": 1e6, "GA": 1e6, "EI": 100, "rhoA": 1, "rhoI": 0.01}},
           {"id": "c", "from": "C", "to": "D", "elements": 4,
            "section": {"EA": 1e6, "GA": 1e6, "EI": 100, "rhoA": 1, "rhoI": 0.01}}]}
JSON
"$cli" modes "$tmp/chain3.flexion" --count 40 --csv "$tmp/chain3.csv" >"$tmp/chain3.out" 2>&1
check "modes of the chain of three exit 0" test $? -eq 0
check "its regularising mass's vibrations are listed as regularisation" \
  grep -q ',regularisation$' "$tmp/chain3.csv"
check "after every vibration of the chain itself" \
  awk -F, 'NR > 1 && $3 == "regularisation" { r = 1 } NR > 1 && r && $3 == "vibration" { bad = 1 } END { exit bad || !r }' "$tmp/chain3.csv"
check "the first vibration is the chain's (below 100 Hz)" \
  awk -F, '$3 == "vibration" && $1 == 1 { exit !($2 < 100) }' "$tmp/chain3.csv"
# an animation name the exporter cannot take is a usage error, said before any work
"$cli" modes "$examples/four-bar.flexion" --animation "$tmp/a.xyz" >"$tmp/xyz.out" 2>"$tmp/xyz.err"
check "--animation a.xyz exits 1" test $? -eq 1
check "and names the extensions it takes" grep -q "wants a .gif, .webm or .mp4 file" "$tmp/xyz.err"
check "before listing any mode, writing nothing" test ! -s "$tmp/xyz.out" -a ! -e "$tmp/a.xyz"
# issue 22: floating-frame links joined to others (the spin-up's two blades on one hub)
"$cli" modes "$examples/spin-up.flexion" --count 3 --shapes "$tmp/spin-shapes.csv" \
  --mode 2 --animation "$tmp/spin.gif" >"$tmp/spin.out" 2>&1
check "modes of the spin-up exit 0" test $? -eq 0
check "its blades are held by their motors: mobility 0, determinate" \
  grep -q "mobility 0 · statically determinate" "$tmp/spin.out"
check "both blades bend first at 0.604 Hz (3.80 rad/s)" \
  awk '($1 == 1 || $1 == 2) && $2 > 0.6043 && $2 < 0.6045 { k++ } END { exit k != 2 }' "$tmp/spin.out"
check "mode 2 moves the floating-frame blade's tip" \
  awk -F, '$1 == 2 && $3 == "floating" && $4 == 10 { exit !($8 * $8 > 0.99) }' "$tmp/spin-shapes.csv"
check "and its animation is drawn" grep -q "spin.gif: mode 2 · 0.604 Hz, one cycle in 48 frames" "$tmp/spin.out"
check "as a GIF" test "$(head -c 6 "$tmp/spin.gif")" = "GIF89a"
# past the dense solver's limit, floating-frame links take the iterative path too
sed 's/"elements": 32/"elements": 400/' "$examples/spin-up.flexion" >"$tmp/spin400.flexion"
"$cli" modes "$tmp/spin400.flexion" --count 2 >"$tmp/spin400.out" 2>&1
check "a spin-up of 2454 unknowns exits 0, by iteration" \
  test $? -eq 0 -a -n "$(grep 'lowest vibrations only (2454 unknowns)' "$tmp/spin400.out")"
check "with both blades at 0.604 Hz" \
  awk '($1 == 1 || $1 == 2) && $2 > 0.6043 && $2 < 0.6045 { k++ } END { exit k != 2 }' "$tmp/spin400.out"
# issue 25.5: --count has a cap by the model and the memory limit
sed 's/"elements": [0-9]*/"elements": 400/' "$examples/cantilever.flexion" >"$tmp/c400.flexion"
timeout 120 "$cli" modes "$tmp/c400.flexion" --count 2147483647 >"$tmp/cap.out" 2>"$tmp/cap.err"
check "--count 2147483647 on an iterative model ends, exit 0" test $? -eq 0
check "and says what it capped to" grep -q "note: --count 2147483647 is more than .* at most" "$tmp/cap.err"
check "no temporary files are left behind" test -z "$(ls "$tmp" | grep -v -e '\.out$' -e '\.err$' -e '\.csv$' -e '\.gif$' -e '\.flexion$')"

echo "1..$n"
(( failures == 0 ))
