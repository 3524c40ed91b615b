#!/bin/sh
# bootproof config and groups against a real kernel tree (facts of Linux
# 6.12.118 as docs/config.md states them, checked against the tree itself):
#  - x86_64_defconfig + every x86_64 seed group: only CGROUP_DMEM dropped
#    (unknown); the stale base lines: SECURITY_SELINUX_DISABLE (unknown),
#    PRINT_QUOTA_WARNING (depends on BROKEN), LOGITECH_FF only when the tree
#    no longer defines it; exit 1 (CGROUP_DMEM dropped)
#  - CONFIG_KVM_INTEL=y with # CONFIG_KVM is not set: unmet dependency
#    naming KVM; CONFIG_KVM=m with CONFIG_KVM_INTEL=y: limited to m; a later
#    fragment overriding an earlier one; an int out of its range
#  - i386: UAPI_HEADER_TEST survives exactly when the toolchain links 32-bit
#    programs; with a gcc that cannot, the drop names CC_CAN_LINK
#  - the demo groups survive whole on tinyconfig+kvm_guest.config, both arches
#  - bad input exits 2 (unknown group/base, malformed fragment with
#    file:line, wrong arch), no kernel tree exits 3
# The tree: $BP_KSRC, else the default (Debian's linux-source tarball,
# unpacked once into the cache by bootproof itself), else skip.
set -u
BP=${BOOTPROOF:-./bootproof}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
now() { date +%s; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read --json"; exit 77; }

if [ -n "${BP_KSRC:-}" ]; then
	KSRC_ARG="--ksrc $BP_KSRC"
	ksrc=$BP_KSRC
elif [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	KSRC_ARG=
	ksrc=
else
	echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"
	exit 77
fi
# The seed groups' x86_64 and i386 names.
G64="kvm-host virt-guests bpf mm debug sched-cgroups-ns generic"
G32="kvm-host virt-guests bpf mm debug sched-cgroups-ns generic drivers"
DEMO="demo-base demo-bpf demo-cgroups demo-userfaultfd demo-kgdb"
groups_args() { for g in "$@"; do printf -- ' --group %s' "$g"; done; }

# run NAME ARCH BASE GROUP...: bootproof config --json into $T/NAME.json
run() {
	name=$1 arch=$2 base=$3
	shift 3
	t0=$(now)
	# shellcheck disable=SC2046,SC2086
	env PATH="${RUN_PATH:-$PATH}" "$BP" config --arch "$arch" --base "$base" \
		$KSRC_ARG $(groups_args "$@") --json >"$T/$name.json" 2>"$T/$name.err"
	rc=$?
	echo "config $name ($arch $base $*): exit $rc in $(($(now) - t0)) s"
	cat "$T/$name.err"
}

# check NAME PYTHON: assertions on the JSON document j (prints FAIL lines)
check() {
	python3 - "$T/$1.json" "$1" "${ksrc:-}" <<EOF || no "$1: JSON checks"
import json, sys, os
j = json.load(open(sys.argv[1]))
name = sys.argv[2]
ok = True
def no(msg):
    global ok
    print("FAIL: %s: %s" % (name, msg))
    ok = False
def opt(n):
    for g in j["groups"]:
        for o in g["options"]:
            if o["name"] == n:
                return o
    return None
def stale(n):
    for o in j["stale_base"]:
        if o["name"] == n:
            return o
    return None
dropped = [o for g in j["groups"] for o in g["options"] if o["status"] != "kept"]
$2
sys.exit(0 if ok else 1)
EOF
}

# ------------------------------------------------- bad input, no tree needed
"$BP" config --arch x86_64 --base x86_64_defconfig --group nope >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] || no "unknown group: exit $rc, want 2"
grep -q "unknown group 'nope' for x86_64 (known: .*kvm-host" "$T/e" || no "unknown group not named: $(cat "$T/e")"

printf '# group: broken\nCONFIG_A=y\nCONFIG_B is on\n' >"$T/broken.config"
"$BP" config --arch x86_64 --base x86_64_defconfig --group "$T/broken.config" >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] || no "malformed fragment: exit $rc, want 2"
grep -q "$T/broken.config:3: " "$T/e" || no "malformed fragment without file:line: $(cat "$T/e")"

"$BP" config --arch x86_64 --base x86_64_defconfig \
	--group "$(dirname "$0")/../../scenarios/groups/i386/drivers.config" >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] || no "i386 group on x86_64: exit $rc, want 2"
grep -q "group drivers is for i386, not x86_64" "$T/e" || no "wrong-arch group: $(cat "$T/e")"

"$BP" config --arch x86_64 >/dev/null 2>&1
[ $? -eq 2 ] || no "missing --base: want exit 2"
"$BP" config --arch x86_64 --base x86_64_defconfig --ksrc "$T/none" >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 3 ] || no "--ksrc missing dir: exit $rc, want 3"
"$BP" config --arch x86_64 --base x86_64_defconfig --ksrc "$T" >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 3 ] || no "--ksrc not a tree: exit $rc, want 3"
grep -q "is not a kernel source tree" "$T/e" || no "not-a-tree message: $(cat "$T/e")"

# bootproof groups: both arches, the seed groups, JSON, and a broken group
"$BP" groups >"$T/groups" 2>&1 || no "groups: exit $?"
for g in $G64; do
	grep -q "^  $g\$" "$T/groups" || no "groups does not list $g"
done
grep -q '^    scenarios: bpf,boot$' "$T/groups" || no "groups: no bpf,boot scenarios line"
"$BP" groups --arch i386 --json >"$T/groups.json" || no "groups --json: exit $?"
python3 - "$T/groups.json" <<'EOF' || no "groups --json document"
import json, sys
j = json.load(open(sys.argv[1]))
assert list(j) == ["i386"], list(j)
names = [g["name"] for g in j["i386"]]
for n in ["bpf", "debug", "drivers", "generic", "kvm-host", "mm", "sched-cgroups-ns", "virt-guests", "demo-base"]:
    assert n in names, n
g = [g for g in j["i386"] if g["name"] == "generic"][0]
assert g["options"][0] == {"name": "UAPI_HEADER_TEST", "value": "y", "line": g["options"][0]["line"]}, g
assert g["scenarios"] == ["boot"]
EOF
mkdir -p "$T/data/scenarios/groups/x86_64"
printf '# group: bad\n# arch: x86_64\n# scenarios: boot,telepathy\n# from: x\nCONFIG_A=y\n' \
	>"$T/data/scenarios/groups/x86_64/bad.config"
BOOTPROOF_DATADIR=$T/data "$BP" groups --arch x86_64 >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] || no "groups with a bad file: exit $rc, want 2"
grep -q "bad.config:3: unknown scenario 'telepathy'" "$T/e" || no "bad group file: $(cat "$T/e")"

# ------------------------------------------------- the tree
# x86_64_defconfig + every x86_64 seed group
run all64 x86_64 x86_64_defconfig $G64
[ $rc -eq 1 ] || no "all x86_64 groups: exit $rc, want 1 (something dropped)"
# the tree it used (the default: unpacked into the cache)
ksrc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ksrc"])' "$T/all64.json" 2>/dev/null)
[ -d "$ksrc/arch/x86" ] || no "no kernel tree at $ksrc after the run"
if grep -q '^config LOGITECH_FF$' "$ksrc/drivers/hid/Kconfig" 2>/dev/null; then
	logitech=defined
else
	logitech=gone
fi
check all64 "
if [(o['name'], o['kind']) for o in dropped] != [('CGROUP_DMEM', 'unknown')]:
    no('dropped: %s' % [(o['name'], o['kind'], o['reason']) for o in dropped])
o = opt('CGROUP_DMEM')
if o and not o['file'].endswith('x86_64/sched-cgroups-ns.config'):
    no('CGROUP_DMEM from %s' % o['file'])
s = stale('SECURITY_SELINUX_DISABLE')
if not s or s['kind'] != 'stale base option' or s['cause'] != 'unknown':
    no('SECURITY_SELINUX_DISABLE: %s' % s)
s = stale('PRINT_QUOTA_WARNING')
if not s or s['cause'] != 'depends' or 'BROKEN=n' not in s['reason']:
    no('PRINT_QUOTA_WARNING: %s' % s)
want = {'SECURITY_SELINUX_DISABLE', 'PRINT_QUOTA_WARNING'}
if '$logitech' == 'gone':
    want.add('LOGITECH_FF')
got = {o['name'] for o in j['stale_base']}
if got != want:
    no('stale base lines %s, want %s (LOGITECH_FF is $logitech in this tree)' % (sorted(got), sorted(want)))
if j['dropped'] != 1 or j['stale'] != len(want):
    no('counts %s/%s' % (j['dropped'], j['stale']))
kept = sum(g['kept'] for g in j['groups'])
if kept < 100:
    no('only %d options kept' % kept)
if not os.path.isfile(j['final_config']):
    no('no final .config at %s' % j['final_config'])
elif 'CONFIG_KVM_INTEL=y' not in open(j['final_config']).read().split():
    no('final .config lacks CONFIG_KVM_INTEL=y')
if j['explain_error']:
    no('explain error: %s' % j['explain_error'])
"
# the same in text form, a second time: reuses the O= directory and helper
t0=$(now)
# shellcheck disable=SC2046,SC2086
"$BP" config --arch x86_64 --base x86_64_defconfig $KSRC_ARG $(groups_args $G64) >"$T/all64.txt" 2>&1
rc=$?
echo "second run: exit $rc in $(($(now) - t0)) s (load $(cut -d' ' -f1 /proc/loadavg))"
[ $rc -eq 1 ] || no "text run: exit $rc"
grep -q '^  DROPPED  CONFIG_CGROUP_DMEM=y  -> absent  \[scenarios/groups/x86_64/sched-cgroups-ns.config:[0-9]*\]$' "$T/all64.txt" ||
	no "text: no CGROUP_DMEM line"
grep -q '^           unknown symbol: not defined in this tree for this arch$' "$T/all64.txt" || no "text: no reason line"
grep -q '^group kvm-host (scenarios/groups/x86_64/kvm-host.config): 5 kept, 0 dropped$' "$T/all64.txt" ||
	no "text: no kvm-host summary"
grep -q '^result: 1 option dropped, ' "$T/all64.txt" || no "text: no result line"

# KVM_INTEL without KVM: an unmet dependency naming KVM
printf 'CONFIG_KVM_INTEL=y\n# CONFIG_KVM is not set\n' >"$T/kvm-off.config"
run kvmoff x86_64 x86_64_defconfig "$T/kvm-off.config"
[ $rc -eq 1 ] || no "kvm-off: exit $rc, want 1"
check kvmoff "
o = opt('KVM_INTEL')
if not o or o['status'] != 'dropped' or o['kind'] != 'depends':
    no('KVM_INTEL: %s' % o)
else:
    r = o['reasons'][0]
    if 'KVM' not in r['expr'].replace('&&', ' ').split():
        no('expression %s does not name KVM' % r['expr'])
    if {'name': 'KVM', 'value': 'n', 'type': 'tristate'} not in r['terms']:
        no('terms %s lack KVM=n' % r['terms'])
    if 'KVM=n' not in o['reason']:
        no('reason: %s' % o['reason'])
if [o['name'] for o in dropped] != ['KVM_INTEL']:
    no('dropped %s' % [o['name'] for o in dropped])
"

# KVM=m limits KVM_INTEL to m; a later fragment overrides an earlier one;
# an int outside its range
printf 'CONFIG_KVM=m\nCONFIG_KVM_INTEL=y\nCONFIG_KVM_AMD=y\n' >"$T/kvm-m.config"
printf '# CONFIG_KVM_AMD is not set\nCONFIG_KVM_MAX_NR_VCPUS=9000\n' >"$T/later.config"
run kvmm x86_64 x86_64_defconfig "$T/kvm-m.config" "$T/later.config"
[ $rc -eq 1 ] || no "kvm-m: exit $rc, want 1"
check kvmm "
o = opt('KVM_INTEL')
if not o or o['kind'] != 'module' or o['final'] != 'm' or 'KVM=m' not in o['reason']:
    no('KVM_INTEL: %s' % o)
o = opt('KVM_AMD')
if not o or o['kind'] != 'overridden' or o['overridden_by']['line'] != 1 \
        or not o['overridden_by']['file'].endswith('/later.config') \
        or 'later.config:1' not in o['reason']:
    no('KVM_AMD: %s' % o)
o = opt('KVM_MAX_NR_VCPUS')
if not o or o['kind'] != 'range' or not o['reason'].startswith('value out of range '):
    no('KVM_MAX_NR_VCPUS: %s' % o)
if sorted(o['name'] for o in dropped) != ['KVM_AMD', 'KVM_INTEL', 'KVM_MAX_NR_VCPUS']:
    no('dropped %s' % [o['name'] for o in dropped])
"

# i386: every i386 seed group; UAPI_HEADER_TEST follows CC_CAN_LINK
run all32 i386 i386_defconfig $G32
[ $rc -eq 1 ] || no "all i386 groups: exit $rc, want 1"
check all32 "
final = open(j['final_config']).read().split()
link = 'CONFIG_CC_CAN_LINK=y' in final
want = [('CGROUP_DMEM', 'unknown')]
if not link:
    want.append(('UAPI_HEADER_TEST', 'depends'))
got = sorted((o['name'], o['kind']) for o in dropped)
if got != sorted(want):
    no('dropped %s, want %s (CC_CAN_LINK %s)' % (got, want, link))
print('i386: CC_CAN_LINK=%s' % ('y' if link else 'n'))
"
# a gcc that cannot link 32-bit programs (as without gcc-multilib)
mkdir -p "$T/bin"
cat >"$T/bin/gcc" <<'EOF'
#!/bin/sh
m32=0 link=1
for a in "$@"; do
	case $a in -m32) m32=1 ;; -c|-S|-E|-M|-MM) link=0 ;; esac
done
[ $m32 = 1 ] && [ $link = 1 ] && { echo "no 32-bit libraries" >&2; exit 1; }
exec /usr/bin/gcc "$@"
EOF
chmod +x "$T/bin/gcc"
RUN_PATH=$T/bin:$PATH
run nolink32 i386 i386_defconfig generic debug
RUN_PATH=
[ $rc -eq 1 ] || no "nolink32: exit $rc, want 1"
check nolink32 "
o = opt('UAPI_HEADER_TEST')
if not o or o['kind'] != 'depends' or 'CC_CAN_LINK=n' not in o['reason']:
    no('UAPI_HEADER_TEST: %s' % o)
elif {'name': 'CC_CAN_LINK', 'value': 'n', 'type': 'bool'} not in o['reasons'][0]['terms']:
    no('terms: %s' % o['reasons'][0]['terms'])
if [o['name'] for o in dropped] != ['UAPI_HEADER_TEST']:
    no('dropped %s' % [o['name'] for o in dropped])
"

# the demo groups on the small base, both arches: nothing dropped
for arch in x86_64 i386; do
	run "demo-$arch" "$arch" tinyconfig+kvm_guest.config $DEMO
	check "demo-$arch" "
if dropped:
    no('dropped %s' % [(o['name'], o['reason']) for o in dropped])
if len(j['groups']) != 5 or min(g['kept'] for g in j['groups']) < 1:
    no('groups %s' % [(g['name'], g['kept']) for g in j['groups']])
"
done

# an unknown base needs the tree: exit 2
"$BP" config --arch x86_64 --base frob_defconfig $KSRC_ARG >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] || no "unknown base: exit $rc, want 2"
grep -q "unknown base 'frob_defconfig'" "$T/e" || no "unknown base message: $(cat "$T/e")"

[ $fail -eq 0 ] && echo "config: all checks passed"
exit $fail
