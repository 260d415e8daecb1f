#!/usr/bin/env bash
# TAP tests of flexion-cli: command line, CSV outputs, exit statuses.
#   test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]
set -uo pipefail

cli=${1:?usage: test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]}
root=${2:?usage: test-cli.sh FLEXION_CLI SOURCE_ROOT [VERSION]}
version=${3:-0.1.0}
spaghetti=$root/data/examples/flying-spaghetti.flexion
energy_header='t,H,kinetic,elastic,gravity,supplied,dissipated,balance,newton_iters,factorisations,residual,joint_gap,substeps'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
nok ()  { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
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
# the example: 15 s at 0.05 s, 20 elements of degree 2 (41 drawn points)
expect_rows "$tmp/energy.csv" 301 "energy CSV has 301 rows (t = 0 and 300 steps)"
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
expect_rows "$tmp/trace.csv" $(( (300 / 10 + 1) * 41 )) "trace CSV with --every 10 has 31 times x 41 points"
expect_header "$tmp/probes.csv" "t,tip.x,tip.y,tip.vx,tip.vy,tip.angle,tip.N,tip.V,tip.M" "probes CSV header"

# --- probe values and support reactions ---------------------------------------------
# A rigid pendulum hanging at rest from a pin, a clamped stub and a guided one:
# the pin carries the weight (2 kg m^-1 x 1 m + 0.5 kg) g at every step.
cat >"$tmp/hanging.flexion" <<'JSON'
{ "format": "flexion-model", "version": 1, "time": { "dt": 0.01, "end": 0.05 },
  "joints": [ { "id": "O", "at": [0, 0], "support": "pin" }, { "id": "T", "at": [0, -1], "mass": 0.5 },
              { "id": "C", "at": [2, 0], "support": "clamp" }, { "id": "D", "at": [3, 0] },
              { "id": "G", "at": [5, 0], "support": "guided" }, { "id": "H", "at": [5, -1], "support": "pin" } ],
  "links": [ { "id": "rod", "from": "O", "to": "T", "elements": 4, "rigid": true,
      "section": { "rhoA": 2, "rhoI": 1e-3, "EA": 1e9, "GA": 1e9, "EI": 1e6 } },
    { "id": "stub", "from": "C", "to": "D", "elements": 2,
      "section": { "rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10 } },
    { "id": "post", "from": "G", "to": "H", "elements": 2,
      "section": { "rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10 } } ],
  "probes": [ { "id": "mid", "link": "rod", "s": 0.5 } ] }
JSON
run_cli hanging run "$tmp/hanging.flexion" --probes "$tmp/h-probes.csv" --reactions "$tmp/h-reactions.csv"
expect_status hanging 0 "run --reactions exits 0"
expect_header "$tmp/h-reactions.csv" "t,O.fx,O.fy,C.fx,C.fy,C.m,G.m,H.fx,H.fy" \
  "reactions CSV header: force columns at pins and clamps, a moment where rotation is held"
expect_rows "$tmp/h-reactions.csv" 6 "reactions CSV has a row at t = 0 and per step"
msg=$(awk -F, 'NR > 2 {
    w = (2 * 1 + 0.5) * 9.81
    if ($3 - w > 1e-9 * w || w - $3 > 1e-9 * w || $2 > 1e-9 || -$2 > 1e-9) { print "row " NR ": " $0; bad = 1 }
  } END { exit bad }' "$tmp/h-reactions.csv")
if (( $? == 0 )); then ok "the pin carries the hanging weight on every step"; else nok "the pin carries the hanging weight on every step" "$msg"; fi
# the rod's middle hangs still, in tension: the weight below it, (2 x 0.5 + 0.5) g
msg=$(awk -F, 'END {
    if ($4 > 1e-12 || -$4 > 1e-12 || $5 > 1e-12 || -$5 > 1e-12) print "velocity " $4 ", " $5
    if ($6 + 1.5707963267948966 > 1e-12 || -1.5707963267948966 - $6 > 1e-12) print "angle " $6
    if ($7 < 1.4 * 9.81 || $7 > 1.6 * 9.81) print "N " $7
  }' "$tmp/h-probes.csv")
if [[ -z $msg ]]; then ok "the probe reads rest, the rod pointing down, the tension below it"; else nok "the probe reads rest, the rod pointing down, the tension below it" "$msg"; fi

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
# whether this build draws (export refuses at once without cairo); every
# output of this script stays inside $tmp, never /dev/null (CI runs as root)
has_cairo=1
if grep -q 'cannot draw' <("$cli" export "$spaghetti" --csv "$tmp/cairo-probe.csv" 2>&1); then has_cairo=0; fi
if [[ $has_cairo == 0 ]]; then
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
  if (( rows == 502 )); then  # header, t = 0 and 500 steps of 0.002 s
    ok "export --csv has one row per step"
  else
    nok "export --csv has one row per step" "got $rows lines"
  fi
  expect_header "$tmp/fb.csv" "$energy_header" "export --csv has the header of run --energy"
  run_cli export-bad-plot export "$fourbar" --plot stress=x.png
  expect_status export-bad-plot 1 "an unknown plot kind exits 1"
  run_cli export-bad-ext export "$fourbar" --until 0.1 --picture "$tmp/fb.bmp"
  expect_status export-bad-ext 4 "a picture with an unknown extension exits 4"
  # the N, V, M diagrams (issue 30): a picture with one, and a wrong name refused
  run_cli export-diagram export "$root/data/examples/simply-supported.flexion" --until 1 --diagram M \
    --picture "$tmp/ss-m.svg"
  expect_status export-diagram 0 "export --diagram M writes a picture"
  if [[ -s $tmp/ss-m.svg ]] && grep -q '<svg' "$tmp/ss-m.svg"; then ok "the diagram picture is an SVG"; else
    nok "the diagram picture is an SVG"; fi
  run_cli export-bad-diagram export "$fourbar" --diagram moment --picture "$tmp/x.png"
  expect_status export-bad-diagram 1 "an unknown diagram exits 1"
  if grep -q 'N, V, M or none' "$tmp/export-bad-diagram.err"; then ok "the refusal names the choices"; else
    nok "the refusal names the choices"; diag "$tmp/export-bad-diagram.err"; fi
  if ls "$tmp" | grep -q '\.part-'; then
    nok "no partial files are left behind" "$(ls "$tmp")"
  else
    ok "no partial files are left behind"
  fi
fi

# --- command-line values are checked like file values (issue 14) --------------------
# Each would run forever or hang without the checks: `timeout` turns a hang into 124.
run_timed () {
  local name=$1; shift
  rc=0
  timeout 20 "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?
}
fourbar=$root/data/examples/four-bar.flexion
for args in "--until nan" "--until inf" "--until 1e300" "--dt 1e-300" "--dt nan" "--dt -1" "--until 0"; do
  read -r opt val <<<"$args"
  run_timed "bad-run$opt$val" run "$fourbar" "$opt" "$val"
  expect_status "bad-run$opt$val" 1 "run $args exits 1 at once"
  run_timed "bad-export$opt$val" export "$fourbar" "$opt" "$val" --csv "$tmp/never.csv"
  expect_status "bad-export$opt$val" 1 "export $args exits 1 at once"
done
run_timed bad-memory run "$fourbar" --max-memory lots
expect_status bad-memory 1 "--max-memory lots exits 1"

# --- model files are regular files of at most 64 MB -------------------------------
mkfifo "$tmp/fifo.flexion"
run_timed fifo check "$tmp/fifo.flexion"
expect_status fifo 2 "check on a FIFO exits 2 at once (it used to block)"
run_timed devzero check /dev/zero
expect_status devzero 2 "check on /dev/zero exits 2 at once"
truncate -s 65M "$tmp/huge.flexion"
run_timed huge check "$tmp/huge.flexion"
expect_status huge 2 "check on a 65 MB file exits 2"
if grep -q 'limited to 64 MB' "$tmp/huge.err"; then ok "the size limit is named"; else nok "the size limit is named" "$(cat "$tmp/huge.err")"; fi

# --- memory: refused with the size, not aborted in g_malloc -----------------------
sed 's/"elements": 8/"elements": 10000/g' "$root/data/examples/triangle-truss.flexion" >"$tmp/truss10k.flexion"
for cmd in run check; do
  run_timed "truss-$cmd" $cmd "$tmp/truss10k.flexion" --max-memory 4M
  expect_status "truss-$cmd" 2 "$cmd of a truss with 10,000 elements per link over --max-memory 4M exits 2"
done
run_timed truss-export export "$tmp/truss10k.flexion" --max-memory 4M --csv "$tmp/truss.csv"
expect_status truss-export 2 "export of the same truss exits 2"
if grep -Eq 'would need [0-9.]+[^a-z]*B.*more than the limit of 4.2[^a-z]*MB: use fewer elements' "$tmp/truss-run.err"; then
  ok "the memory message names the size and what to reduce"
else
  nok "the memory message names the size and what to reduce" "$(cat "$tmp/truss-run.err")"
fi
# found by fuzz-loader: 2,000,000 elements took 45 s (and gigabytes) to record
# the matrix's pattern before its size was checked; now refused at once
cp "$root/tests/fuzz/regressions/two-million-elements.flexion" "$tmp/2m.flexion"
run_timed two-million check "$tmp/2m.flexion" --max-memory 64M
expect_status two-million 2 "check of 2,000,000 elements over --max-memory 64M exits 2"
run_timed export-long export "$fourbar" --dt 1e-6 --until 100 --csv "$tmp/long.csv" --max-memory 1G
expect_status export-long 2 "an export whose record of 1e8 steps passes --max-memory exits 2"
# 1,000 links meeting at one hub (the bandwidth spans them all)
python3 - "$tmp/hub.flexion" <<'PY'
import json, math, sys
n = 1000
joints = [{"id": "hub", "at": [0, 0], "kind": "weld", "mass": 1, "inertia": 1}]
links = []
for i in range(n):
    a = 2 * math.pi * i / n
    joints.append({"id": f"r{i}", "at": [math.cos(a), math.sin(a)], "support": "clamp"})
    links.append({"id": f"s{i}", "from": "hub", "to": f"r{i}", "elements": 4,
                  "section": {"rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10}})
json.dump({"format": "flexion-model", "version": 1, "joints": joints, "links": links,
           "time": {"dt": 0.001, "end": 0.001}}, open(sys.argv[1], "w"))
PY
run_timed hub run "$tmp/hub.flexion" --max-memory 1M
expect_status hub 2 "1,000 links at one hub over --max-memory 1M exit 2"

# --- check runs every test run runs, exit 2 on stderr -----------------------------
cat >"$tmp/conflict.flexion" <<'JSON'
{ "format": "flexion-model", "version": 1,
  "joints": [ { "id": "A", "at": [0, 0], "support": "clamp" }, { "id": "B", "at": [1, 0] } ],
  "links": [ { "id": "L", "from": "A", "to": "B", "elements": 4, "formulation": "clamped-clamped",
      "section": { "rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10 } } ] }
JSON
for cmd in run check; do
  run_timed "conflict-$cmd" $cmd "$tmp/conflict.flexion"
  expect_status "conflict-$cmd" 2 "$cmd of a causality conflict exits 2"
  if [[ ! -s $tmp/conflict-$cmd.out && -s $tmp/conflict-$cmd.err ]]; then
    ok "$cmd explains the conflict on stderr only"
  else
    nok "$cmd explains the conflict on stderr only" "stdout:" "$(cat "$tmp/conflict-$cmd.out")"
  fi
  # every message line (after the file's name) starts with a JSON path
  bad=$(sed -n '2,$p' "$tmp/conflict-$cmd.err" | grep -Ev '^  (  )?(\(root\)|joints\[[0-9]+\]|links\[[0-9]+\]|links): ' || true)
  if [[ -z $bad ]]; then ok "$cmd's causality lines start with a JSON path"; else nok "$cmd's causality lines start with a JSON path" "$bad"; fi
done

# --- run's outputs: temp file, renamed at the end ---------------------------------
echo "old energy" >"$tmp/keep.csv"
run_timed keep-fail run "$tmp/diverging.flexion" --energy "$tmp/keep.csv"
expect_status keep-fail 3 "a solver failure exits 3"
if [[ $(cat "$tmp/keep.csv") == "old energy" ]]; then ok "a solver failure leaves the old CSV"; else nok "a solver failure leaves the old CSV" "$(head -c 200 "$tmp/keep.csv")"; fi
run_timed unwritable run "$fourbar" --until 0.1 --energy "$tmp/no-such-dir/e.csv"
expect_status unwritable 4 "an unwritable --energy exits 4"
# a full disk: a file size limit (ulimit -f, in KiB) with SIGXFSZ ignored makes writes fail
echo "old trace" >"$tmp/full.csv"
rc=0
( ulimit -f 64; trap '' XFSZ; exec "$cli" run "$spaghetti" --trace "$tmp/full.csv" ) \
  >"$tmp/full.out" 2>"$tmp/full.err" </dev/null || rc=$?
expect_status full 4 "a full disk (ulimit -f 64) exits 4"
if [[ $(cat "$tmp/full.csv") == "old trace" ]]; then ok "a full disk leaves the old CSV"; else nok "a full disk leaves the old CSV" "$(head -c 200 "$tmp/full.csv")"; fi
if grep -q 'cannot write' "$tmp/full.err"; then ok "the full disk is named ($(head -n 1 "$tmp/full.err"))"; else nok "the full disk is named" "$(cat "$tmp/full.err")"; fi

# Ctrl+C: the old file stays, no temporary is left behind
long=$tmp/long.flexion
sed 's/"end": [0-9.]*/"end": 1000/' "$spaghetti" >"$long"
echo "old probes" >"$tmp/sig.csv"
"$cli" run "$long" --dt 0.001 --probes "$tmp/sig.csv" >"$tmp/sig.out" 2>"$tmp/sig.err" </dev/null &
pid=$!
sleep 1
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
expect_status sig 130 "SIGINT stops run with 130"
if [[ $(cat "$tmp/sig.csv") == "old probes" ]]; then ok "SIGINT leaves the old CSV"; else nok "SIGINT leaves the old CSV" "$(head -c 200 "$tmp/sig.csv")"; fi
if [[ $has_cairo == 1 ]]; then
  "$cli" export "$long" --dt 0.001 --animation "$tmp/sig.gif" --size 320x180 \
    >"$tmp/sig-export.out" 2>"$tmp/sig-export.err" </dev/null &
  pid=$!
  sleep 1
  kill -TERM "$pid"
  rc=0; wait "$pid" || rc=$?
  expect_status sig-export 143 "SIGTERM stops export with 143"
fi
if ls "$tmp" | grep -q '\.part-'; then nok "no .part- temporaries are left after the signals" "$(ls "$tmp")"; else ok "no .part- temporaries are left after the signals"; fi

# --- CSV quoting (RFC 4180) and non-ASCII ids ---------------------------------------
cat >"$tmp/quoted.flexion" <<'JSON'
{ "format": "flexion-model", "version": 1, "time": { "dt": 0.01, "end": 0.03 },
  "joints": [ { "id": "A", "at": [0, 0], "support": "pin" }, { "id": "B", "at": [1, 0], "support": "pin" } ],
  "links": [ { "id": "arm, \"left\"\nß", "from": "A", "to": "B", "elements": 2,
      "section": { "rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10 } } ],
  "probes": [ { "id": "tip, \"1\"\nx", "link": "arm, \"left\"\nß", "s": 0.5 } ] }
JSON
run_cli quoted run "$tmp/quoted.flexion" --trace "$tmp/q-trace.csv" --probes "$tmp/q-probes.csv"
expect_status quoted 0 "run with ids holding , \" and a newline exits 0"
outputs=("$tmp/q-trace.csv" "$tmp/q-probes.csv")
if [[ $has_cairo == 1 ]]; then
  run_cli quoted-export export "$tmp/quoted.flexion" --probes-csv "$tmp/q-export.csv"
  expect_status quoted-export 0 "export --probes-csv with such ids exits 0"
  outputs+=("$tmp/q-export.csv")
fi
run_cli quoted-modes modes "$tmp/quoted.flexion" --count 2 --shapes "$tmp/q-shapes.csv"
expect_status quoted-modes 0 "modes --shapes with such ids exits 0"
run_cli quoted-ensemble ensemble "$tmp/quoted.flexion" --samples 3 --stats "$tmp/q-stats.csv" \
  --paths "$tmp/q-paths.csv" --keep 2
expect_status quoted-ensemble 0 "ensemble --stats --paths with such ids exits 0"
outputs+=("$tmp/q-shapes.csv" "$tmp/q-stats.csv" "$tmp/q-paths.csv")
msg=$(python3 - "${outputs[@]}" <<'PY' 2>&1
import csv, sys
link, probe = 'arm, "left"\nß', 'tip, "1"\nx'
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    width = len(rows[0])
    assert all(len(r) == width for r in rows), f"{path}: rows of different widths"
    if "trace" in path:
        assert rows[0] == "t,link,node,x,y,theta,moment".split(","), rows[0]
        assert all(r[1] == link for r in rows[1:]), f"{path}: link id {rows[1][1]!r}"
    elif "shapes" in path:
        assert rows[0][2] == "link", rows[0]
        assert all(r[2] == link for r in rows[1:]), f"{path}: link id {rows[1][2]!r}"
    elif "stats" in path:
        assert probe + ".x.mean" in rows[0] and probe + ".y.q95" in rows[0], rows[0]
    elif "paths" in path:
        assert rows[0] == ["sample", "t"] + [probe + v for v in
                          (".x", ".y", ".vx", ".vy", ".angle", ".N", ".V", ".M")], rows[0]
    else:
        assert rows[0][1:3] in ([probe + ".x", probe + ".y"], [probe + ".x_m", probe + ".y_m"]), rows[0]
    print(f"{path.rsplit('/', 1)[1]}: {len(rows)} rows of {width}", end="; ")
PY
)
if (( $? == 0 )); then ok "a CSV reader reads the ids back whole ($msg)"; else nok "a CSV reader reads the ids back whole" "$msg"; fi
rc=0
LC_ALL=C.UTF-8 "$cli" check "$tmp/quoted.flexion" >"$tmp/utf8.out" 2>&1 || rc=$?
if grep -q 'ß' "$tmp/utf8.out"; then ok "check prints non-ASCII ids in a UTF-8 locale"; else nok "check prints non-ASCII ids in a UTF-8 locale" "$(cat "$tmp/utf8.out")"; fi

# --- floating-frame links: the spin-up example ----------------------------------------
spinup=$root/data/examples/spin-up.flexion
run_cli spinup-check check "$spinup"
expect_status spinup-check 0 "check accepts the spin-up example"
if grep -q 'floating frame, ends VV FF' "$tmp/spinup-check.out"; then ok "check names each end's causality of a floating-frame link"
else nok "check names each end's causality of a floating-frame link"; diag "$tmp/spinup-check.out"; fi
run_cli spinup run "$spinup" --until 7 --probes "$tmp/spin-probes.csv"
expect_status spinup 0 "run: the spin-up's first 7 s"
if grep -q 'link "floating" at t = .*geometric stiffening ignored' "$tmp/spinup.err"; then
  ok "run warns when geometric stiffening matters"
else nok "run warns when geometric stiffening matters"; diag "$tmp/spinup.err"; fi
if [[ $(head -n 1 "$tmp/spin-probes.csv") == *',floating.x_P,floating.y_P,floating.theta,floating.tip_deflection,floating.gamma,floating.F_from_x,floating.F_from_y,floating.M_from,floating.F_to_x,floating.F_to_y,floating.M_to' ]]; then
  ok "the probes CSV carries the floating frame's columns"
else nok "the probes CSV carries the floating frame's columns" "$(head -n 1 "$tmp/spin-probes.csv")"; fi
run_cli spinup-end run "$spinup" --energy "$tmp/spin-energy.csv"
expect_status spinup-end 3 "run: the attached blade diverges and the solver stops (exit 3)"
if grep -Eq 'solver (failed|stopped) at t = ' "$tmp/spinup-end.err"; then ok "the solver's stop names the time"
else nok "the solver's stop names the time"; diag "$tmp/spinup-end.err"; fi

echo "1..$n"
(( failures == 0 ))
