#!/bin/sh
# bootproof bisect on real kernel builds (docs/bisect.md; `make
# check-matrix`, not `make check`: the algorithm and the engine have unit
# tests with fakes, tests/unit/test-bisect.c and test-bisectrun.c):
#  - scenarios/plans/test-bisect.plan (the demo base plus one group of
#    eight harmless options and CONFIG_PHYSICAL_ALIGN=0x300000, which
#    arch/x86/include/asm/boot.h refuses with #error): the group is FAIL at
#    the build stage, with that error first, and its verdict carries the
#    command that reproduces it;
#  - `bootproof bisect` on that run narrows the failure to the one line
#    (status found, exit 1), every step a run directory of its own, the
#    base step passing, the culprit's fragment and reproducer recorded,
#    report.html naming the line;
#  - the culprit's reproducer, run by sh as it is recorded, rebuilds that
#    one candidate and fails the same way (exit 1, the same first error).
# Builds go through the cache (ccache, artifacts by .config hash): after
# the demo base is built once, each step costs its config stage (about a
# minute of CPU), an incremental build and, when it builds, a boot.
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
# BP_KEEP=DIR keeps the run directories there (to read them, or record
# golden data from them); else they go with the temporary directory.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=${BP_KEEP:-$T}
mkdir -p "$R"
fail=0
no() { echo "FAIL: $*"; fail=1; }
now() { date +%s; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
case $BP in /*) ;; *) BP=$(pwd)/$BP ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read run.json"; exit 77; }
[ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${BP_KSRC:-}" ] ||
	{ echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
KSRC_ARG=${BP_KSRC:+--ksrc $BP_KSRC}

# 1. The failing run.
t0=$(now)
# shellcheck disable=SC2086
nice "$BP" run "$top/scenarios/plans/test-bisect.plan" $KSRC_ARG --accel tcg \
	--results "$R/r" >"$T/out1" 2>"$T/err1"; rc=$?
echo "run: exit $rc in $(($(now) - t0)) s"
cat "$T/out1"
[ $rc = 1 ] || { no "run: exit $rc, not 1"; grep -v '^  ' "$T/err1" | tail -n 20; }
d1=$(sed -n 's/^results: \(.*\)\/$/\1/p' "$T/out1")
[ -n "$d1" ] && [ -f "$d1/run.json" ] || { no "run: no run directory"; exit 1; }
python3 - "$d1" <<'PY' || no "run checks"
import json, os, sys
j = json.load(open(os.path.join(sys.argv[1], "run.json")))
g = {v["group"]: v for v in j["groups"]}["test-bisect"]
bad = []
if g["verdict"] != "FAIL" or g["stage"] != "build":
    bad.append("verdict %r at %r" % (g["verdict"], g["stage"]))
if "Invalid value for CONFIG_PHYSICAL_ALIGN" not in (g["reason"] or ""):
    bad.append("reason %r" % g["reason"])
r = g.get("reproduce") or ""
if not r.startswith("bootproof run ") or "test-bisect.config" not in r or "--candidates each" not in r:
    bad.append("reproduce %r" % r)
for m in bad:
    print("FAIL: run: " + m)
sys.exit(1 if bad else 0)
PY

# 2. The bisection.
t0=$(now)
nice "$BP" bisect "$d1" --results "$R/b" >"$T/out2" 2>"$T/err2"; rc=$?
secs=$(($(now) - t0))
echo "bisect: exit $rc in $secs s"
cat "$T/out2"
grep '^bootproof: bisect: step' "$T/err2"
[ $rc = 1 ] || { no "bisect: exit $rc, not 1"; tail -n 20 "$T/err2"; }
d2=$(sed -n 's/^results: \(.*\)\/$/\1/p' "$T/out2")
[ -n "$d2" ] && [ -f "$d2/run.json" ] || { no "bisect: no run directory"; exit 1; }
python3 - "$d2" "$T/repro" <<'PY' || no "bisect checks"
import json, os, sys
d = sys.argv[1]
j = json.load(open(os.path.join(d, "run.json")))
b = j["bisect"]
bad = []
def expect(c, m):
    if not c:
        bad.append(m)
expect(j["command"] == "bisect" and j["complete"] is True and j["exit_code"] == 1,
       "complete %r exit %r" % (j["complete"], j["exit_code"]))
expect(b["status"] == "found", "status %r: %r" % (b["status"], b["reason"]))
expect(b["target"]["stage"] == "build" and "Invalid value for CONFIG_PHYSICAL_ALIGN" in (b["target"]["what"] or ""),
       "target %r" % b["target"])
expect(len(b["lines"]) == 9, "lines %r" % b["lines"])
c = b.get("culprit") or {}
opts = c.get("options") or []
expect([o["text"] for o in opts] == ["CONFIG_PHYSICAL_ALIGN=0x300000"], "culprit %r" % opts)
expect(opts and opts[0]["source"].endswith("tests/data/groups/x86_64/test-bisect.config:14"),
       "culprit source %r" % opts)
expect(b["interaction"] is False, "interaction")
steps = b["steps"]
expect(steps[0]["kind"] == "base" and steps[0]["outcome"] == "pass", "base step %r" % steps[0])
expect(steps[1]["kind"] == "full" and steps[1]["outcome"] == "fail-same", "full step %r" % steps[1])
expect(steps[-1]["kind"] == "confirm" and steps[-1]["outcome"] == "fail-same", "confirm %r" % steps[-1])
expect(any(s["outcome"] == "pass" and s["kind"] == "subset" for s in steps), "no subset passed")
for s in steps:
    expect(os.path.isfile(os.path.join(d, s["run"], "run.json")), "step %d: no run.json" % s["n"])
    expect(s["reproduce"], "step %d: no reproducer" % s["n"])
expect(os.path.isfile(os.path.join(d, "culprit.config")), "no culprit.config")
expect("CONFIG_PHYSICAL_ALIGN=0x300000" in open(os.path.join(d, "report.html")).read(), "report.html lacks the culprit")
open(sys.argv[2] + ".cmd", "w").write(c.get("reproduce") or "false")
print("bisect: %d steps: %s" % (len(steps), " ".join("%s:%s" % (s["kind"], s["outcome"]) for s in steps)))
for m in bad:
    print("FAIL: bisect: " + m)
sys.exit(1 if bad else 0)
PY

# 3. The culprit's reproducer, through sh exactly as recorded (its results
# land in the current directory's results/).
mkdir -p "$T/bin" "$R/repro"
ln -s "$BP" "$T/bin/bootproof"
echo "reproduce: $(cat "$T/repro.cmd")"
(cd "$R/repro" && PATH="$T/bin:$PATH" nice sh -c "$(cat "$T/repro.cmd")" >"$T/out3" 2>"$T/err3"); rc=$?
[ $rc = 1 ] || { no "reproducer: exit $rc, not 1"; tail -n 20 "$T/err3"; }
grep -q 'FAIL at build' "$T/out3" && grep -q 'Invalid value for CONFIG_PHYSICAL_ALIGN' "$T/out3" ||
	{ no "reproducer: not the same failure"; cat "$T/out3"; }

[ $fail = 0 ] && echo "run-bisect: all checks passed (bisect ${secs}s)"
exit $fail
