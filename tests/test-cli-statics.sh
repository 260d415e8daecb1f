#!/usr/bin/env bash
# TAP tests of "flexion-cli statics": the settled truss against the method
# of joints, the one-row CSVs of run, rigid links, and the exit statuses.
#   test-cli-statics.sh FLEXION_CLI SOURCE_ROOT
set -uo pipefail

cli=${1:?usage: test-cli-statics.sh FLEXION_CLI SOURCE_ROOT}
root=${2:?usage: test-cli-statics.sh FLEXION_CLI SOURCE_ROOT}
examples=$root/data/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flexion-test-cli-statics.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
check () {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  n=$((n + 1))
  if "$@" >"$tmp/last.out" 2>&1; then echo "ok $n - $what"
  else failures=$((failures + 1)); echo "not ok $n - $what"; sed 's/^/#   /' "$tmp/last.out"; fi
}
# column NAME FILE: the value of column NAME in the second row
column () {
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                        NR == 2 { print $c }' "$2"
}
near () {  # near VALUE EXPECTED RELATIVE
  awk -v v="$1" -v e="$2" -v r="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= r * (e < 0 ? -e : e)) }'
}

truss=$examples/warren-truss.flexion
"$cli" statics "$truss" --at 1 --probes "$tmp/p.csv" --reactions "$tmp/r.csv" >"$tmp/t.out" 2>"$tmp/t.err"
check "statics on the Warren truss exits 0" test $? -eq 0
check "it prints the reactions" grep -q "^reaction at A: fx 0 N, fy 1583.33 N" "$tmp/t.out"
check "and the largest |N| with its link" grep -q "^largest |N|: 2213.1.* N on link" "$tmp/t.out"
check "the reaction CSV has run's header" test "$(head -1 "$tmp/r.csv")" = "t,A.fx,A.fy,D.fx,D.fy"
check "and one row at t = 1" test "$(wc -l <"$tmp/r.csv")" -eq 2 -a "$(cut -d, -f1 "$tmp/r.csv" | tail -1)" = 1
# method of joints: R_A = 4750/3 N, AE = -R_A / sin 60, AB = -AE / 2; the
# elastic truss's lever arms move with its strains (~1e-6 here)
check "A carries 4750/3 N" near "$(column A.fy "$tmp/r.csv")" 1583.3333333333333 1e-5
check "D carries 5750/3 N" near "$(column D.fy "$tmp/r.csv")" 1916.6666666666667 1e-5
check "AE is in compression, 1828.3 N (1 %)" near "$(column AE.N "$tmp/p.csv")" -1828.2758524 1e-2
check "AB is in tension, 914.14 N (1 %)" near "$(column AB.N "$tmp/p.csv")" 914.1379262 1e-2
check "the probe CSV is one row of finite numbers" \
  awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) exit 1 } END { exit NR != 2 }' "$tmp/p.csv"

sed 's/"elements": 4,/"elements": 4, "rigid": true,/' "$truss" >"$tmp/rigid.flexion"
"$cli" statics "$tmp/rigid.flexion" --at 1 --probes "$tmp/rp.csv" --reactions "$tmp/rr.csv" \
  >"$tmp/rigid.out" 2>&1
check "every link rigid: statics exits 0" test $? -eq 0
check "A carries exactly 4750/3 N" near "$(column A.fy "$tmp/rr.csv")" 1583.3333333333333 1e-12
check "AE is exactly -R_A / sin 60" near "$(column AE.N "$tmp/rp.csv")" -1828.2758524 1e-9
# issue 30.4: a structure of rigid links with mobility 0 runs, at rest,
# carrying its loads, the reactions exact (the ramp is at 0.2 - 0.0005 s)
"$cli" run "$tmp/rigid.flexion" --until 0.2 --reactions "$tmp/rigid-run.csv" >"$tmp/rigid-run.out" 2>&1
check "and run takes its steps" test $? -eq 0
check "its reactions at t = 0.2 are the settled ones times the ramp" \
  near "$(tail -1 "$tmp/rigid-run.csv" | cut -d, -f3)" "$(awk 'BEGIN { print 4750 / 3 * 0.1995 }')" 1e-12

"$cli" statics "$examples/simply-supported.flexion" --at 1 --picture "$tmp/m.png" --diagram M \
  >"$tmp/pic.out" 2>&1
check "--picture with --diagram M draws the settled beam" \
  test $? -eq 0 -a "$(head -c 4 "$tmp/m.png" | tail -c 3)" = "PNG"
"$cli" statics "$truss" --at 1 --diagram M >"$tmp/nopic.out" 2>&1
check "--diagram without --picture: exit 1" test $? -eq 1
"$cli" statics "$truss" --at 1 --picture "$tmp/x.png" --diagram Q >"$tmp/q.out" 2>&1
check "an unknown diagram: exit 1, nothing drawn" test $? -eq 1 -a ! -e "$tmp/x.png"

"$cli" statics "$truss" >"$tmp/zero.out" 2>&1
check "no load at t = 0 (a ramp): exit 2" test $? -eq 2
check "it says to settle later" grep -q "no load acts at t = 0 s: settle at a later time" "$tmp/zero.out"
"$cli" statics "$truss" --at 5 >"$tmp/late.out" 2>&1
check "a time past the model's end: exit 2" test $? -eq 2
"$cli" statics "$truss" --at -1 >"$tmp/early.out" 2>&1
check "a negative time: exit 2" test $? -eq 2
"$cli" statics "$truss" --at soon >"$tmp/bad.out" 2>&1
check "a time that is no number: exit 1" test $? -eq 1
"$cli" statics "$truss" --at 1 --reactions "$tmp/no/such/dir.csv" >"$tmp/unwritable.out" 2>&1
check "an unwritable output: refused before the work" test $? -ne 0 -a ! -e "$tmp/no"

cat >"$tmp/spin.flexion" <<'MODEL'
{ "format": "flexion-model", "version": 1,
  "gravity": [0, -9.81], "time": { "dt": 0.01, "end": 1 },
  "joints": [ { "id": "O", "at": [0, 0], "support": "pin" },
              { "id": "B", "at": [0, -1], "mass": 2 } ],
  "links": [ { "id": "arm", "from": "O", "to": "B", "elements": 4,
               "section": { "rhoA": 0.1, "rhoI": 0.001, "EA": 1e9, "GA": 1e9, "EI": 1e7 } } ],
  "motors": [ { "id": "m", "joint": "O", "link": "arm", "type": "torque", "value": 40 } ] }
MODEL
"$cli" statics "$tmp/spin.flexion" >"$tmp/spin.out" 2>&1
check "a torque beyond what gravity holds: exit 3" test $? -eq 3
check "no static equilibrium, said so" grep -q "no static equilibrium" "$tmp/spin.out"
sed 's/"value": 40/"value": 10/' "$tmp/spin.flexion" >"$tmp/held.flexion"
"$cli" statics "$tmp/held.flexion" --probes "$tmp/held.csv" >"$tmp/held.out" 2>&1
check "a torque gravity can hold settles" test $? -eq 0

cat >"$tmp/bar.flexion" <<'MODEL'
{ "format": "flexion-model", "version": 1,
  "gravity": [0, -9.81], "time": { "dt": 0.01, "end": 1 },
  "joints": [ { "id": "A", "at": [0, 0], "support": "pin" },
              { "id": "B", "at": [2, 0], "support": "pin" } ],
  "links": [ { "id": "bar", "from": "A", "to": "B", "elements": 4, "rigid": true,
               "section": { "rhoA": 1, "rhoI": 0.01, "EA": 1e8, "GA": 1e6, "EI": 1e4 } } ] }
MODEL
"$cli" statics "$tmp/bar.flexion" >"$tmp/bar.out" 2>&1
check "a rigid bar between two pins: exit 2" test $? -eq 2
check "naming the over-constrained link" grep -q 'links\[0\]: rigid link "bar" is over-constrained' "$tmp/bar.out"
"$cli" check "$tmp/bar.flexion" >"$tmp/bar-check.out" 2>&1
check "check refuses it too (exit 2), naming the link" \
  test $? -eq 2 -a -n "$(grep 'rigid link "bar" is over-constrained' "$tmp/bar-check.out")"
"$cli" run "$tmp/bar.flexion" >"$tmp/bar-run.out" 2>&1
check "and run alike" test $? -eq 2 -a -n "$(grep 'rigid link "bar"' "$tmp/bar-run.out")"

# SIGTERM as run answers it: 143, no output left behind (a big truss that
# takes many seconds to build and settle)
sed 's/"elements": 4,/"elements": 30000,/' "$truss" >"$tmp/big.flexion"
"$cli" statics "$tmp/big.flexion" --at 1 --reactions "$tmp/big.csv" >"$tmp/big.out" 2>&1 &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
check "SIGTERM stops statics with 143" test $? -eq 143
check "and leaves no output" test ! -e "$tmp/big.csv" -a -z "$(ls "$tmp" | grep '^big.csv.')"

echo "1..$n"
exit $((failures > 0))
