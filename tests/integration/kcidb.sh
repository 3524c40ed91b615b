#!/bin/sh
# bootproof kcidb on recorded runs (tests/data/runs: real boots, a real
# matrix run of the cost plan, synthetic matrices): every document
# validates against KCIDB's own v5.3 schema (../shared/schemas, checked
# with Debian's python3-jsonschema by tests/tools/kcidb-validate.py), and
# the statuses a dashboard shows are the ones core/kcidb.h promises: a
# panic FAIL, a build break FAIL, a skipped scenario SKIP, an
# infrastructure boot ERROR/MISS.  Bad input: exit 2 naming the option.
set -u
BP=${BOOTPROOF:-./bootproof}
PY=/usr/bin/python3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shared/ stands beside the checkout (CI's clone, ../shared/tools/fresh-ci.sh),
# or beside a folder above it (a git worktree); BP_SHARED names it outright.
SCHEMA=
for d in ${BP_SHARED:-} "$ROOT/../shared" "$ROOT/../../shared" "$ROOT/../../../shared"; do
	[ -f "$d/schemas/kcidb-v5.3.schema.json" ] &&
		{ SCHEMA=$d/schemas/kcidb-v5.3.schema.json; break; }
done
R=tests/data/runs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -n "$SCHEMA" ] || { echo "FAIL: no shared/schemas/kcidb-v5.3.schema.json beside $ROOT (set BP_SHARED)"; exit 1; }
$PY -c 'import jsonschema' 2>/dev/null ||
	{ echo "FAIL: python3-jsonschema missing (make setup installs it)"; exit 1; }

# status PATH-SUFFIX: the status of the test or build whose id ends so.
status() {
	$PY - "$1" "$2" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for o in doc.get("builds", []) + doc.get("tests", []):
    if o["id"].endswith(sys.argv[2]):
        print(o.get("status", "none"))
        break
else:
    print("absent")
PYEOF
}
want() { # doc suffix status
	got=$(status "$1" "$2")
	[ "$got" = "$3" ] || no "$(basename "$1"): $2 is $got, want $3"
}

for run in boot-debian61 boot-debian61-crash matrix-synthetic \
	matrix-hostile-synthetic cost-x86_64; do
	"$BP" kcidb "$R/$run" --base-url "http://127.0.0.1:8000/$run/" \
		>"$T/$run.json" 2>"$T/err" ||
		{ no "$run: exit $? ($(cat "$T/err"))"; continue; }
done
$PY tests/tools/kcidb-validate.py "$SCHEMA" "$T"/*.json || no "schema"

want "$T/boot-debian61.json" ":x86_64:boot" PASS
want "$T/boot-debian61.json" ":bootproof.kgdb" SKIP
want "$T/boot-debian61-crash.json" ":x86_64:boot" FAIL
want "$T/boot-debian61-crash.json" ":bootproof.crash" ERROR
want "$T/matrix-synthetic.json" ":x86_64-demo-userfaultfd" FAIL
want "$T/matrix-synthetic.json" ":x86_64-demo-kgdb:boot" FAIL
want "$T/matrix-synthetic.json" ":i386-demo-userfaultfd:bootproof.userfaultfd" SKIP
# the real matrix run (the cost plan): every build and boot PASS
want "$T/cost-x86_64.json" ":x86_64-base" PASS
want "$T/cost-x86_64.json" ":x86_64-demo-bpf:boot" PASS
want "$T/cost-x86_64.json" ":x86_64-demo-bpf:bootproof.bpf" PASS

# An infrastructure failure of the same real boot: never FAIL.
mkdir -p "$T/infra"
$PY - "$R/boot-debian61/run.json" "$T/infra/run.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["boots"][0]
b["verdict"] = "INFRA"
b["reason"] = "libvirt: connection lost"
b["milestones"] = []
b["kernel"]["banner"] = None
json.dump(d, open(sys.argv[2], "w"))
PYEOF
"$BP" kcidb "$T/infra" -o "$T/infra.json" || no "infra: exit $?"
want "$T/infra.json" ":x86_64:boot" MISS
$PY tests/tools/kcidb-validate.py "$SCHEMA" "$T/infra.json" || no "infra schema"

# -o writes the same document as stdout.
"$BP" kcidb "$R/boot-debian61" --base-url "http://127.0.0.1:8000/boot-debian61/" \
	-o "$T/o.json" && cmp -s "$T/o.json" "$T/boot-debian61.json" ||
	no "-o and stdout differ"

# Bad input.
"$BP" kcidb "$R/boot-debian61" --origin Bad-Lab >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || no "--origin Bad-Lab: exit $rc, want 2"
grep -q "Bad-Lab" "$T/err" || no "--origin error does not name the value: $(cat "$T/err")"
"$BP" kcidb "$T/no-such-run" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || no "missing run: exit $rc, want 2"
grep -q "no-such-run" "$T/err" || no "missing run: error does not name it"

[ $fail -eq 0 ] && echo "kcidb: all checks passed"
exit $fail
