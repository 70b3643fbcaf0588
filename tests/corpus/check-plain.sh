#!/usr/bin/env bash
# Plain-Go checks of the corpus (and of examples/), WITHOUT gordian:
#   1. go vet, go build and the correct programs' tests (go test ./correct/...);
#   2. plaincheck: runs every program a few times with the stock toolchain and
#      checks that occurred bugs really happen at the annotated lines (crash
#      message, deadlock, goroutine left blocked), that predicted bugs do NOT
#      happen in a normal run, and that correct programs exit 0 with no
#      goroutine left blocked.
# This says nothing about what gordian reports; the gordian checker does that.
#
# Usage: tests/corpus/check-plain.sh [-runs N] [DIR...]
#   DIR defaults to every program in tests/corpus/{bugs,correct} and examples/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
flags=()
while [ $# -gt 0 ] && [[ "$1" == -* ]]; do flags+=("$1" "$2"); shift 2; done

fail=0
echo "== go vet / go build / go test ./correct/... (tests/corpus)"
(cd "$here" && go vet ./... && go build ./... && go test -count=1 -run . ./correct/... >/dev/null) || { echo "FAIL: vet/build/test of tests/corpus"; fail=1; }
if [ -f "$repo/examples/go.mod" ]; then
  echo "== go vet / go build (examples)"
  (cd "$repo/examples" && go vet ./... && go build ./...) || { echo "FAIL: vet/build of examples"; fail=1; }
fi

if [ $# -eq 0 ]; then
  set -- "$here"/bugs/*/ "$here"/correct/*/
  for d in "$repo"/examples/*/; do [ -n "$(ls "$d"*.go 2>/dev/null)" ] && set -- "$@" "$d"; done
fi
echo "== plaincheck (${#@} programs)"
(cd "$here" && go build -o "${TMPDIR:-/tmp}/gordian-plaincheck" ./plaincheck)
"${TMPDIR:-/tmp}/gordian-plaincheck" "${flags[@]}" "${@%/}" || fail=1
exit $fail
