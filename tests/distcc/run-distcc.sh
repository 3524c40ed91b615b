#!/bin/sh
# A kernel built on a distcc farm of two "hosts" (tests/distcc/
# netns-farm.sh: two distccd in network namespaces of this machine) is
# the kernel a local build makes, and boots the same (`make check-distcc`;
# not in `make check`: two kernel builds, 30 to 60 minutes here):
#  - `bootproof run demo --arch x86_64 --distcc H1 --distcc H2 --lava-out`
#    in the farm's client namespace, with a new cache (ccache empty:
#    every compile is a miss that goes to the farm), configures and
#    builds without booting; its build record and run.json name the farm,
#    the build log says so, and both distccd logs and their own
#    statistics (distccd --stats) count compiles that succeeded there;
#    at most 1% of the compiles fell back to this machine (distcc's
#    "failed to distribute", each named: under load a host can time out);
#  - the same plan, run outside the namespaces on the same cache, boots
#    the farm's kernel (its build is reused: the cache is keyed by
#    .config).  The boot cannot happen inside the client namespace: the
#    kgdb scenario's gdb reaches QEMU's serial port on 127.0.0.1 of the
#    machine's own network, which that namespace does not have;
#  - the same plan built here without distcc, with a new cache of its
#    own (or the run directory $BP_LOCAL_RUN, when given): the same
#    .config hash, the same boot verdict, the same scenario results and
#    group verdicts;
#  - the two build times (ccache cold for both) are printed: the farm's
#    overhead on one box.
# Knobs: BP_KSRC (the kernel tree, default: bootproof's), BP_DISTCC_DIR
# (where the caches, runs and farm logs go; default a new directory in
# /var/tmp, removed at the end unless BP_KEEP=1), BP_FARM_JOBS (each
# distccd's --jobs, default 1: two slots, make -j2 like a local build on
# two CPUs).
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $BP in /*) ;; *) BP=$(pwd)/$BP ;; esac
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read run.json"; exit 77; }
command -v distcc >/dev/null 2>&1 || { echo "SKIP: no distcc (make setup installs it)"; exit 77; }
[ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${BP_KSRC:-}" ] ||
	{ echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"; exit 77; }
D=${BP_DISTCC_DIR:-}
if [ -z "$D" ]; then
	D=$(mktemp -d /var/tmp/bootproof-distcc.XXXXXX)
	[ "${BP_KEEP:-0}" = 1 ] || trap 'rm -rf "$D"' EXIT
fi
mkdir -p "$D"
# mktemp's 0700 would keep out the users that work below it: distccd's
# (its logs in $D/farm) and libvirt's QEMU (the kernels a boot stages in
# $D/cache-*/runs).
chmod 755 "$D"
KSRC_ARG=${BP_KSRC:+--ksrc $BP_KSRC}
J=${BP_FARM_JOBS:-1}

# 1. On the farm: the hosts netns-farm.sh gives, as --distcc options.
cat >"$D/farm-run.sh" <<EOF
#!/bin/sh
set --
for h in \$DISTCC_FARM; do set -- "\$@" --distcc "\$h"; done
exec "$BP" run demo --arch x86_64 "\$@" $KSRC_ARG --results "$D/runs-farm" \
	--lava-out "$D/lava-farm" --lava-url http://127.0.0.1:1/unused
EOF
BOOTPROOF_CACHE=$D/cache-farm "$top/tests/distcc/netns-farm.sh" "$D/farm" --jobs "$J" \
	sh "$D/farm-run.sh" >"$D/farm.out" 2>"$D/farm.err"
rc=$?
cat "$D/farm.out"
[ $rc = 77 ] && { tail -n 1 "$D/farm.err"; exit 77; }
echo "on the farm: exit $rc"
farm=$(ls -d "$D"/runs-farm/*/ 2>/dev/null | head -n 1)
[ -n "$farm" ] && [ -f "$farm/run.json" ] || { no "no run on the farm"; tail -n 20 "$D/farm.err"; exit 1; }

# 1b. The farm's kernel booted outside the namespaces, from its cache.
# shellcheck disable=SC2086
BOOTPROOF_CACHE=$D/cache-farm "$BP" run demo --arch x86_64 $KSRC_ARG \
	--results "$D/runs-farmboot" >"$D/farmboot.out" 2>"$D/farmboot.err"
echo "the farm's kernel booted here: exit $?"
fboot=$(ls -d "$D"/runs-farmboot/*/ 2>/dev/null | head -n 1)
[ -n "$fboot" ] && [ -f "$fboot/run.json" ] || { no "the farm's kernel did not boot"; tail -n 20 "$D/farmboot.err"; exit 1; }

# 2. Here.
local=${BP_LOCAL_RUN:-}
if [ -z "$local" ]; then
	# shellcheck disable=SC2086
	BOOTPROOF_CACHE=$D/cache-local "$BP" run demo --arch x86_64 $KSRC_ARG \
		--results "$D/runs-local" >"$D/local.out" 2>"$D/local.err"
	echo "here: exit $?"
	local=$(ls -d "$D"/runs-local/*/ 2>/dev/null | head -n 1)
fi
[ -n "$local" ] && [ -f "$local/run.json" ] || { no "no local run"; exit 1; }

python3 - "$farm" "$local" "$D/farm" "$fboot" <<'PYEOF' || fail=1
import json, os, re, sys
farm, here, logs, fboot = sys.argv[1:5]
f = json.load(open(os.path.join(farm, "run.json")))
l = json.load(open(os.path.join(here, "run.json")))
g = json.load(open(os.path.join(fboot, "run.json")))
bad = []
b = f["boots"][0]["build"]
fb, lb = g["boots"][0], l["boots"][0]
if fb["build"].get("config_hash") != b.get("config_hash") or fb["build"].get("result") != "reused":
    bad.append("the boot outside the namespaces did not reuse the farm's kernel: build %s, hash %s (farm %s)"
               % (fb["build"].get("result"), fb["build"].get("config_hash"), b.get("config_hash")))
hosts = f["host"].get("distcc")
if not hosts or b.get("distcc") != hosts:
    bad.append("the run does not record the farm: host %r, build %r" % (hosts, b.get("distcc")))
if b["result"] != "pass":
    bad.append("the farm's build %s (not built now: the cache was not new?)" % b["result"])
log = open(os.path.join(farm, b["log"]), errors="replace").read()
if "compiling on the distcc farm " + (hosts or "?") not in log:
    bad.append("the build log does not name the farm")
# distcc compiles here what a host failed to (under load: a timeout); the
# claim is that the compiles went to the farm, so a few may, and are named.
fell = re.findall(r"failed to distribute ([^ ]+)", log)
for name in fell:
    print("fell back to this machine: %s" % name)
total = 0
for n in (1, 2):
    ok = len(re.findall(r"COMPILE_OK", open(os.path.join(logs, "distccd-%d.log" % n), errors="replace").read()))
    st = open(os.path.join(logs, "stats-%d.txt" % n)).read()
    m = re.search(r"dcc_compile_ok (\d+)", st)
    stat_ok = int(m.group(1)) if m else -1
    print("distccd %d (10.253.%d.2): %d compiles in its log, dcc_compile_ok %d" % (n, n, ok, stat_ok))
    if ok < 100 or stat_ok < 100:
        bad.append("distccd %d compiled %d/%d files" % (n, ok, stat_ok))
    total += ok
objs = (b.get("measure") or {}).get("objects_compiled")
print("compiled remotely: %d, objects the build compiled: %s, fell back: %d" % (total, objs, len(fell)))
if len(fell) * 100 > max(total, 1):
    bad.append("%d compiles fell back to this machine (more than 1%% of %d)" % (len(fell), total))
for k in ("config_hash",):
    if b.get(k) != lb["build"].get(k):
        bad.append("%s: farm %s, here %s" % (k, b.get(k), lb["build"].get(k)))
if fb["verdict"] != lb["verdict"]:
    bad.append("verdict: farm %s, here %s" % (fb["verdict"], lb["verdict"]))
sc = lambda r: [(s["name"], s["result"]) for s in r.get("scenarios", [])]
if sc(fb) != sc(lb):
    bad.append("scenarios: farm %s, here %s" % (sc(fb), sc(lb)))
gv = lambda j: [(x["group"], x["arch"], x["verdict"]) for x in j["groups"]]
if gv(g) != gv(l):
    bad.append("groups: farm %s, here %s" % (gv(g), gv(l)))
print("config hash %s; verdict %s; scenarios %s" % (b.get("config_hash"), fb["verdict"], sc(fb)))
print("build time: farm %.0f s (run %s), here %.0f s (run %s): %+.0f%%" % (
    b["seconds"], f["run_id"], lb["build"]["seconds"], l["run_id"],
    100.0 * (b["seconds"] - lb["build"]["seconds"]) / lb["build"]["seconds"]))
for m in bad:
    print("FAIL: " + m)
sys.exit(1 if bad else 0)
PYEOF

[ $fail = 0 ] && echo "run-distcc: all checks passed"
exit $fail
