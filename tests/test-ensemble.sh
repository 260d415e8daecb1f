#!/usr/bin/env bash
# TAP tests of flexion-cli ensemble and ensemble-merge.
#   test-ensemble.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-ensemble.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-ensemble.sh FLEXION_CLI SOURCE_ROOT}
model=$root/data/examples/stochastic-spaghetti.flexion

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-ensemble.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
nok ()  { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
diag () { sed 's/^/#   /' "$@"; }

run_cli () {
  local name=$1; shift
  rc=0
  "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?
}
expect_status () {
  if (( rc == $2 )); then ok "$3"; else
    nok "$3" "exit status $rc, expected $2"; echo "# stderr:"; diag "$tmp/$1.err"; fi
}

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

# four parts and a merge give the single run's statistics (to round-off)
for k in 1 2 3 4; do
  run_cli part$k ensemble "$model" --samples 8 --seed 3 --threads 1 --part $k/4 \
    --partial "$tmp/part$k.bin"
  expect_status part$k 0 "ensemble --part $k/4 exits 0"
done
run_cli merge ensemble-merge "$tmp/part3.bin" "$tmp/part1.bin" "$tmp/part4.bin" "$tmp/part2.bin" \
  --stats "$tmp/merged.csv"
expect_status merge 0 "ensemble-merge exits 0"
if python3 - "$tmp/t1.csv" "$tmp/merged.csv" <<'PY'
import csv, sys
a = list(csv.reader(open(sys.argv[1]))); b = list(csv.reader(open(sys.argv[2])))
assert a[0] == b[0] and len(a) == len(b)
for ra, rb in zip(a[1:], b[1:]):
    for name, x, y in zip(a[0], ra, rb):
        x, y = float(x), float(y)
        if name.endswith(('.q05', '.q95')) or name == 't':
            assert x == y, (name, x, y)
        else:
            assert abs(x - y) <= 1e-12 * max(abs(x), abs(y)), (name, x, y)
PY
then
  ok "4 merged parts equal one run (1e-12 relative; quantiles exactly)"
else
  nok "4 merged parts equal one run (1e-12 relative; quantiles exactly)"
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

echo "1..$n"
(( failures == 0 ))
