#!/bin/sh
# Two shards of a plan merged equal one run of it, on real config stages,
# builds and boots (docs/scale-out.md; `make check-matrix`):
#  - scenarios/plans/test-fail.plan with its base candidate too
#    (--candidates base each: the demo base alone, a group that breaks the
#    build, one whose kernel panics) run whole, then as shards 1/2 and 2/2
#    (split by cost: the build cache run-fail.sh filled knows every build)
#    and merged: the same candidates, .config hashes, verdicts, scenario
#    results, group verdicts (PASS for nothing, FAIL at build and at boot)
#    and exit code (1); each shard ran only its own candidates;
#  - the merged run's junit.xml and report.html exist, `bootproof diff`
#    finds nothing between it and the whole run, and the merge refuses a
#    shard given twice (exit 2).
# Uses the build cache that run-fail.sh fills (run alone it builds first).
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
PLAN=$top/scenarios/plans/test-fail.plan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read run.json"; exit 77; }
[ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${BP_KSRC:-}" ] ||
	{ echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
KSRC_ARG=${BP_KSRC:+--ksrc $BP_KSRC}

# run NAME ARGS...: bootproof run of the plan into $T/NAME; prints its
# exit code and run directory
run() {
	name=$1
	shift
	t0=$(date +%s)
	# shellcheck disable=SC2086
	nice "$BP" run "$PLAN" --candidates base --candidates each $KSRC_ARG \
		--results "$T/$name" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	echo "$name: exit $rc in $(($(date +%s) - t0)) s: $(ls -d "$T/$name"/*/ 2>/dev/null)"
	grep -v '^  ' "$T/$name.err" | tail -n 8
}

run all
rc_all=$rc
run s1 --shard 1/2
run s2 --shard 2/2
all=$(ls -d "$T"/all/*/ | head -n 1)
s1=$(ls -d "$T"/s1/*/ | head -n 1)
s2=$(ls -d "$T"/s2/*/ | head -n 1)
[ -n "$all" ] && [ -n "$s1" ] && [ -n "$s2" ] || { no "a run made no run directory"; exit 1; }

"$BP" merge "$T/merged" "$s2" "$s1" >"$T/merge.out" 2>"$T/merge.err"
rc_merge=$?
cat "$T/merge.out"
echo "merge: exit $rc_merge, the whole run $rc_all"
[ "$rc_merge" = "$rc_all" ] || no "merge exit $rc_merge, the whole run's $rc_all"
[ "$rc_all" = 1 ] || no "the whole run: exit $rc_all, not 1"

python3 - "$T/merged/run.json" "$all/run.json" "$s1/run.json" "$s2/run.json" <<'PYEOF' || fail=1
import json, sys
m, a, s1, s2 = (json.load(open(p)) for p in sys.argv[1:5])
bad = []
if m["groups"] != a["groups"]:
    bad.append("group verdicts: merged %r, whole %r" % (
        [(g["group"], g["verdict"], g["stage"]) for g in m["groups"]],
        [(g["group"], g["verdict"], g["stage"]) for g in a["groups"]]))
ids = lambda d: [b["candidate"]["id"] for b in d["boots"]]
if ids(m) != ids(a):
    bad.append("candidates %r against %r" % (ids(m), ids(a)))
sc = lambda b: [(s["name"], s["result"]) for s in b.get("scenarios", [])]
for x, y in zip(m["boots"], a["boots"]):
    i = y["candidate"]["id"]
    hx, hy = (x.get("build") or {}).get("config_hash"), (y.get("build") or {}).get("config_hash")
    if not hy or hx != hy:
        bad.append("%s: config hash %s against %s" % (i, hx, hy))
    if x["verdict"] != y["verdict"] or sc(x) != sc(y):
        bad.append("%s: %s %s against %s %s" % (i, x["verdict"], sc(x), y["verdict"], sc(y)))
    cand = {k: v for k, v in x["candidate"].items()}
    if cand != y["candidate"]:
        bad.append("%s: candidate differs" % i)
    print("%-26s %s  build %-6s boot %s" % (i, (hy or "-")[:12], (y.get("build") or {}).get("result"), y["verdict"]))
for g in a["groups"]:
    print("group %-18s %s%s" % (g["group"], g["verdict"], " at " + g["stage"] if g["stage"] else ""))
# each shard ran its own candidates only
for s in (s1, s2):
    k = s["shard"]["index"]
    own = [e["id"] for e in s["shard"]["split"] if e["shard"] == k]
    ran = [b["candidate"]["id"] for b in s["boots"] if (b.get("config") or {}).get("result")]
    if sorted(own) != sorted(ran):
        bad.append("shard %d ran %r, its split says %r" % (k, ran, own))
    print("shard %d/2 (by %s): %s" % (k, s["shard"]["by"], ", ".join(own)))
if s1["shard"]["split"] != s2["shard"]["split"]:
    bad.append("the shards split differently")
# the whole run built everything: the cache knows every cost
if s1["shard"]["by"] != "cost" or None in [e["cost"] for e in s1["shard"]["split"]]:
    bad.append("not split by known costs: %r" % s1["shard"])
for b in bad:
    print("FAIL: " + b)
print("merged run %s = whole run %s" % (m["run_id"], a["run_id"]) if not bad else "")
sys.exit(1 if bad else 0)
PYEOF

for f in junit.xml report.html x86_64-test-panic/console.log x86_64-base/config; do
	[ -s "$T/merged/$f" ] || no "merged run lacks $f"
done
"$BP" diff "$all" "$T/merged" >"$T/diff" 2>&1 || { no "diff whole merged: exit $?"; cat "$T/diff"; }
"$BP" merge "$T/twice" "$s1" "$s1" >/dev/null 2>"$T/twice.err"; rc=$?
[ $rc = 2 ] && grep -q "are both shard 1/2" "$T/twice.err" || no "a shard given twice: exit $rc, $(cat "$T/twice.err")"

[ $fail = 0 ] && echo "run-shard: all checks passed"
exit $fail
