#!/bin/sh
# bootproof boot for real, through libvirtd and QEMU (TCG here), with
# Debian's distro kernel (installed by make setup) and the agent:
#  - a full boot: BOOTED, scenarios pass, kgdb SKIP (6.1 has no KGDB)
#  - a guest that panics (agent scenario "crash": sysrq-c) -> PANIC soon
#    after the panic, not at the timeout
#  - a guest whose init never finishes (scenario "hang") -> HUNG at the
#    timeout, naming the last milestone
#  - libvirt unreachable -> exit 3, message names libvirt
#  - SIGINT mid-boot -> exit 130, no domain, no qemu, run.json incomplete
#  - two boots at once both finish
#  - bad input -> exit 2
set -u
BP=${BOOTPROOF:-./bootproof}
K=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$K" ] || { echo "SKIP: no Debian kernel in /boot (make setup installs linux-image-amd64)"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
field() { # run.json FIELD -> first value of "FIELD":"value"
	sed -n "s/^ *\"$2\":\"\([^\"]*\)\".*/\1/p" "$1" | head -n 1
}
rundir() { sed -n 's/^results: \(.*\)\/$/\1/p' "$1"; }

# 1. The full boot.
"$BP" boot --kernel "$K" --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
cat "$T/out"
[ $rc = 0 ] || { no "distro boot exit $rc"; tail -n 20 "$T/err"; }
grep -q '^verdict: BOOTED' "$T/out" || no "distro boot not BOOTED"
for s in boot bpf cgroups userfaultfd mm; do
	grep -Eq "^  $s +pass" "$T/out" || no "scenario $s did not pass"
done
grep -Eq '^  kgdb +skip +CONFIG_KGDB not set' "$T/out" || no "kgdb not skipped for CONFIG_KGDB"
d=$(rundir "$T/out")
for f in console.log domain.xml run.json junit.xml; do
	[ -s "$d/$f" ] || no "missing $d/$f"
done
grep -q '"complete":true' "$d/run.json" || no "run.json not complete"
# A modular kernel: bootproof's own initramfs, not the distro's, loaded
# the root's modules and handed over to the agent on the root image.
grep -Eq '"initrd":"[^"]*/images/initramfs-x86_64-[0-9a-f]{16}\.cpio"' "$d/run.json" ||
	no "run.json: the initrd is not bootproof's initramfs: $(grep -o '"initrd":"[^"]*"' "$d/run.json")"
tr -d '\r' <"$d/console.log" | grep -Eq '^bootproof-initramfs: [0-9]+ modules loaded' ||
	no "the initramfs did not report its modules"
tr -d '\r' <"$d/console.log" | grep -q '^bootproof-initramfs: /dev/vda mounted in .* running /bootproof/agent' ||
	no "the initramfs did not mount the root and run the agent"
# The ISA pvpanic device libvirt attaches is found (ACPI QEMU0001) and
# bound: the check passes, it does not skip.
# The agent's virtio-serial channel is a port of its name in the guest,
# the agent writes its line there, and it reaches the host's file.
tr -d '\r' <"$d/console.log" | grep -q 'virtio_channel: wrote .bootproof-agent: channel ok .* to /dev/vport' ||
	no "the agent wrote nothing to its channel: $(tr -d '\r' <"$d/console.log" | grep -E 'virtio_channel' | tail -n 2)"
grep -q "^bootproof-agent: channel ok $(basename "$K" | sed 's/^vmlinuz-//')\$" "$d/channel.log" ||
	no "channel.log lacks the agent's line"
tr -d ' \n' <"$d/run.json" | grep -q '"channel":{"bytes":[1-9][0-9]*,"agent_line":true,"file":"channel.log"}' ||
	no "run.json: boot's host.channel does not record the line"
tr -d '\r' <"$d/console.log" | grep -Eq '^ +ok [0-9]+ pvpanic$' ||
	no "pvpanic check did not pass: $(tr -d '\r' <"$d/console.log" | grep -E 'pvpanic' | tail -n 2)"
grep -q '"accel":"tcg"' "$d/run.json" || grep -q '"accel":"kvm"' "$d/run.json" || no "accelerator not recorded"
grep -q 'testcase classname=.* name="scenario:bpf"' "$d/junit.xml" || no "junit lacks scenario:bpf"
# The overlay and staged kernel go as soon as libvirt let go of the
# domain (a process of bootproof's own removes them, docs/boot.md): after
# libvirtd restored their owners, so it logged nothing about them.
staged() { ls /var/cache/bootproof/runs/ 2>/dev/null | grep "$(basename "$d")"; }
i=0
while [ -n "$(staged)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -z "$(staged)" ] || no "staging left behind: $(staged)"
lvlog=/var/log/libvirt/libvirtd.stdout.log
[ ! -f "$lvlog" ] || ! grep "$(basename "$d")" "$lvlog" | grep -i 'error' ||
	no "libvirtd logged errors about the guest's files"

# 2. Panic: sysrq-c from the agent.
start=$(date +%s)
"$BP" boot --kernel "$K" --scenarios crash --timeout 240 --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
el=$(($(date +%s) - start))
[ $rc = 1 ] || no "crash: exit $rc, want 1"
grep -q '^verdict: PANIC (Kernel panic - not syncing: sysrq triggered crash)' "$T/out" || no "crash: $(head -n 1 "$T/out")"
[ $el -lt 200 ] || no "crash: took ${el}s: the panic must end the boot, not the timeout"
# The guest's pvpanic (ISA, bound to pvpanic-mmio) told QEMU, and libvirt's
# crash event ended the boot.
d=$(rundir "$T/out")
grep -q '"how":"panic-event"' "$d/run.json" ||
	no "crash: the boot did not end on the pvpanic event: $(grep '"how"' "$d/run.json")"
echo "ok panic in ${el}s"

# 3. Hang: HUNG at the timeout with the last milestone.
"$BP" boot --kernel "$K" --scenarios hang --timeout 75 --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "hang: exit $rc, want 1"
grep -q '^verdict: HUNG (no end within 75s; last milestone: KTAP_START' "$T/out" || no "hang: $(head -n 1 "$T/out")"
echo "ok hang"

# 4. libvirt unreachable: infrastructure, not the kernel.
"$BP" boot --kernel "$K" --scenarios boot --connect 'qemu+unix:///system?socket=/nonexistent/libvirt-sock' \
	--results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 3 ] || no "no libvirt: exit $rc, want 3"
grep -q 'infrastructure: cannot connect to libvirt at qemu+unix' "$T/err" || no "no libvirt: $(cat "$T/err" | tail -n 2)"
grep -q '^verdict: INFRA' "$T/out" || no "no libvirt: verdict $(head -n 1 "$T/out")"
echo "ok libvirt unreachable"

# 5. SIGINT during the boot.
"$BP" boot --kernel "$K" --scenarios boot --results "$T/int" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 120 ] && ! grep -q KERNEL_BANNER "$T/err" 2>/dev/null; do sleep 1; i=$((i + 1)); done
name=$(sed -n 's/.*starting x86_64 guest \(bootproof-[^ ]*\).*/\1/p' "$T/err")
kill -INT $pid
wait $pid; rc=$?
[ $rc = 130 ] || no "SIGINT: exit $rc, want 130"
[ -n "$name" ] || no "SIGINT: guest name not seen"
virsh -c qemu:///system list --all --name | grep -qx "$name" && no "SIGINT: domain $name still defined"
pgrep -f "guest=$name" >/dev/null && no "SIGINT: qemu of $name still running"
d=$(ls -d "$T"/int/*/ | head -n 1)
grep -q '"complete":false' "$d/run.json" || no "SIGINT: run.json not marked incomplete"
grep -q '"verdict":"INCOMPLETE"' "$d/run.json" || no "SIGINT: verdict not INCOMPLETE"
[ -s "$d/console.log" ] || no "SIGINT: console log lost"
echo "ok SIGINT"

# 6. Two boots at once: distinct names and directories, both pass.
"$BP" boot --kernel "$K" --scenarios boot --results "$T/par" >"$T/o1" 2>"$T/e1" &
p1=$!
"$BP" boot --kernel "$K" --scenarios boot --results "$T/par" >"$T/o2" 2>"$T/e2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ] || no "parallel: exits $r1 $r2 ($(head -n 1 "$T/o1"); $(head -n 1 "$T/o2"))"
[ "$(ls "$T/par" | wc -l)" = 2 ] || no "parallel: want 2 run directories"
echo "ok parallel"

# 7. Bad input.
head -c 100000 /bin/sh >"$T/notakernel"
"$BP" boot --kernel "$T/notakernel" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q 'not an x86 kernel image' "$T/err" || no "not a kernel: exit $rc $(cat "$T/err")"
"$BP" boot --kernel "$K" --arch i386 >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q 'is a 64-bit kernel' "$T/err" || no "arch mismatch: exit $rc $(cat "$T/err")"
"$BP" boot --kernel /nonexistent >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--kernel /nonexistent' "$T/err" || no "missing kernel: exit $rc"
"$BP" boot --kernel "$K" --accel warp >/dev/null 2>&1; [ $? = 2 ] || no "bad --accel must exit 2"
# Typos and wrong files are refused before any guest starts (no run
# directory is made), naming the option and what is wrong.
bad() { # EXPECTED-MESSAGE ARGS...
	want=$1; shift
	"$BP" boot --kernel "$K" --results "$T/bad" "$@" >/dev/null 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -qF -- "$want" "$T/err" || no "$*: exit $rc, want 2 and '$want': $(cat "$T/err")"
}
bad "--scenarios boot,bfp: unknown scenario 'bfp'" --scenarios boot,bfp
bad "--allow warning,oopz: unknown problem kind 'oopz'" --allow warning,oopz
bad "--config /etc/passwd: not a kernel config" --config /etc/passwd
bad "--vmlinux $K: not an ELF file" --vmlinux "$K"
[ ! -e "$T/bad" ] || no "bad input made a run directory: $(ls "$T/bad")"

exit $fail
