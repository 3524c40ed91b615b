#!/bin/sh
# bootproof doctor against the real host: libvirtd, QEMU probe guests, a
# libguestfs launch, the compiler.  Asserts exit 0, the KVM line ("KVM
# unusable: <reason>; using TCG" where KVM does not work), TCG, and that the
# KVM verdict is on stdout while the libguestfs appliance is still booting
# (an order, not a time: how long doctor takes is measured by make bench);
# then --json, a different libvirt URI
# (the test driver, via --connect and $LIBVIRT_DEFAULT_URI), an unreachable
# one (exit 3 naming libvirt) and bad usage (exit 2).  On this host and on a
# broken one (the test driver, a missing kernel tree and compiler, a cache
# path that is a file), text and --json list the same checks with the same
# status, detail and fix, and every check that is not ok has a fix naming
# a command, an option, a file or a setting (or saying that none helps on
# this host, and why).
set -u
BP=${BOOTPROOF:-./bootproof}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
unset LIBVIRT_DEFAULT_URI

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed to read --json"; exit 1; }

# agree NAME MIN_NOT_OK: $T/NAME.txt (text) and $T/NAME.json (--json) of
# two runs on the same host list the same checks in the same order, with
# the same status, fix and detail (digits aside: timings differ between
# runs); each check that is not ok has a fix that names something to do
# (or says "none on this host:" and why) and is not its detail again; at
# least MIN_NOT_OK checks are not ok.
agree() {
	python3 - "$T/$1.txt" "$T/$1.json" "$2" <<'EOF' || no "$1: text and --json disagree, or a fix is missing"
import json, re, sys
text, js, least = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), int(sys.argv[3])
line = re.compile(r"^(ok|warn|FAIL) +(\S+) +(.*?)(?: \| fix: (.*))?$")
rows = []
for l in text.splitlines():
    if l.startswith("bootable: "):
        continue
    m = line.match(l)
    assert m, "not a check line: %r" % l
    rows.append(m.groups())
checks = js["checks"]
assert len(rows) == 13, rows
assert [r[1] for r in rows] == [c["name"] for c in checks], (rows, checks)
digits = lambda s: re.sub(r"[0-9]+(\.[0-9]+)?", "N", s)
# What a fix can name: a command to run, an option, a path, a setting.
concrete = re.compile(r"\b(apt-get install -y [a-z0-9.+-]+|make setup|virsh -c|"
                      r"bootproof [a-z]+|modprobe [a-z_]+|mkdir -p|chmod|chown|rm '|"
                      r"export [A-Z_]+=|libguestfs-test-tool)|--[a-z]+|"
                      r"/etc/[a-z/.]+|\b[A-Z_]{4,}=")
bad = 0
for (status, name, detail, fix), c in zip(rows, checks):
    where = "%s: text %r / json %r" % (name, (status, detail, fix), c)
    if c["status"] != status.lower():
        print("status differs: " + where); bad += 1
    if digits(c["detail"]) != digits(detail):
        print("detail differs: " + where); bad += 1
    if c["fix"] != fix:
        print("fix differs: " + where); bad += 1
    if status == "ok":
        continue
    least -= 1
    if not fix or fix == detail:
        print("no fix: " + where); bad += 1
    elif fix.startswith("none on this host: "):
        if len(fix) < len("none on this host: ") + 20:
            print("no reason why nothing helps: " + where); bad += 1
    elif not concrete.search(fix):
        print("fix names nothing to do: " + where); bad += 1
if least > 0:
    print("%d fewer checks not ok than expected" % least); bad += 1
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------------- full run
# stdout through a pipe read line by line: when the kvm line arrives, the
# doctor's libguestfs child must still be running (its appliance takes
# seconds more); a doctor printing everything at the end has reaped it.
mkfifo "$T/pipe"
"$BP" doctor >"$T/pipe" 2>"$T/err" &
pid=$!
kvm_early=no
: >"$T/out"
while IFS= read -r line; do
	printf '%s\n' "$line" >>"$T/out"
	case $line in
	*" kvm "*)
		if pgrep -P "$pid" >/dev/null; then
			kvm_early=yes
		fi
		;;
	esac
done <"$T/pipe"
wait "$pid"
rc=$?
cat "$T/out" "$T/err"
echo "doctor: exit $rc"

[ $rc -eq 0 ] || no "doctor exited $rc, want 0"
for name in qemu-x86_64 qemu-i386 libvirt libvirt-x86_64 libvirt-i686 \
	qemu-user kvm tcg kernel-source cc-x86_64 cc-i386 cache libguestfs; do
	n=$(grep -cE "^(ok|warn|FAIL) +$name " "$T/out")
	[ "$n" = 1 ] || no "check $name appears $n times, want once"
done
if [ -e /dev/kvm ]; then
	grep -Eq '^(ok    kvm +KVM usable: the probe guest ran in |warn  kvm +KVM unusable: .+; using TCG)' "$T/out" ||
		no "no KVM verdict line"
else
	grep -q '^warn  kvm             KVM unusable: no /dev/kvm; using TCG' "$T/out" ||
		no "no 'KVM unusable: no /dev/kvm; using TCG' line"
fi
grep -Eq '^ok    tcg +TCG runs the probe guest \([0-9.]+ s\)$' "$T/out" ||
	no "TCG does not run the probe guest"
grep -Eq '^bootable: yes \(accelerator: (kvm|tcg)\)$' "$T/out" ||
	no "no 'bootable: yes' summary"
grep -Eq '^ok    libguestfs +appliance launched in [0-9.]+ s with backend direct' "$T/out" ||
	no "libguestfs did not launch"
grep -q '^ok    libvirt         connected to qemu:///system ' "$T/out" ||
	no "not connected to the default URI qemu:///system"
# Nothing but the report on stdout, nothing but logs on stderr.
grep -qvE '^(ok|warn|FAIL) |^bootable: ' "$T/out" && no "stray lines on stdout"
grep -qvE '^bootproof: ' "$T/err" && no "stray lines on stderr"
[ "$kvm_early" = yes ] ||
	no "the KVM verdict was not printed before the libguestfs launch ended"

# ---------------------------------------------------------------- --json
# --quick: the libguestfs launch was just shown; JSON is about the shape.
"$BP" doctor --json --quick >"$T/json" 2>"$T/jerr"
rc=$?
[ $rc -eq 0 ] || no "doctor --json exited $rc, want 0"
python3 - "$T/json" <<'EOF' || no "--json output is not the expected document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bootable"] is True, d
assert d["accelerator"] in ("kvm", "tcg"), d
names = [c["name"] for c in d["checks"]]
assert len(names) == len(set(names)) == 13, names
for c in d["checks"]:
    assert set(c) == {"name", "status", "required", "detail", "fix"}, c
    assert c["status"] in ("ok", "warn", "fail"), c
    # A fix is given exactly when there is something to fix.
    assert (c["fix"] is None) == (c["status"] == "ok"), c
byname = {c["name"]: c for c in d["checks"]}
k, t = byname["kvm"], byname["tcg"]
if d["accelerator"] == "tcg":
    assert k["status"] == "warn" and k["detail"].startswith("KVM unusable: "), k
    assert k["detail"].endswith("; using TCG"), k
    assert t["status"] == "ok" and t["required"], t
assert byname["libguestfs"]["status"] == "warn", byname["libguestfs"]
EOF
# The log line went to stderr, not into the JSON.
grep -q '^bootproof: ' "$T/json" && no "--json: a log line on stdout"

# ----------------------------------------------- text and --json agree
# This host (quick: the same checks as the JSON run above), then a broken
# one: the test driver (no QEMU domains), no kernel tree, no compiler, a
# cache path that is a file.  Each is run twice, text and --json.
"$BP" doctor --quick >"$T/host.txt" 2>/dev/null
cp "$T/json" "$T/host.json"
agree host 1
: >"$T/cachefile"
for fmt in txt json; do
	BOOTPROOF_CACHE=$T/cachefile "$BP" doctor --quick $([ $fmt = json ] && echo --json) \
		--connect test:///default --ksrc "$T/nonexistent" --cc "$T/no-cc" \
		>"$T/broken.$fmt" 2>/dev/null
	rc=$?
	[ $rc -eq 3 ] || no "broken host ($fmt): exit $rc, want 3"
done
agree broken 8

# ------------------------------------------------------ another libvirt URI
"$BP" doctor --quick --connect test:///default >"$T/test" 2>"$T/terr"
rc=$?
[ $rc -eq 3 ] || no "--connect test:///default exited $rc, want 3 (no QEMU domains there)"
grep -q '^ok    libvirt         connected to test:///default (libvirt [0-9.]*, TEST ' "$T/test" ||
	no "--connect test:///default not honoured: $(grep ' libvirt ' "$T/test")"
grep -q '^FAIL  libvirt-x86_64 ' "$T/test" ||
	no "test driver: libvirt-x86_64 should fail"
grep -q '^bootable: no$' "$T/test" || no "test driver: not 'bootable: no'"

LIBVIRT_DEFAULT_URI=test:///default "$BP" doctor --quick >"$T/env" 2>&1
grep -q 'connected to test:///default ' "$T/env" ||
	no "\$LIBVIRT_DEFAULT_URI not honoured"

# ------------------------------------------------------ unreachable libvirt
bad='qemu+unix:///system?socket=/nonexistent'
"$BP" doctor --quick --connect "$bad" >"$T/bad" 2>"$T/baderr"
rc=$?
cat "$T/bad" "$T/baderr"
[ $rc -eq 3 ] || no "unreachable URI exited $rc, want 3"
grep -q "^bootproof: error: doctor: no boot possible: libvirt: cannot connect to $bad: .*/nonexistent" "$T/baderr" ||
	no "unreachable URI: no error naming libvirt on stderr"
grep -q "^FAIL  libvirt         cannot connect to $bad: .* | fix: virsh -c '$bad' version" "$T/bad" ||
	no "unreachable URI: no FAIL line with its fix"

# ------------------------------------------------------------ bad usage
"$BP" doctor --no-such-option >/dev/null 2>"$T/uerr"
rc=$?
[ $rc -eq 2 ] || no "bad option exited $rc, want 2"
"$BP" doctor extra-arg >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || no "extra argument exited $rc, want 2"

if [ $fail -ne 0 ]; then
	exit 1
fi
echo "doctor: all assertions passed"
