#!/bin/sh
# Run test programs, one result line each: PASS, FAIL or SKIP (exit 77, the
# automake convention; the reason is the last line the test printed).
# Usage: run-tests.sh KIND TEST...   Output of each test is kept in
# ${BP_TESTLOG:-build/test-logs}/KIND/NAME.log; a failure prints its tail.
set -u
kind=$1
shift
logdir=${BP_TESTLOG:-build/test-logs}/$kind
mkdir -p "$logdir"
pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
	name=$(basename "$t" .sh)
	log=$logdir/$name.log
	start=$(date +%s)
	"$t" >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - start))
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS  %-12s %-32s %4ss\n' "$kind" "$name" "$secs" ;;
	77) skip=$((skip + 1))
	    printf 'SKIP  %-12s %-32s %4ss  %s\n' "$kind" "$name" "$secs" \
		"$(grep -v '^$' "$log" | tail -n 1)" ;;
	*) fail=$((fail + 1)); failed="$failed $name"
	   printf 'FAIL  %-12s %-32s %4ss  (exit %s, log %s)\n' "$kind" "$name" "$secs" "$rc" "$log"
	   tail -n 40 "$log" | sed 's/^/    | /' ;;
	esac
done
printf '%s: %d passed, %d failed, %d skipped\n' "$kind" $pass $fail $skip
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
