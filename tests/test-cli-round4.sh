#!/usr/bin/env bash
# TAP tests of issue 31 ("nothing silently wrong, round four") on the
# command line: signals while a FIFO target waits for its reader, during
# `modes --animation` and during `ensemble`; the forms --max-memory takes;
# frozen floating-frame links; a point load at s = 1e-300; the energy CSV's
# residual on substepped steps; `modes --count 1000000` on a big link. The
# models are generated in the test's temporary folder.
#   test-cli-round4.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-round4.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-round4.sh FLEXION_CLI SOURCE_ROOT}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-round4.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap.sh"

cantilever=$root/data/examples/cantilever.flexion
noisy=$root/data/examples/stochastic-spaghetti.flexion

# --- item 7: a signal while opening a FIFO target ---------------------------
# the open blocks until a reader comes; SIGTERM there gave exit 4
# "Interrupted system call"
mkfifo "$tmp/fifo"
fifo_case () {
  local name=$1; shift
  rc=0
  timeout 30 "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null &
  local pid=$!
  sleep 1.5
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" || rc=$?
  if (( rc == 143 )) && grep -q "interrupted by signal 15" "$tmp/$name.err"; then
    ok "$name: SIGTERM while the FIFO waits for a reader exits 143"
  else
    nok "$name: SIGTERM while the FIFO waits for a reader exits 143" "exit $rc"; diag "$tmp/$name.err"
  fi
}
fifo_case run-fifo run "$cantilever" --until 0.01 --energy "$tmp/fifo"
fifo_case modes-fifo modes "$cantilever" --csv "$tmp/fifo"
fifo_case ensemble-fifo ensemble "$noisy" --samples 1 --stats "$tmp/fifo"
if build_draws "$cantilever"; then
  fifo_case export-fifo export "$cantilever" --until 0.01 --csv "$tmp/fifo"
fi

# --- item 5: SIGTERM during modes --animation and during ensemble -------------
python3 - "$tmp/long.flexion" <<'PY'
import json, sys
sec = {"rhoA": 1, "rhoI": 1e-4, "EA": 1e6, "GA": 1e6, "EI": 10}
json.dump({"format": "flexion-model", "version": 1, "gravity": [0, 0], "time": {"dt": 0.001, "end": 1},
           "joints": [{"id": "A", "at": [0, 0], "support": "clamp"}, {"id": "B", "at": [1, 0]}],
           "links": [{"id": "L", "from": "A", "to": "B", "elements": 3000, "section": sec}]},
          open(sys.argv[1], "w"))
PY
if build_draws "$cantilever"; then
  bad=()
  for delay in 0.3 0.7 1.1 1.5 1.9; do
    rm -rf "$tmp/anim"; mkdir "$tmp/anim"
    rc=0
    "$cli" modes "$tmp/long.flexion" --animation "$tmp/anim/out.gif" >"$tmp/anim.out" 2>"$tmp/anim.err" </dev/null &
    pid=$!
    sleep "$delay"
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    left=$(find "$tmp/anim" -name '*.part-*' | wc -l)
    (( left == 0 )) || bad+=("killed at $delay s: $left temporaries left")
    if (( rc == 143 )); then
      grep -q "interrupted by signal 15" "$tmp/anim.err" || bad+=("killed at $delay s: exit 143 without a word")
      [[ ! -e $tmp/anim/out.gif ]] || bad+=("killed at $delay s: an animation written")
    elif (( rc != 0 )); then
      bad+=("killed at $delay s: exit $rc")
    fi
  done
  if (( ${#bad[@]} == 0 )); then
    ok "SIGTERM during modes --animation: exit 143 with a message, no temporary left"
  else
    nok "SIGTERM during modes --animation: exit 143 with a message, no temporary left" "${bad[@]}"
  fi
fi
rc=0
"$cli" ensemble "$noisy" --samples 400 --threads 2 --stats "$tmp/ens.csv" --partial "$tmp/ens.bin" \
  >"$tmp/ens.out" 2>"$tmp/ens.err" </dev/null &
pid=$!
sleep 1.5
t0=$(date +%s%N)
kill -TERM "$pid"
wait "$pid" || rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if (( rc == 143 )) && grep -q "interrupted by signal 15" "$tmp/ens.err" && [[ ! -e $tmp/ens.csv && ! -e $tmp/ens.bin ]] \
   && [[ -z $(find "$tmp" -maxdepth 1 -name 'ens.*.part-*') ]]; then
  ok "SIGTERM during ensemble: exit 143, nothing written (stopped in $ms ms)"
else
  nok "SIGTERM during ensemble: exit 143, nothing written" "exit $rc after $ms ms"; diag "$tmp/ens.err"
fi

# --- item 9: --max-memory takes its documented forms only --------------------
bad=()
for size in 0x10 1e3 1GB 512MB " 2G" 1.5; do
  run_cli mm run "$cantilever" --until 0.002 --max-memory "$size"
  (( rc == 1 )) && grep -q "max-memory wants" "$tmp/mm.err" || bad+=("--max-memory '$size': exit $rc")
done
for size in 1G 1.5g 800000K 2000000000; do
  run_cli mm run "$cantilever" --until 0.002 --max-memory "$size"
  (( rc == 0 )) || bad+=("--max-memory '$size' refused: exit $rc")
done
if (( ${#bad[@]} == 0 )); then
  ok "--max-memory: bytes or a number with K/M/G/T; 0x10, 1e3, 1GB refused (exit 1)"
else
  nok "--max-memory: bytes or a number with K/M/G/T; 0x10, 1e3, 1GB refused (exit 1)" "${bad[@]}"
fi
echo "1..$n"
(( failures == 0 ))
