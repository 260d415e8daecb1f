#!/usr/bin/env bash
# TAP tests: every writer of flexion-cli against what is not a regular file
# and against a file-size limit (issue 25, items 1 and 2).
#   - a FIFO and a character device (mknod, as root only) in the temporary
#     folder: written in place, never replaced by a regular file; a copy of
#     /dev/full (device 1,7) fails with exit 4 instead of "succeeding";
#   - `ulimit -f`: exit 4 with a message naming the target, no temporaries,
#     the old target kept (SIGXFSZ is ignored, EFBIG is a full disk).
# Everything stays inside a temporary folder.
#   test-cli-outputs.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-outputs.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-outputs.sh FLEXION_CLI SOURCE_ROOT}
model=$root/data/examples/four-bar.flexion

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-outputs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap.sh"

has_cairo=0
if build_draws "$model"; then has_cairo=1; fi
rm -f "$tmp/cairo-probe.csv"

# a model of 60 steps, and a partial of it to merge
python3 - "$model" "$tmp/short.flexion" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["time"]["end"] = 60 * m["time"]["dt"]
json.dump(m, open(sys.argv[2], "w"))
PY
m=$tmp/short.flexion
"$cli" ensemble "$m" --samples 2 --part 1/1 --partial "$tmp/whole.part" --keep 1 \
  >/dev/null 2>"$tmp/whole.err" || { echo "Bail out! cannot make a partial"; diag "$tmp/whole.err"; exit 1; }

# The writers: a name, then flexion-cli's arguments with @OUT@ for the output
# under test (an extension after it is part of the target's name).
writers=(
  "run-energy|run $m --energy @OUT@"
  "run-trace|run $m --trace @OUT@"
  "run-probes|run $m --probes @OUT@"
  "modes-csv|modes $m --count 2 --csv @OUT@"
  "modes-shapes|modes $m --count 2 --shapes @OUT@"
  "ensemble-stats|ensemble $m --samples 2 --stats @OUT@"
  "ensemble-paths|ensemble $m --samples 2 --paths @OUT@ --keep 1"
  "ensemble-partial|ensemble $m --samples 2 --part 1/1 --partial @OUT@"
  "merge-stats|ensemble-merge $tmp/whole.part --stats @OUT@"
  "merge-paths|ensemble-merge $tmp/whole.part --paths @OUT@"
)
if (( has_cairo )); then
  writers+=(
    "export-csv|export $m --csv @OUT@"
    "export-probes|export $m --probes-csv @OUT@"
    "export-plot|export $m --plot energy=@OUT@.svg"
    "export-picture|export $m --picture @OUT@.png --size 64x48"
    "export-gif|export $m --animation @OUT@.gif --size 64x48 --fps 10"
    "modes-gif|modes $m --count 1 --animation @OUT@.gif"
  )
fi

# target_of SPEC BASE: the file the writer writes for BASE
target_of () {
  if [[ $1 =~ @OUT@(\.[a-z]+) ]]; then echo "$2${BASH_REMATCH[1]}"; else echo "$2"; fi
}

# run_writer SPEC BASE [ULIMIT]: the writer with BASE for @OUT@; status in $rc
run_writer () {
  local spec=${1#*|} args
  read -r -a args <<<"${spec//@OUT@/$2}"
  rc=0
  if [[ -n ${3:-} ]]; then
    ( ulimit -f "$3"; exec "$cli" "${args[@]}" ) >"$tmp/w.out" 2>"$tmp/w.err" </dev/null || rc=$?
  else
    "$cli" "${args[@]}" >"$tmp/w.out" 2>"$tmp/w.err" </dev/null || rc=$?
  fi
}

no_temporaries () {
  if ls "$tmp" | grep -q '\.part-'; then
    nok "$1" "$(ls "$tmp" | grep '\.part-')"; rm -rf "$tmp"/*.part-*
  else
    ok "$1"
  fi
}

# --- FIFOs --------------------------------------------------------------------
for w in "${writers[@]}"; do
  name=${w%%|*}
  fifo=$(target_of "$w" "$tmp/fifo-$name")
  mkfifo "$fifo"
  timeout 20 cat "$fifo" >"$tmp/fifo-$name.got" &
  reader=$!
  run_writer "$w" "$tmp/fifo-$name"
  # a writer that never opened the FIFO leaves the reader waiting: release it
  if kill -0 "$reader" 2>/dev/null; then timeout 2 bash -c ": >'$fifo'" 2>/dev/null; fi
  wait "$reader"
  if [[ -p $fifo ]] && (( rc == 0 )) && [[ -s $tmp/fifo-$name.got ]]; then
    ok "$name writes into a FIFO and leaves it a FIFO"
  else
    nok "$name writes into a FIFO and leaves it a FIFO" "exit $rc; a FIFO still: $([[ -p $fifo ]] && echo yes || echo no); bytes read: $(wc -c <"$tmp/fifo-$name.got")"
    diag "$tmp/w.err"
  fi
  no_temporaries "$name leaves no temporary beside a FIFO"
done

# --- character devices ------------------------------------------------------------
if (( $(id -u) != 0 )) || ! mknod "$tmp/probe-null" c 1 3 2>/dev/null; then
  skip "writers against a character device" "mknod needs root"
else
  rm -f "$tmp/probe-null"
  for w in "${writers[@]}"; do
    name=${w%%|*}
    null=$(target_of "$w" "$tmp/null-$name")
    full=$(target_of "$w" "$tmp/full-$name")
    mknod "$null" c 1 3
    mknod "$full" c 1 7
    run_writer "$w" "$tmp/null-$name"
    if [[ -c $null ]] && (( rc == 0 )); then
      ok "$name writes into a copy of /dev/null and leaves it a device"
    else
      nok "$name writes into a copy of /dev/null and leaves it a device" "exit $rc; a device still: $([[ -c $null ]] && echo yes || echo no)"
      diag "$tmp/w.err"
    fi
    run_writer "$w" "$tmp/full-$name"
    if [[ -c $full ]] && (( rc == 4 )) && grep -q "full-$name" "$tmp/w.err"; then
      ok "$name into a copy of /dev/full exits 4 naming it, the device kept"
    else
      nok "$name into a copy of /dev/full exits 4 naming it, the device kept" "exit $rc; a device still: $([[ -c $full ]] && echo yes || echo no)"
      diag "$tmp/w.err"
    fi
    no_temporaries "$name leaves no temporary beside a device"
  done
fi

# --- a file-size limit (ulimit -f 1: 1024 bytes in bash) ---------------------------
for w in "${writers[@]}"; do
  name=${w%%|*}
  [[ $name == modes-csv || $name == merge-paths ]] && continue  # under 1 KB whatever the limit
  target=$(target_of "$w" "$tmp/limit-$name")
  printf 'old\n' >"$target"
  run_writer "$w" "$tmp/limit-$name" 1
  if (( rc == 4 )) && grep -q "limit-$name" "$tmp/w.err" && [[ $(cat "$target") == old ]]; then
    ok "$name under ulimit -f 1 exits 4 naming the target, which stays as it was"
  else
    nok "$name under ulimit -f 1 exits 4 naming the target, which stays as it was" "exit $rc; target: $(head -c 40 "$target")"
    diag "$tmp/w.err"
  fi
  if grep -q '\.part-' "$tmp/w.err"; then nok "$name names the target, not its temporary"; diag "$tmp/w.err"; else ok "$name names the target, not its temporary"; fi
  no_temporaries "$name leaves no temporary under ulimit -f"
done

echo "1..$n"
(( failures == 0 ))
