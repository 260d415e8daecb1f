#!/usr/bin/env bash
# TAP tests of flexion-cli: command line, CSV outputs, exit statuses.
#   test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]
set -uo pipefail

cli=${1:?usage: test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]}
root=${2:?usage: test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]}
version=${3:-0.1.0}
spaghetti=$root/data/examples/flying-spaghetti.flexion
energy_header='t,H,kinetic,elastic,gravity,supplied,dissipated,balance,newton_iters,residual,joint_gap,substeps'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
nok ()  { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
skip () { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag () { sed 's/^/#   /' "$@"; }

# run_cli NAME ARGS...: run flexion-cli, stdout/stderr to $tmp/NAME.out/.err, status in $rc
run_cli () {
  local name=$1; shift
  rc=0
  "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?
}

# expect_status NAME STATUS DESCRIPTION: check $rc, show the output if wrong
expect_status () {
  if (( rc == $2 )); then
    ok "$3"
  else
    local why="exit status $rc, expected $2"
    (( rc >= 128 )) && why+=" (crashed: signal $((rc - 128)))"
    nok "$3" "$why"
    echo "# stdout:"; diag "$tmp/$1.out"; echo "# stderr:"; diag "$tmp/$1.err"
  fi
}

# expect_header FILE HEADER DESCRIPTION
expect_header () {
  local got
  got=$(head -n 1 "$1" 2>/dev/null)
  if [[ $got == "$2" ]]; then ok "$3"; else nok "$3" "expected: $2" "got:      $got"; fi
}

# expect_rows FILE COUNT DESCRIPTION: data rows (after the header)
expect_rows () {
  local got=0
  [[ -f $1 ]] && got=$(( $(wc -l <"$1") - 1 ))
  if (( got == $2 )); then ok "$3"; else nok "$3" "$got data rows, expected $2"; fi
}

# --- command line -------------------------------------------------------------
run_cli version --version
expect_status version 0 "--version exits 0"
if [[ $(cat "$tmp/version.out") == "flexion-cli $version" ]]; then
  ok "--version prints 'flexion-cli $version'"
else
  nok "--version prints 'flexion-cli $version'" "got: $(head -c 200 "$tmp/version.out")"
fi

run_cli help --help
expect_status help 0 "--help exits 0"
if grep -qw run "$tmp/help.out" && grep -qw check "$tmp/help.out"; then
  ok "--help mentions run and check"
else
  nok "--help mentions run and check" "stdout was:"; diag "$tmp/help.out"
fi

run_cli unknown frobnicate
expect_status unknown 1 "an unknown command exits 1"

# --- run: the flying spaghetti ------------------------------------------------
run_cli spaghetti run "$spaghetti" --energy "$tmp/energy.csv" --trace "$tmp/trace.csv" \
  --probes "$tmp/probes.csv" --every 10
expect_status spaghetti 0 "run flying-spaghetti exits 0"

expect_header "$tmp/energy.csv" "$energy_header" "energy CSV header"
expect_rows "$tmp/energy.csv" 151 "energy CSV has 151 rows (t = 0 and 150 steps)"
# |balance| < 1e-10 max|H| on every row; every field must be a finite number
msg=$(awk -F, -v want="$energy_header" '
  NR == 1 { if ($0 != want) { print "bad header"; bad = 1; exit } next }
  {
    for (i = 1; i <= 10; i++)
      if ($i !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) {
        printf "row %d, column %d is not a finite number: %s\n", NR - 1, i, $i; bad = 1; exit
      }
    h = $2 < 0 ? -$2 : $2; if (h > maxH) maxH = h
    row[NR] = $8; rows = NR
  }
  END {
    if (bad) exit 1
    if (rows < 2) { print "no data rows"; exit 1 }
    worst = 0; at = 0
    for (r = 2; r <= rows; r++) {
      b = row[r] < 0 ? -row[r] : row[r]
      if (b >= 1e-10 * maxH) { printf "row %d: |balance| = %g >= 1e-10 * max|H| = %g\n", r - 1, b, 1e-10 * maxH; exit 1 }
      if (b > worst) worst = b
    }
    printf "max|balance| = %g, max|H| = %g\n", worst, maxH
  }' "$tmp/energy.csv" 2>&1)
if (( $? == 0 )); then ok "energy balance |balance| < 1e-10 max|H| on every row ($msg)"; else nok "energy balance |balance| < 1e-10 max|H| on every row" "$msg"; fi

expect_header "$tmp/trace.csv" "t,link,node,x,y,theta,moment" "trace CSV header"
expect_rows "$tmp/trace.csv" $(( (150 / 10 + 1) * 11 )) "trace CSV with --every 10 has 16 times x 11 nodes"
expect_header "$tmp/probes.csv" "t,tip.x,tip.y" "probes CSV header"

run_cli short run "$spaghetti" --dt 0.05 --until 1 --energy "$tmp/short.csv"
expect_status short 0 "run --dt 0.05 --until 1 exits 0"
expect_rows "$tmp/short.csv" 21 "--dt 0.05 --until 1 gives 21 energy rows"

# --- invalid models (tests/broken, with the model-io tests) ---------------------
broken_dir=$root/tests/broken
if [[ ! -d $broken_dir ]]; then
  skip "broken models exit 2" "tests/broken does not exist yet"
else
  shopt -s nullglob
  broken=("$broken_dir"/*.flexion)
  shopt -u nullglob
  if (( ${#broken[@]} == 0 )); then
    nok "broken models exit 2" "tests/broken exists but holds no *.flexion file"
  fi
  for f in "${broken[@]}"; do
    name=broken-$(basename "$f" .flexion)
    run_cli "$name" run "$f"
    expect_status "$name" 2 "run tests/broken/$(basename "$f") exits 2"
    if [[ -s $tmp/$name.err ]]; then
      ok "run tests/broken/$(basename "$f") explains on stderr"
    else
      nok "run tests/broken/$(basename "$f") explains on stderr" "stderr was empty"
    fi
  done
fi

run_cli missing-run run "$tmp/no-such-model.flexion"
expect_status missing-run 2 "run of a nonexistent file exits 2"
run_cli missing-check check "$tmp/no-such-model.flexion"
expect_status missing-check 2 "check of a nonexistent file exits 2"

# --- solver failure -------------------------------------------------------------
# A free-free noodle with almost no stiffness, thrown by 1e12 N with 10 s steps:
# Newton cannot converge even with the step halved twice.
cat >"$tmp/diverging.flexion" <<'JSON'
{
  "format": "flexion-model",
  "version": 1,
  "name": "Diverging",
  "gravity": [0, 0],
  "time": { "dt": 10, "end": 100 },
  "joints": [ { "id": "A", "at": [0, 0] }, { "id": "B", "at": [1, 0] } ],
  "links": [
    { "id": "noodle", "from": "A", "to": "B", "elements": 4, "formulation": "free-free",
      "section": { "rhoA": 1, "rhoI": 1, "EA": 1e-12, "GA": 1e-12, "EI": 1e-12 } }
  ],
  "loads": [
    { "id": "push", "joint": "B", "force": [1e12, 1e12], "moment": 1e12, "frame": "spatial" }
  ]
}
JSON
run_cli diverging run "$tmp/diverging.flexion"
expect_status diverging 3 "a diverging model exits 3"
if grep -Eq 't = [-+0-9.eE]+ s' "$tmp/diverging.err"; then
  ok "the solver failure names the time ($(head -n 1 "$tmp/diverging.err" | cut -c1-120))"
else
  nok "the solver failure names the time" "stderr was:"; diag "$tmp/diverging.err"
fi

# --- check ----------------------------------------------------------------------
run_cli check check "$spaghetti"
expect_status check 0 "check flying-spaghetti exits 0"
if grep -q 'free-free' "$tmp/check.out"; then
  ok "check flying-spaghetti prints free-free"
else
  nok "check flying-spaghetti prints free-free" "stdout was:"; diag "$tmp/check.out"
fi

# --- export -----------------------------------------------------------------------
if grep -q 'cannot draw' <("$cli" export "$spaghetti" --csv /dev/null 2>&1); then
  ok "export: # SKIP this build has no cairo"
else
  fourbar=$root/data/examples/four-bar.flexion
  run_cli export export "$fourbar" --until 1 --animation "$tmp/fb.gif" --fps 10 --size 320x180 \
    --plot energy="$tmp/energy.svg" --csv "$tmp/fb.csv" --picture "$tmp/fb.png"
  expect_status export 0 "export of the four-bar exits 0"
  if grep -q '11 frames, 320x180' "$tmp/export.out" && [[ -s $tmp/fb.gif && -s $tmp/energy.svg && -s $tmp/fb.png ]]; then
    ok "export writes the GIF (11 frames), the plot and the picture"
  else
    nok "export writes the GIF (11 frames), the plot and the picture" "stdout was:"; diag "$tmp/export.out"
  fi
  rows=$(wc -l < "$tmp/fb.csv")
  if (( rows == 52 )); then  # header, t = 0 and 50 steps of 0.02 s
    ok "export --csv has one row per step"
  else
    nok "export --csv has one row per step" "got $rows lines"
  fi
  expect_header "$tmp/fb.csv" "$energy_header" "export --csv has the header of run --energy"
  run_cli export-bad-plot export "$fourbar" --plot stress=x.png
  expect_status export-bad-plot 1 "an unknown plot kind exits 1"
  run_cli export-bad-ext export "$fourbar" --until 0.1 --picture "$tmp/fb.bmp"
  expect_status export-bad-ext 4 "a picture with an unknown extension exits 4"
  if ls "$tmp" | grep -q '\.part-'; then
    nok "no partial files are left behind" "$(ls "$tmp")"
  else
    ok "no partial files are left behind"
  fi
fi

echo "1..$n"
(( failures == 0 ))
