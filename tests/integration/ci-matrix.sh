#!/bin/sh
# The CI matrix of docs/ci/ run here, with bootproof's fake stages
# (tests/tools/fakestages.c: no kernel, no guest, so the whole seed plan
# takes seconds):
#  - each CI file is read with a YAML parser (tests/tools/ci-commands.py)
#    and its jobs' bootproof commands run as the CI would run them: every
#    shard job (GitHub's matrix, GitLab's parallel), then the merge job;
#  - the merged run equals one unsharded run of the plan: the group
#    verdicts, every candidate (identity, .config hash, verdict, scenario
#    results) and the exit code, once with every scenario passing and once
#    with one failing in every boot (groups FAIL, exit 1); the merge job's
#    junit.xml, report.html and KCIDB document exist (the latter valid
#    against KCIDB's schema when ../shared has it);
#  - a shard run again makes the same split;
#  - the merge refuses, exit 2 with its reason: a shard missing, a shard
#    twice, a shard of another plan, one of another kernel tree, an OUT
#    that exists.
set -u
FAKE=${BOOTPROOF_FAKESTAGES:-build/tests/bootproof-fakestages}
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

case $FAKE in /*) ;; *) FAKE=$top/$FAKE ;; esac
[ -x "$FAKE" ] || { echo "FAIL: no $FAKE (make build/tests/bootproof-fakestages)"; exit 1; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml missing (make setup installs it)"; exit 77; }
export BOOTPROOF_DATADIR=$top

# same MERGED_RUN_JSON UNSHARDED_RUN_JSON: what must be equal
same() {
	python3 - "$1" "$2" <<'PYEOF'
import json, sys
m, a = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
if m["groups"] != a["groups"]:
    bad.append("group verdicts differ")
mb = {b["candidate"]["id"]: b for b in m["boots"]}
ab = {b["candidate"]["id"]: b for b in a["boots"]}
if list(mb) != list(ab):
    bad.append("candidates %r against %r" % (list(mb), list(ab)))
for i in ab:
    x, y = mb.get(i, {}), ab[i]
    for k in ("candidate", "verdict", "scenarios"):
        if x.get(k) != y.get(k):
            bad.append("%s: %s differs" % (i, k))
    h = (x.get("build") or {}).get("config_hash")
    if not h or h != (y.get("build") or {}).get("config_hash"):
        bad.append("%s: config hash %r against %r" % (i, h, (y.get("build") or {}).get("config_hash")))
if m["exit_code"] != a["exit_code"] or not m["complete"]:
    bad.append("exit code %r against %r (complete %r)" % (m["exit_code"], a["exit_code"], m["complete"]))
for b in bad:
    print("FAIL: merged run: " + b)
print("%d candidates, %d group verdicts equal, exit %s" % (len(ab), len(a["groups"]), a["exit_code"]))
sys.exit(1 if bad else 0)
PYEOF
}

# ci NAME FILE [FAIL_SCENARIO]: the CI file's jobs in $T/NAME; sets $W
ci() {
	W=$T/$1
	mkdir -p "$W"
	ln -sf "$FAKE" "$W/bootproof"
	n=$(cd "$W" && python3 "$top/tests/tools/ci-commands.py" "$1" "$top/docs/ci/$2" scripts) ||
		{ no "$2: cannot read its jobs"; return 1; }
	echo "$2: $n shard jobs"
	worst=0
	for k in $(seq 1 "$n"); do
		(cd "$W" && BP_FAKE_FAIL=${3:-} sh scripts/shard-$k.sh) >"$W/shard-$k.log" 2>&1
		rc=$?
		echo "  shard $k/$n: exit $rc"
		case $rc in 0) ;; 1) worst=1 ;; *) no "$2: shard $k exit $rc"; tail -n 5 "$W/shard-$k.log" ;; esac
	done
	(cd "$W" && sh scripts/merge.sh) >"$W/merge.log" 2>&1
	rc_merge=$?
	echo "  merge: exit $rc_merge"
	plan=$(sed -n "s/^export PLAN=//p" "$W/scripts/merge.sh" | tr -d "'")
	(cd "$W" && BP_FAKE_FAIL=${3:-} ./bootproof run "$plan" --results all) >"$W/all.log" 2>&1
	rc_all=$?
	echo "  the plan unsharded ($plan): exit $rc_all"
	[ "$rc_merge" = "$rc_all" ] || { no "$2: merge exit $rc_merge, the unsharded run $rc_all"; tail -n 5 "$W/merge.log"; }
	[ "$worst" = "$rc_all" ] || no "$2: the shards' worst exit $worst, the unsharded run $rc_all"
	same "$W/merged/run.json" "$W"/all/*/run.json || no "$2: merged run differs from the unsharded one"
	for f in junit.xml report.html kcidb.json; do
		[ -s "$W/merged/$f" ] || no "$2: merged/$f missing"
	done
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not d["builds"])' \
		"$W/merged/kcidb.json" 2>/dev/null || no "$2: merged/kcidb.json has no builds"
	if [ -n "$SCHEMA" ]; then
		python3 "$top/tests/tools/kcidb-validate.py" "$SCHEMA" "$W/merged/kcidb.json" ||
			no "$2: merged/kcidb.json does not validate"
	fi
}

# KCIDB's schema (tests/integration/kcidb.sh requires it; here optional)
SCHEMA=
for d in ${BP_SHARED:-} "$top/../shared" "$top/../../shared" "$top/../../../shared"; do
	[ -f "$d/schemas/kcidb-v5.3.schema.json" ] &&
		{ SCHEMA=$d/schemas/kcidb-v5.3.schema.json; break; }
done
python3 -c 'import jsonschema' 2>/dev/null || SCHEMA=""

ci github github-actions.yml
ci gitlab gitlab-ci.yml
# A scenario failing in every boot: the groups that run it FAIL, in the
# shards that decide them and in the merged run alike.
rm -rf "$T/github"
ci github github-actions.yml userfaultfd
grep -q '"verdict": *"FAIL"' "$T/github/merged/run.json" || no "no group FAILed with userfaultfd failing"

# The same split every time; then what the merge refuses.
W=$T/gitlab
cd "$W" || exit 1
s1=$(ls -d shards/*/ | head -n 1)
k=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["shard"]["index"])' "$s1/run.json")
CI_NODE_INDEX=$k CI_NODE_TOTAL=4 ./bootproof run seed-x86 --shard "$k/4" --shard-by order --results again >/dev/null 2>&1
again=$(ls -d again/*/)
python3 - "$s1/run.json" "$again/run.json" <<'PYEOF' || no "shard $k split otherwise the second time"
import json, sys
a, b = (json.load(open(p))["shard"]["split"] for p in sys.argv[1:3])
sys.exit(a != b)
PYEOF

# refused CODE REGEX OUT DIR...: bootproof merge exits CODE saying REGEX
refused() {
	code=$1 re=$2
	shift 2
	./bootproof merge "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" = "$code" ] || no "merge $*: exit $rc, not $code"
	grep -q -- "$re" "$T/err" || { no "merge: stderr lacks '$re'"; cat "$T/err"; }
	[ "$code" != 2 ] || [ "$1" = merged ] || [ ! -e "$1" ] || no "merge $*: refused, but $1 was made"
}
others=$(ls -d shards/*/ | grep -v "^$s1\$")
# shellcheck disable=SC2086
# (which candidates are in it depends on the build times the cache knows)
refused 2 "shard $k/4 is missing: nobody ran its candidates (" m1 $others
# shellcheck disable=SC2086
refused 2 "are both shard $k/4: their candidates would be merged twice" m2 shards/*/ $again
./bootproof run demo --shard "$k/4" --shard-by order --results other >/dev/null 2>&1
# shellcheck disable=SC2086
refused 2 "ran another plan: its \"name\" differs" m3 $others other/*/
./bootproof run seed-x86 --shard "$k/4" --shard-by order --ksrc /other/linux --results tree >/dev/null 2>&1
# shellcheck disable=SC2086
refused 2 "ran on another kernel tree: /other/linux" m4 $others tree/*/
refused 2 "merged exists" merged shards/*/
refused 2 "expected OUT and at least one SHARD_DIR" m5

[ $fail = 0 ] && echo "ci-matrix: all checks passed"
exit $fail
