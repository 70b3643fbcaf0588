#!/usr/bin/env bash
# The last step of the gordian GitHub Action (action.yml): fails the job
# from the run step's exit-code, as go test would: 1 (bugs or a failed test)
# unless INPUT_FAIL is false, 2 (gordian or the build failed, or the run
# step wrote no exit code) always. Tested by tests/action/check.
set -u
code=${EXIT_CODE:-}
case "$code" in
  0) echo "gordian: no bug found, every test passed"; exit 0 ;;
  1) if [ "${INPUT_FAIL:-true}" = false ]; then
       echo "::warning::gordian: bugs found or a test failed (exit status 1; fail is false)"
       exit 0
     fi
     echo "::error::gordian: bugs found or a test failed (exit status 1)"
     exit 1 ;;
  "") echo "::error::gordian: the run step wrote no exit code"; exit 2 ;;
  *) echo "::error::gordian: gordian or the build failed (exit status $code)"; exit 2 ;;
esac
