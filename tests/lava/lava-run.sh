#!/bin/sh
# A boot through LAVA for real: Debian's lava-dispatcher (lava-run, no
# server) runs the jobs `bootproof boot --lava-out` writes, against a
# local QEMU device (TCG), the files served by python3 -m http.server on
# 127.0.0.1; `bootproof lava-results` reads each finished job back.
#  - every job validates with LAVA's own schema (lava_common, strict);
#  - the kernel booted here and through LAVA: the same verdict, the same
#    scenario results, check by check, and the same problems; the job's
#    monitor made one LAVA test case per KTAP result line;
#  - the same job read back as a LAVA server gives it (the log as "- "
#    lines, the job as REST JSON with its definition): the same record;
#  - a kernel that panics (the test-only crash scenario): PANIC through
#    LAVA; a kernel URL that answers 404: INFRA, never the kernel's.
# The kernel: Debian's (make setup installs it), or BP_LAVA_KERNEL.
# Env: BOOTPROOF, BP_KEEP=1 keeps the work directory.
set -u
BP=${BOOTPROOF:-./bootproof}
PY=/usr/bin/python3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEVICE=$ROOT/tests/lava/qemu-device.py

[ "$(id -u)" = 0 ] || { echo "SKIP-HOST: lava-run runs as root only"; exit 77; }
command -v lava-run >/dev/null 2>&1 ||
	{ echo "SKIP: no lava-run (make setup installs lava-dispatcher)"; exit 77; }
$PY -c 'import lava_common.schemas, yaml' 2>/dev/null ||
	{ echo "SKIP: no lava_common for $PY (make setup installs lava-common)"; exit 77; }
K=${BP_LAVA_KERNEL:-$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$K" ] && [ -f "$K" ] ||
	{ echo "SKIP: no Debian kernel in /boot (make setup installs linux-image-amd64)"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 ||
	{ echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/var/tmp}/bp-lava.XXXXXX")
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	[ "${BP_KEEP:-0}" = 1 ] && echo "kept $T" || rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail=0
no() { echo "FAIL: $*"; fail=1; }
rundir() { sed -n 's/^results: \(.*\)\/.*$/\1/p' "$1" | head -n 1; }
jobof() { sed -n 's/^LAVA job: //p' "$1"; }

# A free port on 127.0.0.1 for the web server.
PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT

# lava_run NAME JOB: lava-run with a device rendered from the job's
# context; its log (stderr) in $T/NAME.log.
lava_run() {
	$PY "$DEVICE" "$2" >"$T/$1.device.yaml" || { no "$1: no device config"; return 1; }
	t0=$(date +%s.%N)
	lava-run --job-id "bp-$$-$1" --output-dir "$T/$1.out" \
		--device "$T/$1.device.yaml" "$2" >"$T/$1.stdout" 2>"$T/$1.log"
	echo "$1: lava-run exit $? in $(echo "$(date +%s.%N) - $t0" | bc) s"
}

# ---------------------------------------------------------------- local
t0=$(date +%s.%N)
"$BP" boot --kernel "$K" --results "$T/local" >"$T/local.out" 2>"$T/local.err"
echo "local boot: exit $? in $(echo "$(date +%s.%N) - $t0" | bc) s"
cat "$T/local.out"
L=$(rundir "$T/local.out")
[ -n "$L" ] && [ -f "$L/run.json" ] || { no "no local run"; tail -n 20 "$T/local.err"; exit 1; }

# ---------------------------------------------------------------- emit
for j in ok crash; do
	sc=
	[ $j = crash ] && sc="--scenarios boot,crash"
	# shellcheck disable=SC2086
	"$BP" boot --kernel "$K" $sc --results "$T/runs" --lava-out "$T/pub" \
		--lava-url "$URL/" >"$T/$j.emit" 2>"$T/$j.emit.err" ||
		{ no "$j: boot --lava-out exit $?"; cat "$T/$j.emit.err"; }
done
OKJOB=$(jobof "$T/ok.emit")
OKRUN=$(rundir "$T/ok.emit")
CRJOB=$(jobof "$T/crash.emit")
CRRUN=$(rundir "$T/crash.emit")
[ -f "$OKJOB" ] && [ -f "$CRJOB" ] || { no "no jobs written"; exit 1; }
grep -q '"verdict":null' "$OKRUN/run.json" || no "the emitted record has a verdict"
# The same job with a kernel URL nothing answers.
sed 's|\(url: .*/kernels/[0-9a-f]*/\)|\1missing-|' "$OKJOB" >"$T/missing.yaml"
grep -q 'missing-' "$T/missing.yaml" || no "could not make the 404 job"
$PY - "$OKJOB" "$CRJOB" "$T/missing.yaml" <<'EOF' || no "a job fails LAVA's schema"
import sys, yaml
from lava_common.schemas import validate
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        validate(yaml.safe_load(f), strict=True)
    print("schema ok (strict):", path.rsplit("/", 1)[-1])
EOF
ls -R "$T/pub" | head -n 20

# ---------------------------------------------------------------- serve, run
(cd "$T/pub" && exec $PY -m http.server "$PORT" --bind 127.0.0.1) \
	>"$T/http.log" 2>&1 &
server=$!
i=0
until $PY -c "import urllib.request as u; u.urlopen('$URL/jobs/')" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || { no "the web server did not start"; exit 1; }
	sleep 0.1
done
lava_run ok "$OKJOB"
lava_run crash "$CRJOB"
lava_run missing "$T/missing.yaml"

# ---------------------------------------------------------------- read back
"$BP" lava-results "$OKRUN" --log "$T/ok.log" --job "$OKJOB" >"$T/ok.read"; rc=$?
cat "$T/ok.read"
[ $rc = 0 ] || no "lava-results of the good job: exit $rc"
$PY - "$L/run.json" "$OKRUN/run.json" "$T/ok.log" <<'EOF' || no "LAVA's record differs from the local boot's"
import json, re, sys
a = json.load(open(sys.argv[1]))["boots"][0]
b = json.load(open(sys.argv[2]))["boots"][0]
def view(r):
    return (r["verdict"],
            [(s["name"], s["result"], s["reason"],
              [(c["name"], c["status"]) for c in s["checks"]])
             for s in r["scenarios"]],
            sorted((p["kind"], p["title"]) for p in r["problems"]),
            r["kernel"]["banner"], r["cmdline"])
va, vb = view(a), view(b)
for x, y, what in zip(va, vb, ("verdict", "scenarios", "problems", "banner", "cmdline")):
    if x != y:
        print("local ", what, x)
        print("LAVA  ", what, y)
        sys.exit(1)
print("same verdict, scenarios (each check), problems, banner and command line:", va[0])
# The monitor: one LAVA test case per KTAP result line of the console.
cases = [l for l in open(sys.argv[3]) if '"lvl": "results"' in l and '"definition": "bootproof"' in l]
ktap = [l for l in open(sys.argv[1].rsplit("/", 1)[0] + "/console.log", errors="replace")
        if re.match(r"^ *(not )?ok [0-9]+ ", l)]
print("LAVA test cases:", len(cases), "KTAP result lines:", len(ktap))
sys.exit(0 if cases and len(cases) == len(ktap) else 1)
EOF
for f in console.log lava-log.yaml report.html junit.xml; do
	[ -s "$OKRUN/$f" ] || no "lava-results wrote no $f"
done
"$BP" diff "$L" "$OKRUN" >"$T/diff" 2>&1 || no "diff local LAVA: exit $?"
grep -q '^0 regressions, 0 fixes' "$T/diff" || { no "diff sees changes"; cat "$T/diff"; }

# The same job as a LAVA server's REST API gives it.
sed 's/^/- /' "$T/ok.log" >"$T/server-log.yaml"
$PY - "$OKJOB" "$T/ok.log" "$T/server-job.json" "$T/server-tests.json" <<'EOF'
import json, sys, yaml
definition = open(sys.argv[1], encoding="utf-8").read()
json.dump({"id": 4242, "description": yaml.safe_load(definition)["job_name"],
           "state": "Finished", "health": "Complete", "definition": definition,
           "failure_comment": None, "actual_device": "qemu-01"},
          open(sys.argv[3], "w"))
tests = []
for line in open(sys.argv[2], encoding="utf-8"):
    r = yaml.safe_load(line)
    if r.get("lvl") == "results" and r["msg"].get("definition") != "lava":
        tests.append({"id": len(tests) + 1, "name": r["msg"]["case"],
                      "result": r["msg"]["result"], "suite": 2})
json.dump({"count": len(tests), "next": None, "previous": None,
           "results": tests}, open(sys.argv[4], "w"))
EOF
cp "$OKRUN/run.json" "$T/first.json"
"$BP" lava-results "$OKRUN" --log "$T/server-log.yaml" --job "$T/server-job.json" \
	--tests "$T/server-tests.json" >"$T/server.read" || no "lava-results of the server files: exit $?"
$PY - "$T/first.json" "$OKRUN/run.json" <<'EOF' || no "the server's files give another record"
import json, sys
a = json.load(open(sys.argv[1]))["boots"][0]
b = json.load(open(sys.argv[2]))["boots"][0]
keys = ("verdict", "reason", "scenarios", "problems", "milestones", "ktap")
bad = [k for k in keys if a[k] != b[k]]
print("server files: same", ", ".join(keys) if not bad else "NOT " + ", ".join(bad))
assert b["lava"]["job_id"] == 4242 and b["lava"]["health"] == "Complete"
assert len(b["lava"]["server_tests"]) == len(b["lava"]["tests"]) > 0
sys.exit(1 if bad else 0)
EOF

"$BP" lava-results "$CRRUN" --log "$T/crash.log" --job "$CRJOB" >"$T/crash.read"; rc=$?
cat "$T/crash.read"
[ $rc = 1 ] || no "crash through LAVA: exit $rc, want 1"
grep -q ': PANIC (Kernel panic - not syncing: sysrq triggered crash)' "$T/crash.read" ||
	no "crash through LAVA is not PANIC"

# The 404 job is the good job's record's too: read it into a copy.
cp -r "$OKRUN" "$T/missing-run"
"$BP" lava-results "$T/missing-run" --log "$T/missing.log" --job "$T/missing.yaml" \
	>"$T/missing.read"; rc=$?
cat "$T/missing.read"
[ $rc = 3 ] || no "404 through LAVA: exit $rc, want 3"
grep -Eq ': INFRA \(LAVA Job error before the kernel printed anything: .*\(404\)' \
	"$T/missing.read" || no "a 404 is not INFRA"

# Bad input: a log that is not one, a job of another run.
"$BP" lava-results "$OKRUN" --log "$OKJOB" >/dev/null 2>"$T/e1"; rc=$?
[ $rc = 2 ] && grep -q 'not a LAVA job log' "$T/e1" || no "a job file as log: exit $rc"
"$BP" lava-results "$OKRUN" --log "$T/crash.log" --job "$CRJOB" >/dev/null 2>"$T/e2"; rc=$?
[ $rc = 2 ] && grep -q "the job is run .*'s, not" "$T/e2" || no "another run's job: exit $rc"
"$BP" boot --kernel "$K" --lava-out "$T/x" >/dev/null 2>"$T/e3"; rc=$?
[ $rc = 2 ] && grep -q 'go together' "$T/e3" || no "--lava-out alone: exit $rc"
"$BP" boot --kernel "$K" --lava-out "$T/x" --lava-url ftp://x/ >/dev/null 2>"$T/e4"; rc=$?
[ $rc = 2 ] && grep -q 'not an http' "$T/e4" || no "an ftp URL: exit $rc"

[ $fail = 0 ] && echo "lava: the same kernel here and through LAVA agrees; PANIC and INFRA through LAVA"
exit $fail
