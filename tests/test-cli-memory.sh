#!/usr/bin/env bash
# TAP tests: --max-memory counts every large allocation (issue 25, item 5):
# the system's arrays, the Newton matrix beside them, the dense modes'
# matrices, each ensemble worker's system. A small limit refuses a big
# generated model at once (exit 2, as every refusal of a model, with the
# size it needs and the limit); the default limit passes the examples.
# Every output stays inside a temporary folder.
#   test-cli-memory.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-memory.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-memory.sh FLEXION_CLI SOURCE_ROOT}
examples=$root/data/examples

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-memory.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap.sh"

# link NAME ELEMENTS [noise]: a clamped link, with a white-noise load for ensembles
link () {
  python3 - "$tmp/$1.flexion" "$2" "${3:-}" <<'PY'
import json, sys
sec = {"rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10}
m = {"format": "flexion-model", "version": 1, "time": {"dt": 0.01, "end": 0.03},
     "joints": [{"id": "A", "at": [0, 0], "support": "clamp"}, {"id": "B", "at": [1, 0]}],
     "links": [{"id": "L", "from": "A", "to": "B", "elements": int(sys.argv[2]), "section": sec}]}
if sys.argv[3]:
    m["loads"] = [{"joint": "B", "force": [0, 1], "profile": {"type": "white", "sigma": 1}}]
json.dump(m, open(sys.argv[1], "w"))
PY
}

# refused NAME DESCRIPTION PATTERN ARGS...: exit 2 within 10 s of CPU, the message matching
# (GLib writes sizes with a no-break space: "52.4\u00a0MB")
refused () {
  local name=$1 what=$2 pattern=$3; shift 3
  rc=0
  ( ulimit -t 10; exec "$cli" "$@" ) >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?
  expect_status "$name" 2 "$what exits 2"
  if grep -Eq "$pattern" "$tmp/$name.err"; then ok "$what: the message says what needs how much"
  else nok "$what: the message says what needs how much"; diag "$tmp/$name.err"; fi
}

link big 1000000
link big-noise 1000000 noise
link long 20000
link mid 300
link worker 10000 noise

# --- a small limit refuses at once ----------------------------------------------------
need='would need [0-9.]+[^a-zA-Z0-9]*[kMG]?B, more than the limit of 52.4[^a-zA-Z]*MB'
refused run-big "run of a 10^6-element link under 50M" "model's elements $need" \
  run "$tmp/big.flexion" --max-memory 50M
refused modes-big "modes of a 10^6-element link under 50M" "model's elements $need" \
  modes "$tmp/big.flexion" --max-memory 50M
refused ensemble-big "ensemble of a 10^6-element link under 50M" "model's elements $need" \
  ensemble "$tmp/big-noise.flexion" --samples 2 --stats "$tmp/s.csv" --max-memory 50M
if [[ ! -e $tmp/s.csv ]]; then ok "the refused ensemble writes no statistics"
else nok "the refused ensemble writes no statistics"; fi

# the Newton matrix gets what the system's arrays leave of the limit
refused run-matrix "run of a 20,000-element link under 40M (the matrix beside the system)" \
  'Newton matrix .* would need [0-9.]+[^a-zA-Z0-9]*[kMG]?B, more than the [0-9.]+[^a-zA-Z0-9]*[kMG]?B that the limit of 41.9[^a-zA-Z]*MB leaves beside the [0-9.]+[^a-zA-Z]*MB in use' \
  run "$tmp/long.flexion" --max-memory 40M
# the dense modes' matrices (1806 unknowns: about 157 MB) count
refused modes-dense "modes of a 300-element link under 100M (the dense matrices)" \
  'dense modes of [0-9]+ unknowns would need [0-9.]+[^a-zA-Z]*MB, more than' \
  modes "$tmp/mid.flexion" --max-memory 100M
run_cli modes-dense-default modes "$tmp/mid.flexion" --count 2
expect_status modes-dense-default 0 "the same modes under the default limit exit 0"

# each ensemble worker books its own system: a limit that holds one runs one
# worker instead of failing the second's samples
run_cli worker ensemble "$tmp/worker.flexion" --samples 4 --threads 2 --stats "$tmp/w.csv" \
  --max-memory 30M
expect_status worker 0 "an ensemble whose limit holds one worker of two exits 0"
if grep -q '(0 failed)' "$tmp/worker.out"; then ok "... with no failed sample"
else nok "... with no failed sample"; diag "$tmp/worker.out" "$tmp/worker.err"; fi

# --- the default limit passes the examples ----------------------------------------
bad=""
for f in "$examples"/*.flexion; do
  "$cli" check "$f" >/dev/null 2>"$tmp/check.err" || bad="$bad $(basename "$f")"
done
if [[ -z $bad ]]; then ok "check passes every example under the default limit"
else nok "check passes every example under the default limit" "refused:$bad"; fi
bad=""
for f in four-bar cantilever triangle-truss plate-linkage; do
  "$cli" modes "$examples/$f.flexion" --count 3 >/dev/null 2>"$tmp/modes.err" || bad="$bad $f"
done
if [[ -z $bad ]]; then ok "modes pass the examples under the default limit"
else nok "modes pass the examples under the default limit" "refused:$bad"; fi
run_cli ensemble-example ensemble "$examples/stochastic-spaghetti.flexion" --samples 2 \
  --stats "$tmp/e.csv"
expect_status ensemble-example 0 "an ensemble of the stochastic spaghetti passes under the default limit"

echo "1..$n"
(( failures == 0 ))
