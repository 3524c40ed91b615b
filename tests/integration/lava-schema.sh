#!/bin/sh
# LAVA jobs offline (no boot; the boots are make check-lava's): every job
# `bootproof boot --lava-out` writes, and every job in tests/data/lava/,
# validates against LAVA's own schema (Debian's lava-common:
# lava_common.schemas.validate, strict); the folder holds what the job
# downloads, at the URLs it names, with the sha256 it gives; the run's
# record waits for LAVA; bad input is exit 2.
set -u
BP=${BOOTPROOF:-./bootproof}
PY=/usr/bin/python3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
$PY -c 'import lava_common.schemas, yaml' 2>/dev/null ||
	{ echo "SKIP: no lava_common for $PY (make setup installs lava-common)"; exit 77; }
K=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$K" ] || { echo "SKIP: no Debian kernel in /boot (make setup installs linux-image-amd64)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

"$BP" boot --kernel "$K" --results "$T/runs" --lava-out "$T/pub" \
	--lava-url "http://127.0.0.1:8000/lab/" >"$T/out" 2>"$T/err"; rc=$?
cat "$T/out"
[ $rc = 0 ] || { no "boot --lava-out: exit $rc"; cat "$T/err"; }
JOB=$(sed -n 's/^LAVA job: //p' "$T/out")
RUN=$(sed -n 's/^results: \(.*\)\/ .*$/\1/p' "$T/out")
[ -f "$JOB" ] || { no "no job written"; exit 1; }
$PY - "$JOB" "$ROOT"/tests/data/lava/*.job.yaml "$ROOT/tests/data/lava/job-golden.yaml" <<'EOF' || no "a job fails LAVA's schema"
import sys, yaml
from lava_common.schemas import validate
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        validate(yaml.safe_load(f), strict=True)
    print("schema ok (strict):", path.rsplit("/", 1)[-1])
EOF
# Each URL is a file of the folder, with the job's sha256.
$PY - "$JOB" "$T/pub" "http://127.0.0.1:8000/lab/" <<'EOF' || no "the folder does not hold what the job downloads"
import hashlib, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
images = job["actions"][0]["deploy"]["images"]
assert set(images) == {"kernel", "ramdisk", "rootfs"}, images
for label, img in images.items():
    assert img["url"].startswith(sys.argv[3]), img["url"]
    path = sys.argv[2] + "/" + img["url"][len(sys.argv[3]):]
    h = hashlib.sha256(open(path, "rb").read()).hexdigest()
    assert h == img["sha256sum"], (label, h)
    print(label, "->", path[len(sys.argv[2]) + 1:], "sha256 ok")
ctx = job["context"]
assert ctx["arch"] == "x86_64" and ctx["memory"] == 1024, ctx
assert "-smp 2" in ctx["extra_options"], ctx
assert "-append" in images["kernel"]["image_arg"]
EOF
grep -q '"verdict":null' "$RUN/run.json" || no "the record has a verdict"
grep -q '"lava":{' "$RUN/run.json" || no "the record has no lava member"
"$BP" report "$RUN" >/dev/null || no "report of a run waiting for LAVA"

"$BP" boot --kernel "$K" --lava-url http://x/ >/dev/null 2>"$T/e1"; rc=$?
[ $rc = 2 ] && grep -q 'go together' "$T/e1" || no "--lava-url alone: exit $rc"
"$BP" boot --kernel "$K" --lava-out "$T/x" --lava-url file:///x >/dev/null 2>"$T/e2"; rc=$?
[ $rc = 2 ] && grep -q 'not an http' "$T/e2" || no "a file: URL: exit $rc"
"$BP" boot --kernel "$K" --scenarios none --lava-out "$T/x" --lava-url http://x/ \
	>/dev/null 2>"$T/e3"; rc=$?
[ $rc = 2 ] && grep -q 'reports through the agent' "$T/e3" || no "--scenarios none: exit $rc"
"$BP" boot --kernel "$K" --cmdline 'x="a b"' --lava-out "$T/x" --lava-url http://x/ \
	>/dev/null 2>"$T/e4"; rc=$?
[ $rc = 2 ] && grep -q 'cannot be a QEMU argument' "$T/e4" || no "a quoted --cmdline: exit $rc"
"$BP" lava-results "$RUN" --log "$JOB" >/dev/null 2>"$T/e5"; rc=$?
[ $rc = 2 ] && grep -q 'not a LAVA job log' "$T/e5" || no "a job as the log: exit $rc"
"$BP" lava-results "$RUN" --log "$ROOT/tests/data/lava/all-booted.log" \
	--job "$ROOT/tests/data/lava/all-booted.job.yaml" >/dev/null 2>"$T/e6"; rc=$?
[ $rc = 2 ] && grep -q "the job is run .*'s, not" "$T/e6" || no "another run's job: exit $rc"
exit $fail
