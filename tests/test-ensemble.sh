#!/usr/bin/env bash
# TAP tests of flexion-cli ensemble and ensemble-merge.
#   test-ensemble.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-ensemble.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-ensemble.sh FLEXION_CLI SOURCE_ROOT}
model=$root/data/examples/stochastic-spaghetti.flexion

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-ensemble.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap.sh"

run_cli t1 ensemble "$model" --samples 8 --threads 1 --seed 3 --stats "$tmp/t1.csv"
expect_status t1 0 "ensemble --threads 1 exits 0"
run_cli t2 ensemble "$model" --samples 8 --threads 2 --seed 3 --stats "$tmp/t2.csv" \
  --paths "$tmp/paths.csv" --keep 2
expect_status t2 0 "ensemble --threads 2 exits 0"
if cmp -s "$tmp/t1.csv" "$tmp/t2.csv"; then
  ok "--threads 1 and --threads 2 write byte-identical statistics"
else
  nok "--threads 1 and --threads 2 write byte-identical statistics"
fi
header=$(head -n 1 "$tmp/t1.csv")
want="t,H.mean,H.std,H.q05,H.q95,kinetic.mean,kinetic.std,kinetic.q05,kinetic.q95"
if [[ $header == "$want"* && $header == *",tip.y.mean,tip.y.std,tip.y.q05,tip.y.q95,tip.vx.mean,"*
      && $header == *",tip.N.mean,tip.N.std,tip.N.q05,tip.N.q95,tip.V.mean,"*
      && $header == *",tip.M.mean,tip.M.std,tip.M.q05,tip.M.q95" ]]; then
  ok "statistics header"
else
  nok "statistics header" "got: $header"
fi
rows=$(( $(wc -l <"$tmp/t1.csv") - 1 ))
if (( rows == 151 )); then ok "a row at t = 0 and per step"; else nok "a row at t = 0 and per step" "$rows rows"; fi
prows=$(( $(wc -l <"$tmp/paths.csv") - 1 ))
if [[ $(head -n 1 "$tmp/paths.csv") == "sample,t,tip.x,tip.y,tip.vx,tip.vy,tip.angle,tip.N,tip.V,tip.M" ]] && (( prows == 302 )); then
  ok "--paths keeps the probe paths of 2 samples"
else
  nok "--paths keeps the probe paths of 2 samples" "$prows rows"
fi
if grep -qi nan "$tmp/t1.csv"; then nok "no NaN written"; else ok "no NaN written"; fi

# four parts and a merge give the single run's statistics (to the last bit: below)
for k in 1 2 3 4; do
  run_cli part$k ensemble "$model" --samples 8 --seed 3 --threads 1 --part $k/4 \
    --partial "$tmp/part$k.bin"
  expect_status part$k 0 "ensemble --part $k/4 exits 0"
done
run_cli merge ensemble-merge "$tmp/part3.bin" "$tmp/part1.bin" "$tmp/part4.bin" "$tmp/part2.bin" \
  --stats "$tmp/merged.csv"
expect_status merge 0 "ensemble-merge exits 0"
if cmp -s "$tmp/t1.csv" "$tmp/merged.csv"; then
  ok "4 merged parts equal one run byte for byte"
else
  nok "4 merged parts equal one run byte for byte"
fi

run_cli merge-missing ensemble-merge "$tmp/part1.bin" "$tmp/part1.bin" --stats "$tmp/x.csv"
expect_status merge-missing 2 "merging a part twice exits 2"
run_cli merge-bad ensemble-merge "$model" --stats "$tmp/x.csv"
expect_status merge-bad 2 "merging a file that is not a partial exits 2"
run_cli bad-part ensemble "$model" --samples 8 --part 5/4 --stats "$tmp/x.csv"
expect_status bad-part 1 "--part 5/4 exits 1"
run_cli no-samples ensemble "$model" --stats "$tmp/x.csv"
expect_status no-samples 1 "ensemble without --samples exits 1"

run_cli neg-seed ensemble "$model" --samples 2 --seed -4 --stats "$tmp/x.csv"
expect_status neg-seed 1 "ensemble --seed -4 exits 1"
run_cli neg-seed-run run "$model" --until 0.2 --seed -4
expect_status neg-seed-run 1 "run --seed -4 exits 1"

# run --seed: the seed changes the path, and the model's seed is the default
run_cli seed1 run "$model" --until 1 --probes "$tmp/s1.csv"
run_cli seed2 run "$model" --until 1 --probes "$tmp/s2.csv" --seed 1
run_cli seed3 run "$model" --until 1 --probes "$tmp/s3.csv" --seed 2
if cmp -s "$tmp/s1.csv" "$tmp/s2.csv" && ! cmp -s "$tmp/s1.csv" "$tmp/s3.csv"; then
  ok "run --seed: the model's seed by default, another seed another path"
else
  nok "run --seed: the model's seed by default, another seed another path"
fi

# --- a study's bytes are a pure function of (model, seed, samples) -----------------
# 1, 2, 3 and 8 parts, made with 1 and 2 threads, merged in every order (all
# orders of 2 and 3 parts; forward, backward and shuffled for 8), give the
# single run's statistics byte for byte (issue 25: means differed in the last
# bits before the exact sums)
python3 - "$model" "$tmp/det.flexion" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["time"]["end"] = 40 * m["time"]["dt"]
json.dump(m, open(sys.argv[2], "w"))
PY
det=$tmp/det.flexion
"$cli" ensemble "$det" --samples 8 --seed 5 --threads 1 --stats "$tmp/det-one.csv" \
  --paths "$tmp/det-one-paths.csv" --keep 3 >/dev/null 2>&1
det_bad=()
for threads in 1 2; do
  for K in 1 2 3 8; do
    parts=()
    for ((k = 1; k <= K; k++)); do
      "$cli" ensemble "$det" --samples 8 --seed 5 --threads $threads --part $k/$K --keep 3 \
        --partial "$tmp/det-$threads-$k-of-$K.bin" >/dev/null 2>"$tmp/det.err" || det_bad+=("part $k/$K failed")
      parts+=("$tmp/det-$threads-$k-of-$K.bin")
    done
    orders=$(python3 - "${parts[@]}" <<'PY'
import itertools, random, sys
p = sys.argv[1:]
orders = list(itertools.permutations(p)) if len(p) <= 3 else [p, p[::-1]] + [random.Random(s).sample(p, len(p)) for s in range(3)]
for o in orders: print(" ".join(o))
PY
)
    while read -r -a order; do
      "$cli" ensemble-merge "${order[@]}" --stats "$tmp/det-merged.csv" --paths "$tmp/det-merged-paths.csv" \
        >/dev/null 2>"$tmp/det.err" || det_bad+=("merge of ${#order[@]} parts failed: $(head -c 200 "$tmp/det.err")")
      cmp -s "$tmp/det-one.csv" "$tmp/det-merged.csv" || det_bad+=("$K parts, $threads threads, order ${order[*]##*/}: statistics differ")
      cmp -s "$tmp/det-one-paths.csv" "$tmp/det-merged-paths.csv" || det_bad+=("$K parts, $threads threads: paths differ")
    done <<<"$orders"
  done
done
if (( ${#det_bad[@]} == 0 )); then
  ok "1, 2, 3, 8 parts, 1 and 2 threads, every merge order: the single run's bytes"
else
  nok "1, 2, 3, 8 parts, 1 and 2 threads, every merge order: the single run's bytes" "${det_bad[@]:0:5}"
fi

# an incomplete set of parts is refused, naming the missing parts
run_cli incomplete ensemble-merge "$tmp/det-1-1-of-8.bin" "$tmp/det-1-2-of-8.bin" "$tmp/det-1-4-of-8.bin" \
  "$tmp/det-1-5-of-8.bin" "$tmp/det-1-6-of-8.bin" "$tmp/det-1-7-of-8.bin" "$tmp/det-1-8-of-8.bin" \
  --stats "$tmp/inc.csv"
expect_status incomplete 2 "merging 7 of 8 parts exits 2"
if grep -q '3/8' "$tmp/incomplete.err" && [[ ! -e $tmp/inc.csv ]]; then
  ok "the refusal names the missing part 3/8 and writes nothing"
else
  nok "the refusal names the missing part 3/8 and writes nothing"; diag "$tmp/incomplete.err"
fi
run_cli incomplete-ok ensemble-merge "$tmp/det-1-1-of-8.bin" "$tmp/det-1-2-of-8.bin" --allow-incomplete \
  --stats "$tmp/inc.csv"
expect_status incomplete-ok 0 "--allow-incomplete merges 2 of 8 parts"

# hand-edited partials: 0 samples, a range past N (the data after the
# 113-byte line "flexion-ensemble-partial/4 LENGTH SHA256": the magic string
# padded to 32 bytes, the seed, then N, first, count), the line rewritten
# to match, so that the checks behind the checksum are what refuses them
python3 - "$tmp/det-1-2-of-8.bin" "$tmp" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:27] == b"flexion-ensemble-partial/4 ", data[:27]
body = bytearray(data[113:])
assert body[:26] == b"flexion-ensemble-partial/4"
def write(name, b):
    line = b"flexion-ensemble-partial/4 %020d %s\n" % (len(b), hashlib.sha256(b).hexdigest().encode())
    open(sys.argv[2] + "/" + name, "wb").write(line + bytes(b))
zero = bytearray(body); struct.pack_into("<I", zero, 48, 0); write("zero.bin", zero)
past = bytearray(body); struct.pack_into("<I", past, 44, 7); write("past.bin", past)
PY
run_cli zero ensemble-merge "$tmp/zero.bin" --allow-incomplete --stats "$tmp/x.csv"
expect_status zero 2 "a partial with 0 samples is refused (exit 2)"
run_cli past ensemble-merge "$tmp/past.bin" --allow-incomplete --stats "$tmp/x.csv"
expect_status past 2 "a partial whose samples run past N is refused (exit 2)"

# --- damaged, truncated, doubled and foreign partials (issue 31, items 1-2) ---
# each is refused with exit 2 and a message naming it, and nothing is written
good1=$tmp/det-1-1-of-2.bin good2=$tmp/det-1-2-of-2.bin
python3 - "$good2" "$tmp" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
mid = len(data) // 2
open(sys.argv[2] + "/damaged.bin", "wb").write(data[:mid] + b"\xff" * 8 + data[mid + 8:])
open(sys.argv[2] + "/truncated.bin", "wb").write(data[: len(data) - 100])
open(sys.argv[2] + "/doubled.bin", "wb").write(data + data)
PY
"$cli" ensemble "$det" --samples 8 --seed 6 --threads 1 --part 2/2 --keep 3 --partial "$tmp/seed6.bin" >/dev/null 2>&1
"$cli" ensemble "$det" --samples 10 --seed 5 --threads 1 --part 2/2 --keep 3 --partial "$tmp/n10.bin" >/dev/null 2>&1
python3 - "$det" "$tmp/other.flexion" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["gravity"] = [0.0, -9.0]  # another model
json.dump(m, open(sys.argv[2], "w"))
PY
"$cli" ensemble "$tmp/other.flexion" --samples 8 --seed 5 --threads 1 --part 2/2 --keep 3 \
  --partial "$tmp/foreign-model.bin" >/dev/null 2>"$tmp/foreign-model.make.err" \
  || { echo "# the other model did not run:"; diag "$tmp/foreign-model.make.err"; }
for bad in damaged truncated doubled seed6 n10 foreign-model; do
  rm -f "$tmp/bad.csv"
  run_cli merge-$bad ensemble-merge "$good1" "$tmp/$bad.bin" --stats "$tmp/bad.csv"
  if (( rc == 2 )) && grep -q "$bad.bin" "$tmp/merge-$bad.err" && [[ ! -e $tmp/bad.csv ]]; then
    ok "a $bad partial is refused (exit 2), named, nothing written"
  else
    nok "a $bad partial is refused (exit 2), named, nothing written" "exit $rc"; diag "$tmp/merge-$bad.err"
  fi
done
if grep -q checksum "$tmp/merge-damaged.err" && grep -q "bytes of data" "$tmp/merge-truncated.err" \
   && grep -q "bytes of data" "$tmp/merge-doubled.err" && grep -q "seed" "$tmp/merge-seed6.err" \
   && grep -q "number of samples" "$tmp/merge-n10.err" && grep -q "model" "$tmp/merge-foreign-model.err"; then
  ok "the refusals say what is wrong (checksum, length, seed, samples, model)"
else
  nok "the refusals say what is wrong (checksum, length, seed, samples, model)"
  cat "$tmp"/merge-{damaged,truncated,doubled,seed6,n10,foreign-model}.err | sed 's/^/#   /'
fi
run_cli merge-good ensemble-merge "$good1" "$good2" --stats "$tmp/good.csv"
expect_status merge-good 0 "the undamaged pair still merges"
# a device or a FIFO is not read (it grew to 22.8 GB, or blocked for ever)
if [[ -r /dev/zero ]]; then
  rc=0; timeout 60 "$cli" ensemble-merge "$good1" /dev/zero --stats "$tmp/z.csv" \
    >"$tmp/devzero.out" 2>"$tmp/devzero.err" </dev/null || rc=$?
  if (( rc == 2 )) && grep -q "/dev/zero is not a regular file" "$tmp/devzero.err"; then
    ok "ensemble-merge refuses /dev/zero (exit 2)"
  else
    nok "ensemble-merge refuses /dev/zero (exit 2)" "exit $rc"; diag "$tmp/devzero.err"
  fi
fi
mkfifo "$tmp/fifo.bin"
rc=0; timeout 60 "$cli" ensemble-merge "$good1" "$tmp/fifo.bin" --stats "$tmp/f.csv" \
  >"$tmp/fifo.out" 2>"$tmp/fifo.err" </dev/null || rc=$?
if (( rc == 2 )) && grep -q "fifo.bin is not a regular file" "$tmp/fifo.err"; then
  ok "ensemble-merge refuses a FIFO with no writer at once (exit 2)"
else
  nok "ensemble-merge refuses a FIFO with no writer at once (exit 2)" "exit $rc"; diag "$tmp/fifo.err"
fi

# command-line edges (issue 25, item 8)
run_cli part-over ensemble "$det" --samples 8 --part 4294967297/4294967298 --partial "$tmp/x.bin"
expect_status part-over 1 "--part 4294967297/4294967298 is refused, not read as 1/2"
run_cli part-big ensemble "$det" --samples 4 --part 5/5 --partial "$tmp/x.bin"
expect_status part-big 1 "--part 5/5 with 4 samples is a usage error (exit 1)"
run_cli many ensemble "$det" --samples 1000000000 --stats "$tmp/x.csv"
expect_status many 1 "--samples 1000000000 is a usage error (exit 1)"
run_cli neg-keep ensemble "$det" --samples 2 --keep -3 --paths "$tmp/x.csv"
expect_status neg-keep 1 "a negative --keep is refused"
run_cli neg-q ensemble "$det" --samples 2 --quantile-samples -1 --stats "$tmp/x.csv"
expect_status neg-q 1 "a negative --quantile-samples is refused"
run_cli no-paths ensemble-merge "$tmp/part1.bin" "$tmp/part2.bin" "$tmp/part3.bin" "$tmp/part4.bin" \
  --paths "$tmp/nopaths.csv"
expect_status no-paths 1 "ensemble-merge --paths from partials without kept paths is refused"
run_cli unwritable ensemble "$det" --samples 2 --stats "$tmp/no/such/folder/s.csv"
if (( rc == 4 )) && ! grep -q samples "$tmp/unwritable.out"; then
  ok "an unwritable --stats is refused (exit 4) before any sample runs"
else
  nok "an unwritable --stats is refused (exit 4) before any sample runs" "exit $rc"; diag "$tmp/unwritable.out"
fi
run_cli threads ensemble "$det" --samples 3 --threads 100000 --stats "$tmp/th.csv"
"$cli" ensemble "$det" --samples 3 --threads 1 --stats "$tmp/th1.csv" >/dev/null 2>&1
if (( rc == 0 )) && cmp -s "$tmp/th.csv" "$tmp/th1.csv"; then
  ok "--threads 100000 runs (capped by samples and processors), same bytes"
else
  nok "--threads 100000 runs (capped by samples and processors), same bytes" "exit $rc"; diag "$tmp/threads.err"
fi

echo "1..$n"
(( failures == 0 ))
