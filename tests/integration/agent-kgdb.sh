#!/bin/sh
# The guest half of the kgdb scenario against a real kgdb, with a small
# host half written here (the harness has its own): a kernel with
# CONFIG_KGDB and CONFIG_KGDB_SERIAL_CONSOLE boots under plain QEMU with
# ttyS1 on a TCP socket; on "# kgdb: ready" we send one byte, wait for
# "Entering KGDB", attach gdb (no symbols needed), read the registers and
# detach; the guest must report that it resumed.  A second boot sends
# nothing: the guest must give up after bootproof.kgdb_wait without ever
# entering the debugger, and power off.
#
# Needs a bzImage with virtio-blk and ext4 built in (no initrd): set
# BP_KGDB_KERNEL, default /var/tmp/bp-dev/agent/k612/arch/x86/boot/bzImage,
# built from linux-source-6.12 (tinyconfig + a fragment, about 1300 objects):
#   S=/var/tmp/bp-dev/linux-source-6.12 O=/var/tmp/bp-dev/agent/k612
#   make -C $S O=$O ARCH=x86_64 tinyconfig
#   $S/scripts/kconfig/merge_config.sh -m -O $O $O/.config FRAGMENT
#   make -C $S O=$O ARCH=x86_64 olddefconfig
#   nice make -C $S O=$O ARCH=x86_64 -j2 bzImage
# where FRAGMENT holds =y for: 64BIT PRINTK TTY SERIAL_8250
# SERIAL_8250_CONSOLE PCI VIRTIO_MENU VIRTIO_PCI VIRTIO_BLK BLK_DEV BLOCK
# EXT4_FS PROC_FS SYSFS DEVTMPFS DEVTMPFS_MOUNT BINFMT_ELF MULTIUSER FUTEX
# TMPFS MAGIC_SYSRQ KGDB KGDB_SERIAL_CONSOLE IKCONFIG IKCONFIG_PROC KALLSYMS
# ACPI UNIX NET INET SHMEM POSIX_TIMERS EPOLL SIGNALFD TIMERFD EVENTFD
# FILE_LOCKING PROC_SYSCTL DEBUG_KERNEL (so BPF, cgroups, userfaultfd, KSM,
# THP, MGLRU, virtio-net/rng are absent: their SKIP reasons are checked).
# SKIP without it.
set -u
here=$(dirname "$0")
. "$here/agent-lib.inc"

build=${BP_BUILD:-build}
agent=$build/guest/x86_64/bootproof-agent
kernel=${BP_KGDB_KERNEL:-/var/tmp/bp-dev/agent/k612/arch/x86/boot/bzImage}
[ -x "$agent" ] || skip "no agent binary $agent (make guest)"
[ -f "$kernel" ] || skip_host "no kgdb kernel $kernel: make setup builds none (set BP_KGDB_KERNEL)"
[ -f /bin/busybox ] || skip "no /bin/busybox (busybox-static)"
need qemu-system-x86_64 mkfs.ext4 gdb perl timeout

work=$(mktemp -d "${TMPDIR:-/var/tmp}/bp-agent-kgdb.XXXXXX")
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	[ "${BP_KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM

rc=0
bad() { echo "FAIL: $*"; rc=1; }

free_port() {
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
					      LocalPort => 0, Listen => 1) or die;
		print $s->sockport, "\n";'
}

# wait_line FILE TEXT SECONDS: 0 once FILE has a line containing TEXT.
wait_line() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		[ -f "$1" ] && tr -d '\r' <"$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# send_byte PORT: connect, send "+", close.
send_byte() {
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1",
					      PeerPort => $ARGV[0]) or die "connect: $!";
		print $s "+"; close $s;' "$1"
}

mkroot "$work/root" "$agent" /bin/busybox
mkimage "$work/root" "$work/root.img" >/dev/null

boot() { # DIR WAIT
	mkdir -p "$1"
	cp "$work/root.img" "$1/root.img"
	port=$(free_port)
	nice timeout 600 qemu-system-x86_64 -accel tcg -m 512 -smp 2 \
		-display none -no-reboot -nodefaults -kernel "$kernel" \
		-append "root=/dev/vda rw init=/bootproof/agent console=ttyS0 panic=-1 bootproof.scenarios=boot,kgdb,bpf,cgroups,userfaultfd,mm bootproof.kgdb=ttyS1 bootproof.kgdb_wait=$2" \
		-drive "file=$1/root.img,format=raw,if=virtio" \
		-serial "file:$1/console.log" \
		-serial "tcp:127.0.0.1:$port,server=on,wait=off" \
		-netdev user,id=n0 -device virtio-net-pci,netdev=n0 \
		-device virtio-rng-pci &
	qpid=$!
}

# ---------------------------------------------------------------- boot 1
boot "$work/attach" 60
log=$work/attach/console.log
if wait_line "$log" '# kgdb: ready port=ttyS1' 300; then
	send_byte "$port" || bad "cannot connect to the kgdb port $port"
	if wait_line "$log" 'Entering KGDB' 60; then
		timeout 120 gdb -q -nx -batch -ex 'set remotetimeout 10' \
			-ex 'set architecture i386:x86-64' \
			-ex "target remote 127.0.0.1:$port" \
			-ex 'info registers rip' -ex 'detach' \
			>"$work/attach/gdb.txt" 2>&1
		echo "gdb exit $?:"
		cat "$work/attach/gdb.txt"
		grep -q '^rip ' "$work/attach/gdb.txt" || bad "gdb read no registers"
	else
		bad "no 'Entering KGDB' after the byte"
	fi
else
	bad "no '# kgdb: ready' line"
fi
wait "$qpid"
q=$?
qpid=
tr -d '\r' <"$log" >"$work/attach/console.txt"
sed -n '/^KTAP version 1/,$p' "$work/attach/console.txt" | grep -v '^\['
[ $q -eq 0 ] || bad "boot 1: qemu exit $q"
grep -q '^    # kgdb: resumed after ' "$work/attach/console.txt" || bad "no resumed line"
grep -qx 'ok 2 kgdb' "$work/attach/console.txt" || bad "kgdb did not pass"
grep -q '^    ok 1 kgdbts # SKIP CONFIG_KGDB_TESTS not set' "$work/attach/console.txt" ||
	bad "kgdbts not skipped for CONFIG_KGDB_TESTS"
grep -q '^# bootproof-agent: kernel config from /proc/config.gz' \
	"$work/attach/console.txt" || bad "config not read from /proc/config.gz"
grep -q '^    ok 6 virtio_rng # SKIP CONFIG_HW_RANDOM_VIRTIO not set' \
	"$work/attach/console.txt" || bad "no config-based SKIP reason"
# The kernel lacks them: SKIP with the config's reason, never a pass.
grep -qx 'ok 3 bpf # SKIP CONFIG_BPF_SYSCALL not set' \
	"$work/attach/console.txt" || bad "bpf not skipped for CONFIG_BPF_SYSCALL"
grep -qx 'ok 5 userfaultfd # SKIP CONFIG_USERFAULTFD not set' \
	"$work/attach/console.txt" || bad "userfaultfd not skipped"
grep -qx 'ok 6 mm # SKIP all checks skipped: ksm: CONFIG_KSM not set; thp: CONFIG_TRANSPARENT_HUGEPAGE not set; mglru: CONFIG_LRU_GEN not set' "$work/attach/console.txt" ||
	bad "mm not skipped"
grep -q '^not ok' "$work/attach/console.txt" && bad "a scenario failed"

# ---------------------------------------------------------------- boot 2
boot "$work/alone" 5
wait "$qpid"
q=$?
qpid=
tr -d '\r' <"$work/alone/console.log" >"$work/alone/console.txt"
sed -n '/^KTAP version 1/,$p' "$work/alone/console.txt" | grep -v '^\['
[ $q -eq 0 ] || bad "boot 2: qemu exit $q (the guest must not hang)"
grep -q '^    not ok 3 host_debugger' "$work/alone/console.txt" ||
	bad "host_debugger should fail without a host"
grep -q '^    ok 4 resumed # SKIP no host debugger' "$work/alone/console.txt" ||
	bad "resumed should be skipped without a host"
grep -q 'Entering KGDB' "$work/alone/console.txt" && bad "entered kgdb without a host"
grep -q '^# bootproof-agent: done' "$work/alone/console.txt" || bad "agent did not finish"

[ $rc -eq 0 ] && echo "agent-kgdb: all checks as expected"
exit $rc
