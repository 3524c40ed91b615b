#!/bin/sh
# Run the libFuzzer targets built by `make fuzz-build` (see GNUmakefile).
#
#   run.sh replay DIR NAME...          every committed input of each target
#                                      once (corpus/NAME and regress/NAME):
#                                      one PASS/FAIL line per target
#   run.sh fuzz DIR SECONDS JOBS NAME...
#                                      fuzz each target for SECONDS, JOBS
#                                      targets at a time; new inputs go to
#                                      DIR/corpus/NAME, crashes to
#                                      DIR/crashes/NAME/
#
# DIR holds the fuzz-NAME binaries.  Logs: ${BP_TESTLOG:-build/test-logs}/fuzz/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 dir=$2
shift 2
logdir=${BP_TESTLOG:-build/test-logs}/fuzz
mkdir -p "$logdir"

# Longest input the mutator makes, per target: the console parser must
# see lines over CONSOLE_LINE_MAX (64 KiB); the others need less.
max_len() {
	case $1 in
	console) echo 196608 ;;
	ktap|kconfig|groups|explain|modules) echo 32768 ;;
	*) echo 16384 ;;
	esac
}

inputs() {
	for d in "$here/corpus/$1" "$here/regress/$1"; do
		[ -d "$d" ] && find "$d" -type f ! -name 'README*' | sort
	done
}

replay() {
	pass=0 fail=0
	for t in "$@"; do
		bin=$dir/fuzz-$t log=$logdir/$t.replay.log
		n=$(inputs "$t" | wc -l)
		start=$(date +%s)
		if [ "$n" -eq 0 ]; then
			printf 'FAIL  %-12s %-32s  no corpus in tests/fuzz/corpus/%s\n' fuzz "$t" "$t"
			fail=$((fail + 1))
			continue
		fi
		# libFuzzer given files runs each once, without fuzzing.
		inputs "$t" | xargs "$bin" -rss_limit_mb=2048 -timeout=60 \
			>"$log" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		if [ $rc -eq 0 ]; then
			pass=$((pass + 1))
			printf 'PASS  %-12s %-32s %4ss  %s inputs\n' fuzz "$t" "$secs" "$n"
		else
			fail=$((fail + 1))
			printf 'FAIL  %-12s %-32s %4ss  (exit %s, log %s)\n' fuzz "$t" "$secs" $rc "$log"
			grep -E 'Running:|ERROR|check failed|SUMMARY' "$log" | tail -n 20 | sed 's/^/    | /'
		fi
	done
	printf 'fuzz: %d passed, %d failed\n' $pass $fail
	[ $fail -eq 0 ]
}

fuzz_one() {
	t=$1 secs=$2
	work=$dir/corpus/$t crash=$dir/crashes/$t
	log=$logdir/$t.fuzz.log
	mkdir -p "$work" "$crash"
	set -- "$work"
	for d in "$here/corpus/$t" "$here/regress/$t"; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	"$dir/fuzz-$t" -max_total_time="$secs" -max_len="$(max_len "$t")" \
		-timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$crash/" "$@" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	if [ $rc -eq 0 ]; then
		printf 'PASS  %-12s %-20s %6ss  %s runs, cov %s\n' fuzz "$t" "$secs" "${runs:-?}" "${cov:-?}"
	else
		printf 'FAIL  %-12s %-20s  (exit %s) crash inputs in %s, log %s\n' fuzz "$t" $rc "$crash" "$log"
		grep -E 'ERROR|check failed|SUMMARY|Test unit written' "$log" | tail -n 10 | sed 's/^/    | /'
	fi
	return $rc
}

case $mode in
replay) replay "$@" ;;
fuzz)
	secs=$1 jobs=$2
	shift 2
	if [ "$jobs" -le 1 ]; then
		rc=0
		for t in "$@"; do fuzz_one "$t" "$secs" || rc=1; done
		exit $rc
	fi
	export dir logdir here
	printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh "$0" one "$dir" "$secs" {}
	;;
one) fuzz_one "$2" "$1" ;;
*) echo "usage: $0 replay DIR NAME... | fuzz DIR SECONDS JOBS NAME..." >&2; exit 2 ;;
esac
