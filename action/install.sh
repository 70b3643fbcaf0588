#!/usr/bin/env bash
# The install step of the gordian GitHub Action (action.yml): puts a gordian
# on the job's PATH, from
#   INPUT_DEB       a .deb (URL or path, e.g. a release asset): unpacked with
#                   dpkg-deb -x under $RUNNER_TEMP (the binary finds its
#                   files relative to itself); the libraries its Depends
#                   names are installed with apt-get when missing
#   otherwise       the action's own sources ($GITHUB_ACTION_PATH), built
#                   with CMake (Release, no tests) and installed under
#                   $RUNNER_TEMP; the build tools come from apt-get when
#                   missing
# Writes the bin directory to $GITHUB_PATH and `version` to $GITHUB_OUTPUT.
# Tested by tests/action/check.
set -euo pipefail
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
die() { echo "::error::gordian action: $*" >&2; exit 2; }

# apt-get install the named Debian packages that are not installed.
apt_install_missing() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "gordian action: installing ${missing[*]}"
  local sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

if [ -n "${INPUT_DEB:-}" ]; then
  deb=$INPUT_DEB
  case "$deb" in
    http://*|https://*)
      curl -fsSL --retry 3 -o "$tmp/gordian.deb" "$deb" || die "cannot download $deb"
      deb=$tmp/gordian.deb ;;
  esac
  [ -f "$deb" ] || die "no .deb at $deb"
  # Depends: "libc6 (>= 2.34), libfmt9 (>= 9.1.0), a | b": the first of
  # each alternative, without its version.
  mapfile -t depends < <(dpkg-deb -f "$deb" Depends | tr ',' '\n' |
                         sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' | grep -v '^$' || true)
  apt_install_missing "${depends[@]}"
  root=$tmp/gordian-deb
  rm -rf "$root"
  dpkg-deb -x "$deb" "$root" || die "cannot unpack $deb"
  bin=$root/usr/bin
else
  src=${GITHUB_ACTION_PATH:-}
  [ -f "$src/CMakeLists.txt" ] || die "no gordian sources at '$src' (GITHUB_ACTION_PATH) and no deb input"
  apt_install_missing cmake ninja-build g++ libfmt-dev nlohmann-json3-dev
  cmake -S "$src" -B "$tmp/gordian-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DGORDIAN_TESTS=OFF -DGORDIAN_BENCH=OFF
  cmake --build "$tmp/gordian-build" -j "$(nproc)"
  cmake --install "$tmp/gordian-build" --prefix "$tmp/gordian"
  bin=$tmp/gordian/bin
fi
[ -x "$bin/gordian" ] || die "no gordian in $bin"
"$bin/gordian" version || die "$bin/gordian does not run"
echo "$bin" >> "$GITHUB_PATH"
echo "version=$("$bin/gordian" version | awk 'NR == 1 { print $2 }')" >> "$GITHUB_OUTPUT"
