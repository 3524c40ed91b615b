#!/bin/sh
# bootproof run interrupted and resumed, on real builds and boots:
#  - SIGINT while make builds (--rebuild, so that make runs): exit 130 within
#    seconds, make's whole process group gone, the build recorded "skip"
#    (interrupted), run.json "complete": false
#  - SIGINT while a candidate boots: exit 130, the guest destroyed (no
#    domain of the run left), its verdict INCOMPLETE, run.json incomplete;
#    then --resume finishes the same run directory: the finished candidate
#    is reused as it was, the interrupted boot runs again, exit 1 (the test
#    plan's groups FAIL), "complete": true, "resumed" records when
# Uses scenarios/plans/test-fail.plan and the build cache that run-fail.sh
# fills (run alone it builds first).
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
PLAN=$top/scenarios/plans/test-fail.plan
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
now() { date +%s; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read run.json"; exit 77; }
[ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${BP_KSRC:-}" ] ||
	{ echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
KSRC_ARG=${BP_KSRC:+--ksrc $BP_KSRC}

# py EXPR: evaluate Python with j = run.json of $d, b = its candidates by
# id, d = the run directory
py() {
	python3 - "$d/run.json" "$@" <<'EOF'
import json, os, sys
d = os.path.dirname(sys.argv[1])
j = json.load(open(sys.argv[1]))
b = {r["candidate"]["id"]: r for r in j["boots"]}
print(eval(sys.argv[2]))
EOF
}
# wait_for SECONDS EXPR: until EXPR is True on the run's run.json
wait_for() {
	end=$(($(now) + $1))
	while [ "$(now)" -lt "$end" ]; do
		kill -0 "$pid" 2>/dev/null || return 1
		d=$(ls -d "$T"/r/*/ 2>/dev/null | head -n 1)
		if [ -n "$d" ] && [ -f "$d/run.json" ] && [ "$(py "$2" 2>/dev/null)" = True ]; then
			return 0
		fi
		sleep 1
	done
	return 1
}

# 1. SIGINT during make (--rebuild: make runs even when the cache has it).
rm -rf "$T/r"
# shellcheck disable=SC2086
"$BP" run "$PLAN" --group "$top/tests/data/groups/x86_64/test-interrupt.config" --rebuild \
	$KSRC_ARG --results "$T/r" >"$T/out1" 2>"$T/err1" &
pid=$!
if wait_for 1800 'os.path.exists(d + "/x86_64-test-interrupt/build.log")'; then
	sleep 3
	t0=$(now)
	kill -INT "$pid"
	wait "$pid"; rc=$?
	pid=
	secs=$(($(now) - t0))
	echo "interrupted make: exit $rc after $secs s"
	cat "$T/err1"
	[ $rc = 130 ] || no "SIGINT during make: exit $rc, not 130"
	[ $secs -le 15 ] || no "SIGINT during make took $secs s"
	sleep 1
	if pgrep -f "O=[^ ]*/x86_64/obj " >/dev/null; then
		no "make still runs after SIGINT: $(pgrep -af "O=[^ ]*/x86_64/obj " | head -n 3)"
	fi
	[ "$(py 'j["complete"]')" = False ] || no "interrupted run.json is complete"
	[ "$(py 'j["exit_code"]')" = 130 ] || no "interrupted run.json exit_code $(py 'j["exit_code"]')"
	[ "$(py 'b["x86_64-test-interrupt"]["build"]["result"]')" = skip ] ||
		no "interrupted build: $(py 'b["x86_64-test-interrupt"]["build"]')"
	[ "$(py 'j["groups"][0]["verdict"] + " " + j["groups"][0]["reason"]')" = "SKIP not built: interrupted" ] ||
		no "interrupted verdict: $(py 'j["groups"][0]')"
	grep -q "bootproof run --resume" "$T/err1" || no "the interrupted run does not say how to resume"
else
	no "the build never started: $(tail -n 5 "$T/err1")"
	kill -9 "$pid" 2>/dev/null
	pid=
fi

# 2. SIGINT during a boot, then --resume.
rm -rf "$T/r"
# shellcheck disable=SC2086
"$BP" run "$PLAN" $KSRC_ARG --results "$T/r" >"$T/out2" 2>"$T/err2" &
pid=$!
if ! wait_for 1800 'b["x86_64-test-panic"]["verdict"] == "RUNNING"'; then
	no "the panic candidate never started booting: $(tail -n 5 "$T/err2")"
	exit 1
fi
kill -INT "$pid"
wait "$pid"; rc=$?
pid=
echo "interrupted boot: exit $rc"
[ $rc = 130 ] || no "SIGINT during a boot: exit $rc, not 130"
id=$(py 'j["run_id"]')
if virsh -c qemu:///system list --all --name | grep -q "bootproof-$id"; then
	no "a guest of the run is left: $(virsh -c qemu:///system list --all --name | grep "bootproof-$id")"
fi
[ "$(py 'j["complete"]')" = False ] || no "interrupted run.json is complete"
[ "$(py 'b["x86_64-test-panic"]["verdict"]')" = INCOMPLETE ] || no "interrupted boot verdict $(py 'b["x86_64-test-panic"]["verdict"]')"
before=$(py 'json.dumps(b["x86_64-test-build-break"], sort_keys=True)')

# shellcheck disable=SC2086
"$BP" run --resume "$d" >"$T/out3" 2>"$T/err3"; rc=$?
cat "$T/out3"
echo "resumed: exit $rc"
[ $rc = 1 ] || { no "resume: exit $rc, not 1"; tail -n 20 "$T/err3"; }
[ "$(py 'j["run_id"]')" = "$id" ] || no "resume changed the run id"
[ "$(py 'j["complete"] and j["exit_code"] == 1')" = True ] || no "resumed run.json not complete with exit 1"
[ "$(py 'len(j["resumed"])')" = 1 ] || no "resumed not recorded"
[ "$(py 'json.dumps(b["x86_64-test-build-break"], sort_keys=True)')" = "$before" ] || no "the finished candidate was not kept as it was"
grep -q "x86_64-test-build-break.*reused from the interrupted run" "$T/err3" || no "resume did not say what it reused"
[ "$(py 'b["x86_64-test-panic"]["verdict"]')" = PANIC ] || no "resumed boot verdict $(py 'b["x86_64-test-panic"]["verdict"]')"
[ "$(py '[g["verdict"] for g in j["groups"]]')" = "['FAIL', 'FAIL']" ] || no "resumed verdicts $(py '[g["verdict"] for g in j["groups"]]')"

[ $fail = 0 ] && echo "run-resume: all checks passed"
exit $fail
