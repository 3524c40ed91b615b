#!/bin/sh
# Run test programs, one result line each: PASS, FAIL or SKIP (exit 77, the
# automake convention; the reason is the last line the test printed).
# Usage: run-tests.sh KIND TEST...   Output of each test is kept in
# ${BP_TESTLOG:-build/test-logs}/KIND/NAME.log; a failure prints its tail.
# The last line is "KIND: N passed, N failed, N skipped" (CI reads it).
#
# Two kinds of skip.  A test that lacks something `make setup` installs or
# `make` builds (a package, a kernel in /boot, the agent binary) prints its
# reason and exits 77.  A test that cannot run because of what this host is
# (no usable KVM, not root, no tmpfs mounts in this container, other guests
# on the shared libvirtd, an input that setup does not provide) makes its
# last line "SKIP-HOST: REASON" and exits 77.
# With BP_SETUP_OK=1 (exported by `make check` once `make setup` has
# succeeded) a skip of the first kind is a FAIL: setup said the host was
# ready, so the test must run.  A SKIP-HOST stays a skip.  Without it (e.g.
# `make check-integration` by hand) every exit 77 is a SKIP.
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
	why=
	if [ $rc = 77 ]; then
		why=$(grep -v '^$' "$log" | tail -n 1)
		case $why in
		SKIP-HOST:*) ;;
		*) [ "${BP_SETUP_OK:-}" = 1 ] && rc=setup_skip ;;
		esac
	fi
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS  %-12s %-32s %4ss\n' "$kind" "$name" "$secs" ;;
	77) skip=$((skip + 1))
	    printf 'SKIP  %-12s %-32s %4ss  %s\n' "$kind" "$name" "$secs" "$why" ;;
	setup_skip) fail=$((fail + 1)); failed="$failed $name"
	   printf 'FAIL  %-12s %-32s %4ss  (skipped although make setup succeeded: %s; log %s)\n' \
		"$kind" "$name" "$secs" "$why" "$log" ;;
	*) fail=$((fail + 1)); failed="$failed $name"
	   printf 'FAIL  %-12s %-32s %4ss  (exit %s, log %s)\n' "$kind" "$name" "$secs" "$rc" "$log"
	   tail -n 40 "$log" | sed 's/^/    | /' ;;
	esac
done
printf '%s: %d passed, %d failed, %d skipped\n' "$kind" $pass $fail $skip
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
