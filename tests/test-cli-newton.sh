#!/usr/bin/env bash
# TAP tests of flexion-cli run --newton, the factorisations column, and the
# runs that must stop with exit 3 (issue 26, issue 25 item 3).
#   test-cli-newton.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-newton.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-newton.sh FLEXION_CLI SOURCE_ROOT}
fourbar=$root/data/examples/four-bar.flexion
spaghetti=$root/data/examples/flying-spaghetti.flexion

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-newton.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
ok ()  { n=$((n + 1)); echo "ok $n - $1"; }
nok () { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
run_cli () { local name=$1; shift; rc=0; "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?; }
expect_status () {
  if (( rc == $2 )); then ok "$3"; else nok "$3" "exit status $rc, expected $2" "$(cat "$tmp/$1.err")"; fi
}
expect_text () {  # NAME FILE-SUFFIX TEXT DESCRIPTION
  if grep -qF -- "$3" "$tmp/$1.$2"; then ok "$4"; else nok "$4" "no \"$3\" in:" "$(cat "$tmp/$1.$2")"; fi
}

# column of NAME in the energy CSV's header
column () { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

for kind in full simplified auto; do
  run_cli "$kind" run "$fourbar" --until 1 --newton "$kind" --energy "$tmp/$kind.csv"
  expect_status "$kind" 0 "run --newton $kind exits 0"
done
it=$(column "$tmp/full.csv" newton_iters) fa=$(column "$tmp/full.csv" factorisations)
if [[ $it == 9 && $fa == 10 ]]; then ok "factorisations is the column after newton_iters"; else
  nok "factorisations is the column after newton_iters" "newton_iters $it, factorisations $fa"; fi
# full Newton factorises at every iteration; simplified reuses factorisations
msg=$(awk -F, -v i="$it" -v f="$fa" 'NR > 2 && $i != $f { print "row " NR - 1 ": " $i " iterations, " $f " factorisations"; exit 1 }' "$tmp/full.csv") \
  && ok "full Newton: one factorisation per iteration" || nok "full Newton: one factorisation per iteration" "$msg"
sums=$(awk -F, -v i="$it" -v f="$fa" 'NR > 2 { a += $i; b += $f } END { print a, b }' "$tmp/simplified.csv")
read -r si sf <<<"$sums"
if (( sf * 2 < si )); then ok "simplified Newton: fewer factorisations than iterations ($sf, $si)"; else
  nok "simplified Newton: fewer factorisations than iterations" "$sf factorisations, $si iterations"; fi
# auto chooses by the predicted factorisation cost: on the slider-crank a
# reused factorisation does not pay (simplified Newton took 1.42x the CPU
# time of full Newton); on the degree-2 four-bar (band 14 + 14) the two
# cost the same, and auto reuses
for kind in full auto; do
  run_cli "sc-$kind" run "$root/data/examples/slider-crank.flexion" --until 1 --newton "$kind" \
    --energy "$tmp/sc-$kind.csv"
done
if cmp -s "$tmp/sc-full.csv" "$tmp/sc-auto.csv"; then ok "auto is full Newton on the slider-crank (reuse does not pay)"; else
  nok "auto is full Newton on the slider-crank (reuse does not pay)"; fi
if cmp -s "$tmp/simplified.csv" "$tmp/auto.csv"; then ok "auto reuses factorisations on the four-bar"; else
  nok "auto reuses factorisations on the four-bar"; fi

run_cli bad run "$fourbar" --newton chord
expect_status bad 1 "run --newton chord is a usage error"
expect_text bad err "full, simplified or auto" "the message names the variants"

# a 1e12 N m moment (the checker's limit) on the flying spaghetti: no success with broken books
sed 's/"moment": *-80/"moment": 1e12/' "$spaghetti" >"$tmp/moment.flexion"
run_cli moment run "$tmp/moment.flexion" --energy "$tmp/moment.csv"
expect_status moment 3 "a 1e12 N m moment stops the run (exit 3)"
expect_text moment err "dt / 4096" "the message names the smallest substep"
expect_text moment err "t = " "the message names the time"
[[ -e $tmp/moment.csv ]] && nok "no energy CSV from a failed run" || ok "no energy CSV from a failed run"

# --integrator (physics.md §16): gauss4 overrides the file, keeps the books,
# and is refused where the file's checker refuses it
run_cli g4 run "$fourbar" --until 0.2 --integrator gauss4 --energy "$tmp/g4.csv"
expect_status g4 0 "run --integrator gauss4 exits 0"
bal=$(column "$tmp/g4.csv" balance)
msg=$(awk -F, -v b="$bal" 'NR > 2 && ($b > 1e-11 || $b < -1e-11) { print "row " NR - 1 ": balance " $b; exit 1 }' "$tmp/g4.csv") \
  && ok "gauss4: every step's balance at round-off" || nok "gauss4: every step's balance at round-off" "$msg"
run_cli g4mid run "$fourbar" --until 0.2 --integrator midpoint --energy "$tmp/g4mid.csv"
run_cli g4def run "$fourbar" --until 0.2 --energy "$tmp/g4def.csv"
if cmp -s "$tmp/g4mid.csv" "$tmp/g4def.csv"; then ok "--integrator midpoint is the default"; else
  nok "--integrator midpoint is the default"; fi
if cmp -s "$tmp/g4mid.csv" "$tmp/g4.csv"; then nok "gauss4 steps differently from midpoint"; else
  ok "gauss4 steps differently from midpoint"; fi
run_cli g4bad run "$fourbar" --integrator rk4
expect_status g4bad 1 "run --integrator rk4 is a usage error"
expect_text g4bad err "midpoint or gauss4" "the message names the integrators"
run_cli g4ff run "$root/data/examples/spin-up.flexion" --integrator gauss4
expect_status g4ff 1 "gauss4 with a floating-frame link is refused"
expect_text g4ff err "time.integrator" "the refusal names the JSON path"
expect_text g4ff err "not quadratic" "the refusal says why"

echo "1..$n"
exit $(( failures > 0 ))
