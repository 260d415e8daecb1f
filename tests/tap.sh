# tests/tap.sh: TAP helpers for the shell tests, sourced after $tmp (the
# test's own temporary folder) and $cli are set.
n=0 failures=0
ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
nok ()  { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
skip () { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag () { sed 's/^/#   /' "$@"; }

# run_cli NAME ARGS...: flexion-cli, stdout/stderr to $tmp/NAME.out/.err, status in $rc
run_cli () {
  local name=$1; shift
  rc=0
  "$cli" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null || rc=$?
}

# expect_status NAME STATUS DESCRIPTION
expect_status () {
  if (( rc == $2 )); then ok "$3"; else
    nok "$3" "exit status $rc, expected $2"; echo "# stderr:"; diag "$tmp/$1.err"; fi
}

# whether this build draws (export refuses at once without cairo): build_draws MODEL
build_draws () {
  ! "$cli" export "$1" --csv "$tmp/cairo-probe.csv" 2>&1 | grep -q 'cannot draw'
}
