#!/usr/bin/env bash
# Runs `swift test "$@"` with its whole output on the terminal and in var/test-logs/, and when it fails ends
# with a digest a reader of only the last lines (a CI summary) can act on: the failed tests and their issues,
# and, when the test process crashed, the tests that were still running and the crashed thread's frames.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p var/test-logs
log="var/test-logs/swift-test-$(date +%Y%m%d-%H%M%S)-$$.log"
# A crash prints the crashed thread only, without registers and images, so its frames are the last lines.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none,limit=40,top=30}"
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    python3 scripts/test-digest.py "$log"
    echo "swift test $* exited with $status (whole output: $log)"
fi
exit "$status"
