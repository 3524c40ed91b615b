#!/bin/sh
# The in-guest agent on Debian's distro kernel under plain QEMU (TCG),
# independent of the libvirt harness.  Two boots of a root image made here
# with mkfs.ext4 -d (agent, marker, busybox, the virtio modules):
#   1. all scenarios: boot, bpf, cgroups, userfaultfd, mm pass, kgdb is
#      SKIP (Debian's kernel has no CONFIG_KGDB), clean power-off, dmesg
#      sent over the channel, the foundation's KTAP/console parser reads it as BOOTED;
#   2. the checks can fail: cgroup_disable=memory makes cgroups fail with
#      a diagnostic; the test-only scenarios timeout and segv are reported
#      and the agent goes on; crash panics the kernel.
# Skips when the kernel, its initrd or its modules are absent.
# Env: BP_BUILD (build dir, default build), BP_DISTRO_KERNEL=/boot/vmlinuz-V,
# BP_KEEP=1 keeps the work directory.
set -u
here=$(dirname "$0")
. "$here/agent-lib.inc"

build=${BP_BUILD:-build}
agent=$build/guest/x86_64/bootproof-agent
[ -x "$agent" ] || skip "no agent binary $agent (make guest)"
kernel=${BP_DISTRO_KERNEL:-$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$kernel" ] && [ -f "$kernel" ] || skip "no Debian kernel /boot/vmlinuz-*-amd64"
rel=${kernel#*/vmlinuz-}
initrd=/boot/initrd.img-$rel
moddir=/lib/modules/$rel
[ -f "$initrd" ] || skip "no initrd $initrd for $kernel"
[ -f "$moddir/modules.dep" ] || skip "no modules in $moddir"
[ -f /bin/busybox ] || skip "no /bin/busybox (busybox-static)"
need qemu-system-x86_64 mkfs.ext4 depmod debugfs perl timeout

work=$(mktemp -d "${TMPDIR:-/var/tmp}/bp-agent-distro.XXXXXX")
cleanup() { [ "${BP_KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"; }
trap cleanup EXIT INT TERM

rc=0
bad() { echo "FAIL: $*"; rc=1; }
expect() { # LOG NUM NAME RESULT-REGEX
	line=$(ktap_result "$1" "$2" "$3")
	if echo "$line" | grep -Eq "^$4"; then
		echo "ok: $line"
	else
		bad "test $2 $3: expected /$4/, got '${line:-nothing}'"
	fi
}

mkroot "$work/root" "$agent" /bin/busybox
copy_modules "$moddir" "$moddir/modules.dep" "$work/root" "$rel" virtio_pci virtio_blk virtio_net \
	virtio_rng virtio_console pvpanic_pci
mkimage "$work/root" "$work/root.img" >/dev/null

# ---------------------------------------------------------------- boot 1
mkdir -p "$work/ok"
cp "$work/root.img" "$work/ok/root.img"
start=$(date +%s)
boot_qemu x86_64 "$kernel" "$initrd" "$work/ok/root.img" \
	"root=/dev/vda rw init=/bootproof/agent console=ttyS0 panic=-1 psi=1 bootproof.scenarios=boot,bpf,cgroups,userfaultfd,kgdb,mm bootproof.timeout=120 bootproof.cpus=2 bootproof.mem_mib=1024" \
	"$work/ok" 900
q=$?
tr -d '\r' <"$work/ok/console.log" >"$work/ok/console.txt"
log=$work/ok/console.txt
echo "boot 1: qemu exit $q after $(($(date +%s) - start)) s"
sed -n '/^KTAP version 1/,$p' "$log" | grep -v '^\['
[ $q -eq 0 ] || bad "qemu did not power off by itself (exit $q)"
grep -q '^1\.\.6' "$log" || bad "no plan 1..6"
expect "$log" 1 boot 'ok 1 boot$'
expect "$log" 2 bpf 'ok 2 bpf$'
expect "$log" 3 cgroups 'ok 3 cgroups$'
expect "$log" 4 userfaultfd 'ok 4 userfaultfd$'
expect "$log" 5 kgdb 'ok 5 kgdb # SKIP CONFIG_KGDB not set'
expect "$log" 6 mm 'ok 6 mm$'
grep -q '^    ok 5 write_protect$' "$log" || bad "userfaultfd write_protect did not pass"
grep -q '^# bootproof-agent: done' "$log" || bad "no '# bootproof-agent: done'"
grep -q 'reboot: Power down' "$log" || bad "no 'reboot: Power down'"
grep -q "^bootproof-agent: hvc0 ok $rel" "$work/ok/hvc0.log" ||
	bad "nothing from the agent on the virtio console"
grep -q "^bootproof-agent: channel ok $rel" "$work/ok/channel.log" ||
	bad "nothing from the agent on the virtio-serial channel"
# The kernel's log follows on the channel, announced with its size (the
# host splits it off: core/agentchan); it is not written to the root.
n=$(sed -n 's/^bootproof-agent: dmesg bytes \([0-9][0-9]*\)$/\1/p' "$work/ok/channel.log")
[ -n "$n" ] || bad "no kernel log announced on the channel"
tail -c "${n:-0}" "$work/ok/channel.log" | head -n 1 | grep -q "Linux version $rel" ||
	bad "the channel's last $n bytes are not the kernel's log"
grep -q "^# bootproof-agent: dmesg sent over org.bootproof.agent.0 ($n bytes)" "$log" ||
	bad "the agent did not say it sent the log"
debugfs -R 'stat /bootproof/dmesg.txt' "$work/ok/root.img" 2>&1 | grep -q 'File not found' ||
	bad "/bootproof/dmesg.txt written although the channel took the log"
if [ -n "${BOOTPROOF:-}" ] && [ -x "$BOOTPROOF" ]; then
	"$BOOTPROOF" triage "$work/ok/console.log" >"$work/ok/triage.txt" 2>&1
	t=$?
	cat "$work/ok/triage.txt"
	[ $t -eq 0 ] || bad "bootproof triage: exit $t"
	grep -q 'BOOTED' "$work/ok/triage.txt" || bad "triage verdict is not BOOTED"
	grep -q 'ktap: pass, .* 0 failed, 1 skipped, 0 errors' \
		"$work/ok/triage.txt" || bad "triage does not read the KTAP as expected"
fi

# ---------------------------------------------------------------- boot 2
mkdir -p "$work/bad"
cp "$work/root.img" "$work/bad/root.img"
start=$(date +%s)
boot_qemu x86_64 "$kernel" "$initrd" "$work/bad/root.img" \
	"root=/dev/vda rw init=/bootproof/agent console=ttyS0 panic=-1 psi=1 cgroup_disable=memory bootproof.scenarios=cgroups,timeout,segv,crash bootproof.timeout=20" \
	"$work/bad" 600
q=$?
tr -d '\r' <"$work/bad/console.log" >"$work/bad/console.txt"
log=$work/bad/console.txt
echo "boot 2: qemu exit $q after $(($(date +%s) - start)) s"
sed -n '/^KTAP version 1/,$p' "$log" | grep -v '^\['
expect "$log" 1 cgroups 'not ok 1 cgroups$'
grep -q '^    # controllers: memory controller disabled at boot' "$log" ||
	bad "no diagnostic naming the disabled memory controller"
grep -q '^    not ok 4 memory_max$' "$log" || bad "memory_max did not fail"
expect "$log" 2 timeout 'not ok 2 timeout # TIMEOUT 20 s'
grep -q '^    not ok 2 sleep # TIMEOUT 20 s$' "$log" || bad "nested TIMEOUT line missing"
grep -q '^    ok 3 after # SKIP not run' "$log" || bad "unrun check not completed"
expect "$log" 3 segv 'not ok 3 segv # ERROR killed by SIGSEGV'
grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$log" ||
	bad "crash: no sysrq panic"
grep -q '^# bootproof-agent: done' "$log" && bad "agent finished after a panic?"
[ $q -ne 124 ] || bad "qemu still running after the panic (timeout)"

[ $rc -eq 0 ] && echo "agent-distro: all checks as expected"
exit $rc
