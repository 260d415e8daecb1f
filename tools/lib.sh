# shellcheck shell=bash
# Shared set-up for tools/test and tools/run: install missing Debian packages,
# configure and compile the meson build in $FX_BUILD.  Source it; don't run it.
#
#   FX_VERBOSE=1   show the full output of apt-get, meson setup and compile

FX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FX_BUILD=${FX_BUILD:-$FX_ROOT/build}
# extra `meson setup` options for a new build directory (tools/test --sanitize)
FX_SETUP_ARGS=${FX_SETUP_ARGS:-}
FX_LOGDIR=${TMPDIR:-/tmp}
FX_VERBOSE=${FX_VERBOSE:-0}

fx_say () { printf '==> %s\n' "$*"; }
fx_warn () { printf '==> warning: %s\n' "$*" >&2; }

# fx_quietly LOGNAME CMD...: run CMD, its output to a log file; print the log
# if CMD fails (or always with FX_VERBOSE=1).  Returns CMD's exit status.
fx_quietly () {
  local name=$1; shift
  if [[ $FX_VERBOSE == 1 ]]; then
    "$@"
    return
  fi
  local log rc=0
  log=$(mktemp "$FX_LOGDIR/flexion-$name.XXXXXX.log")
  "$@" >"$log" 2>&1 </dev/null || rc=$?
  if (( rc != 0 )); then
    cat "$log" >&2
    fx_warn "'$*' failed (exit $rc); log kept in $log"
  else
    rm -f "$log"
  fi
  return "$rc"
}

fx_packages () {
  sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$FX_ROOT/tools/packages.txt"
}

# Install whatever from tools/packages.txt is not installed yet.
fx_ensure_packages () {
  if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
    fx_warn "no dpkg/apt-get here: not checking system packages (see tools/packages.txt)"
    return 0
  fi
  local pkg missing=()
  for pkg in $(fx_packages); do
    [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == "install ok installed" ]] ||
      missing+=("$pkg")
  done
  if (( ${#missing[@]} == 0 )); then
    fx_say "System packages: all $(fx_packages | wc -l) present"
    return 0
  fi

  local sudo=()
  if (( EUID != 0 )); then
    if ! command -v sudo >/dev/null; then
      fx_warn "missing packages and neither root nor sudo: please install ${missing[*]}"
      return 1
    fi
    # without a terminal (CI has no stdin) sudo must not wait for a password
    if [[ -n ${CI:-} || ! -t 0 ]]; then sudo=(sudo -n); else sudo=(sudo); fi
  fi
  fx_say "Installing ${#missing[@]} missing packages: ${missing[*]}"
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y
             -o DPkg::Lock::Timeout=300)
  fx_quietly apt-update "${apt[@]}" update || return 1
  fx_quietly apt-install "${apt[@]}" install --no-install-recommends "${missing[@]}"
}

# meson setup (or --reconfigure; start over if that fails), then compile.
fx_build () {
  if [[ -f $FX_BUILD/meson-private/coredata.dat ]]; then
    fx_say "Reconfiguring $FX_BUILD"
    if ! fx_quietly meson-setup meson setup --reconfigure "$FX_BUILD" "$FX_ROOT"; then
      fx_warn "reconfigure failed: wiping $FX_BUILD and configuring afresh"
      rm -rf "$FX_BUILD"
    fi
  elif [[ -e $FX_BUILD ]]; then
    fx_warn "$FX_BUILD is not a meson build directory: wiping it"
    rm -rf "$FX_BUILD"
  fi
  if [[ ! -e $FX_BUILD ]]; then
    fx_say "Configuring $FX_BUILD"
    # shellcheck disable=SC2086  # FX_SETUP_ARGS is a list of options
    fx_quietly meson-setup meson setup $FX_SETUP_ARGS "$FX_BUILD" "$FX_ROOT" || return 1
  fi

  fx_say "Compiling"
  local log rc=0
  log=$(mktemp "$FX_LOGDIR/flexion-compile.XXXXXX.log")
  meson compile -C "$FX_BUILD" >"$log" 2>&1 </dev/null || rc=$?
  if (( rc != 0 )) || [[ $FX_VERBOSE == 1 ]]; then
    cat "$log" >&2
  elif grep -q 'warning:' "$log"; then
    # the build must stay warning-free: show them
    grep -A3 'warning:' "$log" >&2
    fx_warn "the build has $(grep -c 'warning:' "$log") compiler warnings"
  fi
  rm -f "$log"
  (( rc == 0 )) || fx_warn "compilation failed (exit $rc)"
  return "$rc"
}
