#!/bin/sh
# bootproof cost on recorded runs (tests/data/runs/, README.md there):
#  - the real cost run (cost-x86_64): the text has each group against the
#    base with its build, size, boot and config lines, and --json has the
#    figures of the run's recorded "costs" (the same pipeline computed
#    both; the explaining sentences may have been reworded since, and a
#    figure added after the recording is null for it, i.e. unknown);
#  - a synthetic matrix recorded before build measures: unknowns, exit 0;
#  - bad input exits 2 naming it: no such directory, a single boot, a
#    matrix without a base candidate, no argument.
set -u
BP=${BOOTPROOF:-./bootproof}
D=$(cd "$(dirname "$0")/../data/runs" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }

# expect CODE REGEX ARGS...: bootproof cost ARGS exits CODE, stderr matches
expect() {
	code=$1 re=$2
	shift 2
	"$BP" cost "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" = "$code" ] || no "cost $*: exit $rc, not $code"
	grep -q -- "$re" "$T/err" || { no "cost $*: stderr lacks '$re'"; cat "$T/err"; }
}

r=$D/cost-x86_64
if "$BP" cost "$r" >"$T/text" 2>"$T/err"; then
	for g in demo-bpf demo-userfaultfd; do
		grep -q "^x86_64 $g  (x86_64-$g against x86_64-base)" "$T/text" ||
			no "cost: no $g entry"
	done
	for l in '  build   objects      +' '          CPU (clean)  ' \
		'          incremental  ' '  size    bzImage      +' \
		'          vmlinux text ' '  boot    (' '          to init      ' \
		'  config  '; do
		grep -qF -- "$l" "$T/text" || no "cost: no line '$l'"
	done
	echo "ok cost: text of the real cost run"
else
	no "cost $r: exit $?: $(cat "$T/err")"
fi
"$BP" cost --json "$r" >"$T/json" 2>"$T/err" || no "cost --json: $(cat "$T/err")"
if python3 - "$T/json" "$r/run.json" <<'PY'
import json, sys
SENTENCES = ("method", "why", "boot_why")  # their wording may change
def unknown(o):  # null, or an object of nulls: what an older record cannot say
    if isinstance(o, dict):
        return all(unknown(v) for v in o.values())
    return o is None
def diff(got, want, path):
    if isinstance(got, dict) and isinstance(want, dict):
        out = []
        for k in sorted(set(got) | set(want)):
            if k in SENTENCES:
                continue
            if k not in want and unknown(got[k]):
                continue  # a figure added after the recording, unknown for it
            if k not in got or k not in want:
                out.append("%s/%s: only in %s" % (path, k, "the recomputed" if k in got else "run.json"))
                continue
            out += diff(got[k], want[k], path + "/" + k)
        return out
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            return ["%s: %d entries, run.json %d" % (path, len(got), len(want))]
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in diff(g, w, "%s/%d" % (path, i))]
    return [] if got == want else ["%s: %r, run.json %r" % (path, got, want)]
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))["costs"]
d = diff(got, want, "costs")
if d:
    print("\n".join(d))
sys.exit(1 if d else 0)
PY
then
	echo "ok cost --json: the run's recorded costs"
else
	no "cost --json differs from run.json's costs"
fi

cp -r "$D/matrix-synthetic" "$T/ms"
"$BP" cost "$T/ms" >"$T/out" 2>"$T/err" || no "cost matrix-synthetic: $(cat "$T/err")"
grep -q "objects      unknown" "$T/out" || no "matrix-synthetic: objects not unknown"

expect 2 "no-such-dir" "$T/no-such-dir"
expect 2 "not a matrix run" "$D/boot-debian61"
expect 2 "candidates base each" "$D/matrix-hostile-synthetic"
expect 2 "expected one RUN_DIR"
echo "ok cost: bad input exits 2 naming it"
exit $fail
