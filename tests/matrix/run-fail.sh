#!/bin/sh
# bootproof run on real kernel builds and boots (docs/run.md;
# `make check-matrix`, not `make check`: bad input is tests/integration/run-input.sh):
#  - scenarios/plans/test-fail.plan (the demo base plus one test group per
#    candidate, tests/data/groups/x86_64/): the group whose options break
#    the build (WERROR with FRAME_WARN=16) is FAIL at the build stage with
#    the compiler's "file:line:col: error:" line; the group whose kernel
#    panics (a built-in command line naming a missing init) is FAIL at the
#    boot stage with PANIC and the panic message; exit 1; the run
#    directory has run.json (complete), junit.xml, report.html and each
#    candidate's final config and build log
#  - the same plan again builds nothing (every build is found in the cache,
#    the failing one as a recorded failure) and takes a fraction of the
#    first run's time when that one built anything
#  - a baseline run of the same plan with harmless groups of the same names
#    passes (both PASS, exit 0), and `bootproof diff BASELINE FAILING`
#    exits 1 and lists both groups as regressions PASS -> FAIL, with the
#    build and boot regressions of their candidates
# Kernel builds go through the cache (ccache, artifacts by .config hash), so
# only the first run on a machine builds: about 6 minutes on 2 idle cores
# (the baseline's kernel; the panic kernel differs from it in a few objects,
# the build-break one fails at its first file).
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
now() { date +%s; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read run.json"; exit 77; }
[ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${BP_KSRC:-}" ] ||
	{ echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
KSRC_ARG=${BP_KSRC:+--ksrc $BP_KSRC}

# run N: the test plan, its run directory in $T/dN
run() {
	t0=$(now)
	# shellcheck disable=SC2086
	nice "$BP" run "$top/scenarios/plans/test-fail.plan" $KSRC_ARG \
		--results "$T/r$1" >"$T/out$1" 2>"$T/err$1"
	rc=$?
	secs=$(($(now) - t0))
	echo "run $1: exit $rc in $secs s"
	cat "$T/out$1"
	grep -v '^  ' "$T/err$1" | tail -n 20
	d=$(sed -n 's/^results: \(.*\)\/$/\1/p' "$T/out$1")
	[ -n "$d" ] && [ -f "$d/run.json" ] || { no "run $1: no run directory"; exit 1; }
	ln -sfn "$d" "$T/d$1"
}

# check N: assertions on run N's run.json (prints FAIL lines)
check() {
	python3 - "$T/d$1" "$1" <<'EOF' || no "run $2 checks"
import json, os, re, sys
d, n = sys.argv[1], sys.argv[2]
j = json.load(open(os.path.join(d, "run.json")))
bad = []
def expect(c, msg):
    if not c:
        bad.append(msg)
expect(j["command"] == "run" and j["complete"] is True and j["exit_code"] == 1,
       "run.json: complete %r exit_code %r" % (j["complete"], j["exit_code"]))
expect(j["plan"]["name"] == "test-fail" and j["plan"]["arches"] == ["x86_64"],
       "plan %r" % j["plan"])
g = {(v["group"], v["arch"]): v for v in j["groups"]}
expect(sorted(g) == [("test-build-break", "x86_64"), ("test-panic", "x86_64")],
       "groups %r" % sorted(g))
b = {r["candidate"]["id"]: r for r in j["boots"]}
expect(sorted(b) == ["x86_64-test-build-break", "x86_64-test-panic"], "candidates %r" % sorted(b))

v = g[("test-build-break", "x86_64")]
expect(v["verdict"] == "FAIL" and v["stage"] == "build", "build-break: %r" % v)
expect(re.search(r"build failed: [\w/.-]+\.[ch]:\d+:\d+: error: the frame size of \d+ bytes is larger than 16 bytes", v["reason"] or ""),
       "build-break reason: %r" % v["reason"])
r = b["x86_64-test-build-break"]
expect(r["config"]["result"] == "pass" and r["config"]["dropped"] == 0, "build-break config %r" % r["config"]["result"])
opts = {o["option"]: o for o in r["config"]["options"] if o["group"] == "test-build-break"}
expect(opts.get("WERROR", {}).get("status") == "kept" and opts.get("FRAME_WARN", {}).get("final") == "16",
       "build-break options %r" % opts)
expect(r["build"]["result"] == "fail" and r["verdict"] is None, "build-break build %r" % r["build"]["result"])
expect(re.match(r"[\w/.-]+:\d+:\d+: error: ", r["build"]["first_error"] or ""), "first_error %r" % r["build"]["first_error"])
log = os.path.join(d, r["build"]["log"])
expect(os.path.isfile(log) and r["build"]["first_error"] in open(log, errors="replace").read(),
       "the first error is not in %s" % log)
expect(len(r["build"]["config_hash"]) == 64, "config_hash")

v = g[("test-panic", "x86_64")]
expect(v["verdict"] == "FAIL" and v["stage"] == "boot", "panic: %r" % v)
expect("PANIC" in (v["reason"] or "") and "Requested init /nonexistent failed" in (v["reason"] or ""),
       "panic reason: %r" % v["reason"])
r = b["x86_64-test-panic"]
expect(r["build"]["result"] in ("pass", "reused") and os.path.isfile(r["build"]["artifacts"]["bzImage"]),
       "panic build %r" % r["build"])
expect(r["verdict"] == "PANIC", "panic verdict %r" % r["verdict"])
expect(os.path.isfile(os.path.join(d, r["files"]["console"])), "no console log")
for f in ("junit.xml", "report.html", "x86_64-test-panic/config", "x86_64-test-panic/build.log",
          "x86_64-test-build-break/config"):
    expect(os.path.isfile(os.path.join(d, f)), "missing %s" % f)
expect('name="build"' in open(os.path.join(d, "junit.xml")).read(), "junit has no build case")
open(os.path.join(d, "builds"), "w").write(" ".join(b[k]["build"]["result"] + ("(reused)" if b[k]["build"].get("reused") else "") for k in sorted(b)))
for m in bad:
    print("FAIL: run %s: %s" % (n, m))
sys.exit(1 if bad else 0)
EOF
}

# 2. The baseline: groups of the same names that change nothing (options
# the base has already): the same .config for both, built once, booted.
mkdir -p "$T/good"
for g in test-build-break test-panic; do
	printf '# group: %s\n# scenarios: boot\n# summary: harmless: an option the base has\nCONFIG_PRINTK=y\n' "$g" \
		>"$T/good/$g.config"
done
t0=$(now)
# shellcheck disable=SC2086
nice "$BP" run "$top/scenarios/plans/test-fail.plan" $KSRC_ARG \
	--group "$T/good/test-build-break.config" --group "$T/good/test-panic.config" \
	--results "$T/r0" >"$T/out0" 2>"$T/err0"; rc=$?
echo "baseline: exit $rc in $(($(now) - t0)) s"
cat "$T/out0"
[ $rc = 0 ] || { no "baseline run: exit $rc, not 0"; grep -v '^  ' "$T/err0" | tail -n 20; }
d0=$(sed -n 's/^results: \(.*\)\/$/\1/p' "$T/out0")
grep -q '^test-build-break  *PASS' "$T/out0" && grep -q '^test-panic  *PASS' "$T/out0" ||
	no "baseline: the harmless groups are not PASS"

# 3. The failing groups.
run 1
t1=$secs
[ $rc = 1 ] || no "run 1: exit $rc, not 1"
check 1 1
echo "run 1 builds: $(cat "$T/d1/builds")"

# 3b. Again: nothing is built.
run 2
t2=$secs
[ $rc = 1 ] || no "run 2: exit $rc, not 1"
check 2 2
echo "run 2 builds: $(cat "$T/d2/builds")"
[ "$(cat "$T/d2/builds")" = "fail(reused) reused(reused)" ] || no "run 2 built something: $(cat "$T/d2/builds")"
grep -q "not built again" "$T/d2/run.json" || no "run 2: the recorded failure does not say it was not built again"
case "$(cat "$T/d1/builds")" in
*"(reused)"*"(reused)"*) echo "run 1 found everything built already: no time comparison" ;;
*) [ $((t2 * 2)) -lt "$t1" ] || no "run 2 took $t2 s, not a fraction of run 1's $t1 s" ;;
esac

# 4. bootproof diff: both groups regressed, and why.
if [ -n "$d0" ] && [ -f "$d0/run.json" ]; then
	"$BP" diff "$d0" "$T/d1" >"$T/diff" 2>"$T/diff.err"; rc=$?
	cat "$T/diff"
	[ $rc = 1 ] || { no "diff baseline failing: exit $rc, not 1"; cat "$T/diff.err"; }
	for re in 'group  *test-build-break/x86_64: PASS -> FAIL' 'group  *test-panic/x86_64: PASS -> FAIL' \
		'build  *x86_64-test-build-break: [a-z]* -> fail' 'boot  *x86_64-test-panic: BOOTED -> PANIC'; do
		sed -n '/^regressions/,/^[a-z]/p' "$T/diff" | grep -q "$re" || no "diff: no regression '$re'"
	done
	"$BP" diff "$T/d1" "$d0" >"$T/diff2" 2>&1; rc=$?
	[ $rc = 0 ] || no "diff failing baseline: exit $rc, not 0 (nothing regressed)"
	grep -q 'test-panic/x86_64: FAIL -> PASS' "$T/diff2" || no "diff failing baseline: test-panic not fixed"
fi

[ $fail = 0 ] && echo "run-fail: all checks passed (first run ${t1}s, second ${t2}s)"
exit $fail
