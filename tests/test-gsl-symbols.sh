#!/usr/bin/env bash
# TAP: the engine calls GSL for its eigenproblems and its interpolation (issue
# 17): the core library's objects must reference these symbols.
#   test-gsl-symbols.sh LIBFLEXION_CORE_A
set -uo pipefail
lib=${1:?usage: test-gsl-symbols.sh LIBFLEXION_CORE_A}
n=0 failures=0
if ! command -v nm >/dev/null; then echo "1..0 # SKIP nm not installed"; exit 0; fi
undefined=$(nm -u "$lib" 2>/dev/null)
for sym in gsl_eigen_gensymmv gsl_eigen_symmv gsl_linalg_SV_decomp gsl_linalg_cholesky_decomp1 \
           gsl_interp_eval gsl_interp_init; do
  n=$((n + 1))
  if grep -qw "$sym" <<<"$undefined"; then echo "ok $n - the core calls $sym"
  else failures=$((failures + 1)); echo "not ok $n - the core calls $sym"; fi
done
echo "1..$n"
(( failures == 0 ))
