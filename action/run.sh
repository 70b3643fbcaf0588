#!/usr/bin/env bash
# The run step of the gordian GitHub Action (action.yml), in the job's
# working directory:
#   INPUT_MERGE set      gordian merge of the JSON reports it names (a glob,
#                        e.g. reports/*.json: the shards of a matrix)
#   otherwise            gordian test [-race] [-shard I/N] FLAGS PACKAGES,
#                        and with INPUT_FUZZ_BUDGET gordian fuzz -budget B
#                        the same way, the two reports merged into one
# writing INPUT_JSON and INPUT_SARIF (paths relative to $GITHUB_WORKSPACE,
# -root, as code scanning wants them). It ends with status 0 whatever gordian
# said, so that the SARIF is uploaded; $GITHUB_OUTPUT gets exit-code (go
# test's: 0 no bug and every test passed, 1 bugs or a failed test, 2 gordian
# or the build failed), json and sarif (absolute; sarif only when written);
# the verdict step (action/verdict.sh) fails the job from exit-code.
# Tested by tests/action/check.
set -uo pipefail
G=${GORDIAN:-gordian}
json=$(realpath -m -- "${INPUT_JSON:-gordian.json}")
sarif=$(realpath -m -- "${INPUT_SARIF:-gordian.sarif}")
# Reports of an earlier run in the same place are not this run's.
rm -f -- "$json" "$sarif"
mkdir -p "$(dirname "$json")" "$(dirname "$sarif")"
read -ra packages <<< "${INPUT_PACKAGES:-./...}"
read -ra flags <<< "${INPUT_FLAGS:-}"
[ ${#packages[@]} -gt 0 ] || packages=(./...)
common=()
[ -n "${GITHUB_WORKSPACE:-}" ] && common+=(-root "$GITHUB_WORKSPACE")
run_args=()
case "${INPUT_RACE:-false}" in
  true) run_args+=(-race) ;;
  false|"") ;;
  *) echo "::error::gordian action: race must be true or false, not '${INPUT_RACE}'"; echo "exit-code=2" >> "$GITHUB_OUTPUT"; exit 0 ;;
esac
if [ -n "${INPUT_SHARD:-}" ]; then
  if ! [[ $INPUT_SHARD =~ ^[0-9]+/[0-9]+$ ]]; then
    echo "::error::gordian action: shard must be I/N (e.g. 0/4), not '${INPUT_SHARD}'"
    echo "exit-code=2" >> "$GITHUB_OUTPUT"
    exit 0
  fi
  run_args+=(-shard "$INPUT_SHARD")
fi

# run NAME COMMAND...: echoes and runs it; sets rc.
run() {
  echo "::group::$1"
  shift
  echo "+ $*"
  "$@"
  rc=$?
  echo "::endgroup::"
}

if [ -n "${INPUT_MERGE:-}" ]; then
  shopt -s nullglob
  read -ra patterns <<< "$INPUT_MERGE"
  reports=()
  for p in "${patterns[@]}"; do reports+=($p); done
  shopt -u nullglob
  if [ ${#reports[@]} -eq 0 ]; then
    echo "::error::gordian action: no report matches '${INPUT_MERGE}'"
    status=2
  else
    run "gordian merge" "$G" merge "${common[@]}" -json "$json" -sarif "$sarif" "${reports[@]}"
    status=$rc
  fi
else
  if [ -z "${INPUT_FUZZ_BUDGET:-}" ]; then
    run "gordian test" "$G" test "${common[@]}" "${run_args[@]}" -json "$json" -sarif "$sarif" \
      "${flags[@]}" "${packages[@]}"
    status=$rc
  else
    dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gordian-reports.XXXXXX")
    run "gordian test" "$G" test "${common[@]}" "${run_args[@]}" -json "$dir/test.json" \
      "${flags[@]}" "${packages[@]}"
    test_rc=$rc
    run "gordian fuzz" "$G" fuzz "${common[@]}" "${run_args[@]}" -budget "$INPUT_FUZZ_BUDGET" \
      -json "$dir/fuzz.json" "${flags[@]}" "${packages[@]}"
    fuzz_rc=$rc
    written=()
    for f in "$dir/test.json" "$dir/fuzz.json"; do [ -s "$f" ] && written+=("$f"); done
    status=2
    if [ ${#written[@]} -gt 0 ]; then
      run "gordian merge (test and fuzz)" "$G" merge "${common[@]}" -quiet -json "$json" \
        -sarif "$sarif" "${written[@]}"
      status=$rc
    fi
    # A run that failed (2) makes the whole a failure, whatever the merge says.
    [ $test_rc -ge 2 ] || [ $fuzz_rc -ge 2 ] && status=2
  fi
fi
[ $status -le 2 ] || status=2
echo "exit-code=$status" >> "$GITHUB_OUTPUT"
[ -s "$json" ] && echo "json=$json" >> "$GITHUB_OUTPUT"
[ -s "$sarif" ] && echo "sarif=$sarif" >> "$GITHUB_OUTPUT"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  case $status in
    0) says="no bug found, every test passed" ;;
    1) says="bugs found or a test failed" ;;
    *) says="gordian or the build failed" ;;
  esac
  echo "gordian: $says (exit status $status)" >> "$GITHUB_STEP_SUMMARY"
fi
exit 0
