#!/bin/sh
# Record the golden console logs in this directory from real QEMU (TCG) boots.
#
#   tests/data/console/record.sh [TARGET...]
#
# Targets (default: all):
#   kernel-x86_64 kernel-i386   build the 6.12 kernels (tinyconfig + fragments)
#   kernel-dbg                  the x86_64 debug kernel (+ dbg.config, modules,
#                               modules/bp_provoke.ko)
#   kernel-kcsan                x86_64 with KCSAN (+ kcsan.config, bp_provoke.ko)
#   kernel-kmsan                x86_64 with KMSAN, built with clang (+ kmsan.config,
#                               bp_provoke.ko)
#   kernel-arm64                arm64 (tinyconfig + arm64.config), cross-built
#   initramfs-x86_64 initramfs-i386 initramfs-dbg initramfs-kcsan
#   initramfs-kmsan initramfs-arm64 debian-rootfs
#   logs                        every log below (builds what it needs)
#   <name>                      one log, e.g. x86_64-lkdtm-warning-1
#   list                        print the log names
#
# Environment (defaults in brackets):
#   SRC   Linux 6.12 source tree, used read-only [/var/tmp/bp-dev/linux-source-6.12]
#   WORK  build area, never committed           [/var/tmp/bp-dev/golden]
#   OUT   where logs are written                [directory of this script]
#   BOOT  Debian kernel directory               [/boot]
#   DEB_KVER  Debian kernel version             [6.1.0-57-amd64]
#   BUSYBOX   static x86_64 busybox             [/bin/busybox]
#   BUSYBOX_I386  static i386 busybox  [$WORK/busybox-i386/bin/busybox, fetched
#                 with apt-get download busybox-static:i386 when missing]
#   BUSYBOX_ARM64 static arm64 busybox [$WORK/busybox-arm64/bin/busybox, likewise]
#   AGENT     static x86_64 bootproof agent (the debug initramfs)
#             [build/guest/x86_64/bootproof-agent: make guest]
#   JOBS  make -j                               [2]
#   CC    kernel compiler                       [ccache gcc if ccache exists;
#         clang for kmsan, aarch64-linux-gnu-gcc for arm64]
# Needs: qemu-system-x86, busybox-static, e2fsprogs, cpio, kernel build deps;
# clang for kmsan; gcc-aarch64-linux-gnu and qemu-system-arm for arm64.
# Debian's gcc-aarch64-linux-gnu and gcc-multilib (which bootproof's i386
# agent needs, make setup) conflict: installing one removes the other, so
# put gcc-multilib back (make setup) after building the arm64 kernel.
# Everything runs under TCG (no KVM).  The boots take about 20 minutes on an
# idle 2-core host; each kernel build 30-60 minutes (less with a warm ccache).
# Boot logs recorded on an overloaded host pick up spurious soft lockups and
# timer failures (see the *-starved.log files): record on a quiet host.
# dpkg --add-architecture i386 (for busybox-static:i386) needs root.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-/var/tmp/bp-dev/linux-source-6.12}
WORK=${WORK:-/var/tmp/bp-dev/golden}
OUT=${OUT:-$here}
BOOT=${BOOT:-/boot}
DEB_KVER=${DEB_KVER:-6.1.0-57-amd64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
BUSYBOX_I386=${BUSYBOX_I386:-$WORK/busybox-i386/bin/busybox}
AGENT=${AGENT:-$here/../../../build/guest/x86_64/bootproof-agent}
BUSYBOX_ARM64=${BUSYBOX_ARM64:-$WORK/busybox-arm64/bin/busybox}
JOBS=${JOBS:-2}
CCACHE=
command -v ccache >/dev/null 2>&1 && CCACHE="ccache "

die() { echo "record.sh: $*" >&2; exit 1; }
note() { echo "record.sh: $*" >&2; }

kdir() { echo "$WORK/k-$1"; }
kimage() {
	case $1 in
	arm64) echo "$(kdir "$1")/arch/arm64/boot/Image" ;;
	*) echo "$(kdir "$1")/arch/x86/boot/bzImage" ;;
	esac
}
# The compiler of a variant (CC overrides it).
kcc() {
	if [ -n "${CC:-}" ]; then echo "$CC"; return; fi
	case $1 in
	kmsan) echo "${CCACHE}clang" ;;
	arm64) echo "${CCACHE}aarch64-linux-gnu-gcc" ;;
	*) echo "${CCACHE}gcc" ;;
	esac
}
# The kernel variants: x86_64, i386, arm64, and the x86_64 ones with a
# fragment of their own, dbg (dbg.config), kcsan (kcsan.config) and kmsan
# (kmsan.config).
karch() { case $1 in dbg | kcsan | kmsan) echo x86_64 ;; *) echo "$1" ;; esac; }
# Variants that build modules/bp_provoke.ko.
has_modules() { case $1 in dbg | kcsan | kmsan) true ;; *) false ;; esac; }
kfrags() {
	case $1 in
	dbg | kcsan | kmsan) echo "$here/lkdtm.config $here/x86_64.config $here/$1.config" ;;
	arm64) echo "$here/arm64.config" ;;
	*) echo "$here/lkdtm.config $here/$1.config" ;;
	esac
}

# ---------------------------------------------------------------- kernels
# kernel VARIANT: tinyconfig + kvm_guest.config + the variant's fragments,
# then check that every line of the fragments survived olddefconfig.  dbg
# and kcsan also build their modules (dbg: samples/kmemleak) and
# modules/bp_provoke.ko.
build_kernel() {
	v=$1 arch=$(karch "$1") k=$(kdir "$1") cc=$(kcc "$1")
	cross=
	[ "$arch" = arm64 ] && cross=aarch64-linux-gnu-
	# shellcheck disable=SC2046
	set -- $(kfrags "$v")
	mkdir -p "$k"
	kmake() { make -C "$SRC" O="$k" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc" "$@"; }
	kmake tinyconfig
	kmake kvm_guest.config
	(cd "$k" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$k" \
		"$k/.config" "$@")
	kmake olddefconfig
	check_config "$k/.config" "$@"
	img=bzImage
	[ "$arch" = arm64 ] && img=Image
	nice make -C "$SRC" O="$k" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc" -j"$JOBS" $img
	if has_modules "$v"; then
		nice make -C "$SRC" O="$k" ARCH="$arch" CC="$cc" -j"$JOBS" modules
		m=$WORK/mod-$v
		rm -rf "$m"
		mkdir -p "$m"
		cp "$here/modules/bp_provoke.c" "$here/modules/Kbuild" "$m/"
		nice make -C "$SRC" O="$k" ARCH="$arch" CC="$cc" M="$m" modules
	fi
	cp "$k/.config" "$WORK/config-$v"
	note "kernel $v: $(kimage "$v") ($(make -s -C "$SRC" O="$k" ARCH="$arch" CROSS_COMPILE="$cross" kernelrelease))"
}

# check_config CONFIG FRAGMENT...: every CONFIG_X=v / "# CONFIG_X is not set"
# line of the fragments must be in CONFIG.
check_config() {
	cfg=$1; shift
	bad=0
	for frag in "$@"; do
		n=0
		while IFS= read -r line; do
			n=$((n + 1))
			case $line in
			CONFIG_*=*) want=$line ;;
			"# CONFIG_"*" is not set") want=$line ;;
			*) continue ;;
			esac
			if ! grep -qxF "$want" "$cfg"; then
				sym=${want%%=*}; sym=${sym#\# }; sym=${sym%% *}
				got=$(grep -E "^$sym=|^# $sym is not set" "$cfg" || echo "absent")
				# a symbol whose dependencies hide it is not set either
				case $want in "# "*) [ "$got" = absent ] && continue ;; esac
				echo "$frag:$n: expected '$want', got '$got'" >&2
				bad=1
			fi
		done <"$frag"
	done
	[ $bad -eq 0 ] || die "$cfg does not match the fragments"
}

# build_busybox DEBARCH BINARY: Debian's busybox-static for i386 or arm64,
# unpacked into the build area only.
build_busybox() {
	a=$1 bin=$2
	[ -x "$bin" ] && return 0
	if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
		dpkg --add-architecture "$a"
		apt-get update
	fi
	d=$WORK/busybox-$a
	mkdir -p "$d"
	(cd "$d" && apt-get download "busybox-static:$a" &&
		dpkg-deb -x busybox-static_*_"$a".deb .)
	[ -x "$bin" ] || die "no $bin"
}

gen_init_cpio() {
	g=$WORK/gen_init_cpio
	[ -x "$g" ] || gcc -O2 -o "$g" "$SRC/usr/gen_init_cpio.c"
	"$g" "$@"
}

# The guest's /init (all variants).  lkdtm=TYPE on the kernel command line:
# write TYPE to debugfs provoke-crash/DIRECT from a background shell (so an
# oops kills that shell, not init); provoke=NAME: insmod /bp_provoke.ko
# what=NAME, likewise; provoke=kmemleak-test: insmod the kernel's own
# /kmemleak-test.ko; provoke=A,B: each in turn.  Then wait lkdtm_wait=N
# seconds (default 5); with kmemleak_scan=1 ask kmemleak for a verbose scan
# and print its file too; then power off, or with agent=1 exec the
# bootproof agent (debug kernel only), which runs the scenarios that
# bootproof.scenarios= names, its own kmemleak scan and lockdep check, and
# powers off.  Without any of them it just powers off.
write_init() {
	cat >"$1" <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "bootproof-init: up, kernel $(uname -r) $(uname -m)"
crash= wait=5 provoke= scan= agent=
for arg in $(cat /proc/cmdline); do
	case $arg in
	agent=*) agent=${arg#agent=} ;;
	lkdtm=*) crash=${arg#lkdtm=} ;;
	lkdtm_wait=*) wait=${arg#lkdtm_wait=} ;;
	provoke=*) provoke=${arg#provoke=} ;;
	kmemleak_scan=*) scan=${arg#kmemleak_scan=} ;;
	esac
done
if [ -n "$crash" ]; then
	echo "bootproof-init: provoking $crash"
	echo "$crash" >/sys/kernel/debug/provoke-crash/DIRECT &
fi
rest=$provoke
while [ -n "$rest" ]; do
p=${rest%%,*}
case $rest in *,*) rest=${rest#*,} ;; *) rest= ;; esac
case $p in
busy_inodes)
	# a file system for the module to keep an inode of past umount
	mkdir -p /bpfs && mount -t ramfs ramfs /bpfs && echo x >/bpfs/f
	insmod /bp_provoke.ko what=busy_inodes
	umount /bpfs
	;;
kmemleak-test)
	echo "bootproof-init: insmod kmemleak-test"
	insmod /kmemleak-test.ko &
	;;
*)
	echo "bootproof-init: provoking $p"
	insmod /bp_provoke.ko "what=$p" &
	;;
esac
done
if [ -n "$crash$provoke" ]; then
	sleep "$wait"
	echo "bootproof-init: still running after ${wait}s"
fi
if [ "$scan" = 1 ]; then
	echo "bootproof-init: kmemleak scan"
	# verbose: the kernel prints each leak (as the agent has it do); the
	# copy cat prints is user space's and must not count twice
	echo 1 >/sys/module/kmemleak/parameters/verbose
	# two scans: the first only records each object's checksum
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
if [ "$agent" = 1 ]; then
	echo "bootproof-init: exec /bootproof-agent"
	exec /bootproof-agent
fi
echo "bootproof-init: powering off"
poweroff -f
INIT
}

# initramfs VARIANT: busybox + /init as a newc cpio, built with the
# kernel's own usr/gen_init_cpio (no root needed for /dev/console); dbg and
# kcsan add their modules.
build_initramfs() {
	v=$1 arch=$(karch "$1")
	case $arch in
	x86_64) bb=$BUSYBOX ;;
	i386) build_busybox i386 "$BUSYBOX_I386"; bb=$BUSYBOX_I386 ;;
	arm64) build_busybox arm64 "$BUSYBOX_ARM64"; bb=$BUSYBOX_ARM64 ;;
	esac
	d=$WORK/initramfs-$v
	mkdir -p "$d"
	write_init "$d/init"
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		echo "dir /tmp 1777 0 0"
		echo "dir /bin 0755 0 0"
		echo "file /bin/busybox $bb 0755 0 0"
		for a in sh mount umount mkdir cat echo sleep uname poweroff ls dmesg insmod; do
			echo "slink /bin/$a busybox 0777 0 0"
		done
		echo "file /init $d/init 0755 0 0"
		if has_modules "$v"; then
			echo "file /bp_provoke.ko $WORK/mod-$v/bp_provoke.ko 0644 0 0"
		fi
		if [ "$v" = dbg ]; then
			echo "file /kmemleak-test.ko $(kdir dbg)/samples/kmemleak/kmemleak-test.ko 0644 0 0"
			[ -x "$AGENT" ] || die "no agent at $AGENT (make guest)"
			echo "file /bootproof-agent $AGENT 0755 0 0"
		fi
	} >"$d/list"
	gen_init_cpio "$d/list" >"$WORK/initramfs-$v.cpio"
	note "initramfs $v: $WORK/initramfs-$v.cpio"
}

# A 16 MiB ext4 root disk for the Debian kernel: busybox, /sbin/init that
# prints and powers off.  Debian's initrd mounts it and switches to it.
build_debian_rootfs() {
	d=$WORK/debian-rootfs
	rm -rf "$d"
	mkdir -p "$d/bin" "$d/sbin" "$d/dev" "$d/proc" "$d/sys" "$d/run" \
		"$d/tmp" "$d/etc"
	cp "$BUSYBOX" "$d/bin/busybox"
	for a in sh mount cat echo sleep uname poweroff ls; do
		ln -sf busybox "$d/bin/$a"
	done
	cat >"$d/sbin/init" <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc 2>/dev/null
echo "bootproof-init: root mounted, kernel $(uname -r) $(uname -m)"
echo "bootproof-init: powering off"
poweroff -f
INIT
	chmod 755 "$d/sbin/init"
	rm -f "$WORK/debian-root.img"
	E2FSPROGS_FAKE_TIME=1700000000 mkfs.ext4 -q -F -L bproot \
		-U 6d3c6b9e-5a4f-4b1e-9c1e-0b0e2f3a4d5c -d "$d" \
		"$WORK/debian-root.img" 16M
	note "debian root disk: $WORK/debian-root.img"
}

# ---------------------------------------------------------------- boots
# qemu_log NAME TIMEOUT QEMU-ARGS...: boot under TCG with the serial console
# in $OUT/NAME.log.  The log is written to a temp file and renamed; the
# qemu exit status (124 = killed by timeout) goes to $WORK/status/NAME.
qemu_log() {
	name=$1 tmo=$2; shift 2
	mkdir -p "$WORK/status"
	tmp=$WORK/status/$name.log.tmp
	rm -f "$tmp"
	start=$(date +%s)
	note "recording $name (timeout ${tmo}s): $*"
	set +e
	# shellcheck disable=SC2086
	timeout "$tmo" nice $QSYS \
		-nodefaults -display none -no-reboot -monitor none \
		-serial "file:$tmp" "$@" </dev/null
	rc=$?
	set -e
	end=$(date +%s)
	mv "$tmp" "$OUT/$name.log"
	echo "$rc $((end - start)) $(date -u +%Y-%m-%dT%H:%MZ)" >"$WORK/status/$name"
	note "$name: qemu exit $rc after $((end - start))s, $(wc -c <"$OUT/$name.log") bytes"
}

# The emulator and machine of the boots (boot612 sets it per arch).
QSYS="qemu-system-x86_64 -machine pc,accel=tcg"

need_kernel() {
	[ -f "$(kimage "$1")" ] || build_kernel "$1"
	[ -f "$WORK/initramfs-$1.cpio" ] || build_initramfs "$1"
}

deb_kernel=$BOOT/vmlinuz-$DEB_KVER
deb_initrd=$BOOT/initrd.img-$DEB_KVER

debian61_boot() {
	[ -f "$WORK/debian-root.img" ] || build_debian_rootfs
	qemu_log debian61-boot 600 -m 1024 -smp 2 \
		-kernel "$deb_kernel" -initrd "$deb_initrd" \
		-drive "file=$WORK/debian-root.img,if=virtio,format=raw,snapshot=on" \
		-append "console=ttyS0 root=/dev/vda ro panic=-1"
}
debian61_noroot_panic() {
	qemu_log debian61-noroot-panic 300 -m 512 -smp 2 \
		-kernel "$deb_kernel" \
		-append "console=ttyS0 root=/dev/vdz panic=-1"
}
# Debian's initrd waits rootdelay= seconds for a root that never comes, then
# drops to its busybox shell and waits for input forever: killed by timeout.
debian61_initramfs_noroot() {
	qemu_log debian61-initramfs-noroot 150 -m 1024 -smp 2 \
		-kernel "$deb_kernel" -initrd "$deb_initrd" \
		-append "console=ttyS0 root=/dev/vdz rootdelay=5 panic=-1"
}

# boot612 VARIANT NAME TIMEOUT [EXTRA-CMDLINE...]  (dbg and kcsan: 512 MiB,
# for lockdep's and kmemleak's tables; kmsan 1 GiB, for its shadow and
# origin pages; arm64 on QEMU's virt machine, console on its PL011)
boot612() {
	v=$1 name=$2 tmo=$3
	shift 3
	extra=$*
	mem=256 con=ttyS0
	has_modules "$v" && mem=512
	[ "$v" = kmsan ] && mem=1024
	if [ "$(karch "$v")" = arm64 ]; then
		QSYS="qemu-system-aarch64 -machine virt,accel=tcg -cpu cortex-a57"
		con=ttyAMA0
	fi
	need_kernel "$v"
	qemu_log "$name" "$tmo" -m $mem -smp 2 \
		-kernel "$(kimage "$v")" -initrd "$WORK/initramfs-$v.cpio" \
		-append "console=$con panic=-1 $extra"
	QSYS="qemu-system-x86_64 -machine pc,accel=tcg"
}

x86_64_boot() { boot612 x86_64 x86_64-boot 300 ""; }
i386_boot() { boot612 i386 i386-boot 300 ""; }
x86_64_kunit() { boot612 x86_64 x86_64-kunit 300 "kunit.enable=1"; }
# A boot cut off mid-way: the clean boot log, truncated by hand right after
# the "Linux version" banner line plus the next 100 lines, mid-line.
x86_64_truncated() {
	[ -f "$OUT/x86_64-boot.log" ] || x86_64_boot
	n=$(grep -n -m1 'Linux version' "$OUT/x86_64-boot.log" | cut -d: -f1)
	[ -n "$n" ] || die "no banner in x86_64-boot.log"
	head -n $((n + 100)) "$OUT/x86_64-boot.log" >"$OUT/x86_64-truncated.log"
	head -n $((n + 101)) "$OUT/x86_64-boot.log" | tail -n 1 | head -c 20 \
		>>"$OUT/x86_64-truncated.log"
	note "x86_64-truncated: $(wc -c <"$OUT/x86_64-truncated.log") bytes"
}

# lkdtm NAME TYPE WAIT TIMEOUT [EXTRA-CMDLINE...]
lkdtm() {
	n=$1 t=$2 w=$3 tm=$4
	shift 4
	boot612 x86_64 "x86_64-lkdtm-$n" "$tm" "lkdtm=$t lkdtm_wait=$w $*"
}

# dbg NAME WAIT TIMEOUT CMDLINE...: a boot of the debug kernel
dbg() {
	n=$1 w=$2 tm=$3
	shift 3
	boot612 dbg "x86_64-dbg-$n" "$tm" "lkdtm_wait=$w $*"
}

# kcsan NAME WAIT TIMEOUT CMDLINE...: a boot of the KCSAN kernel
kcsan() {
	n=$1 w=$2 tm=$3
	shift 3
	boot612 kcsan "x86_64-kcsan-$n" "$tm" "lkdtm_wait=$w $*"
}

# kmsan NAME WAIT TIMEOUT CMDLINE...: a boot of the KMSAN kernel
kmsan() {
	n=$1 w=$2 tm=$3
	shift 3
	boot612 kmsan "x86_64-kmsan-$n" "$tm" "lkdtm_wait=$w $*"
}

# One line per log, in recording order: NAME FUNCTION [ARGS...]
logs_table() {
	cat <<'TABLE'
debian61-boot debian61_boot
debian61-noroot-panic debian61_noroot_panic
debian61-initramfs-noroot debian61_initramfs_noroot
x86_64-boot x86_64_boot
x86_64-truncated x86_64_truncated
x86_64-kunit x86_64_kunit
x86_64-lkdtm-warning-1 lkdtm warning-1 WARNING 5 300
x86_64-lkdtm-warning-2 lkdtm warning-2 WARNING 5 300
x86_64-lkdtm-warning-message lkdtm warning-message WARNING_MESSAGE 5 300
x86_64-lkdtm-warning-panic-on-warn lkdtm warning-panic-on-warn WARNING 5 300 panic_on_warn=1
x86_64-lkdtm-bug lkdtm bug BUG 5 300
x86_64-lkdtm-exception-1 lkdtm exception-1 EXCEPTION 5 300
x86_64-lkdtm-exception-2 lkdtm exception-2 EXCEPTION 5 300
x86_64-lkdtm-exception-oops-panic lkdtm exception-oops-panic EXCEPTION 5 300 oops=panic
x86_64-lkdtm-panic lkdtm panic PANIC 5 300
x86_64-lkdtm-softlockup lkdtm softlockup SOFTLOCKUP 40 400 watchdog_thresh=5 softlockup_panic=1
x86_64-lkdtm-softlockup-timeout lkdtm softlockup-timeout SOFTLOCKUP 40 75 watchdog_thresh=5
x86_64-lkdtm-hardlockup lkdtm hardlockup HARDLOCKUP 40 400 watchdog_thresh=5 nmi_watchdog=panic
x86_64-lkdtm-hung-task lkdtm hung-task HUNG_TASK 40 400 sysctl.kernel.hung_task_timeout_secs=5
x86_64-lkdtm-array-bounds lkdtm array-bounds ARRAY_BOUNDS 5 300
x86_64-lkdtm-corrupt-list-add lkdtm corrupt-list-add CORRUPT_LIST_ADD 5 300
x86_64-lkdtm-refcount-inc-overflow lkdtm refcount-inc-overflow REFCOUNT_INC_OVERFLOW 5 300
x86_64-lkdtm-kfence-read-after-free lkdtm kfence-read-after-free KFENCE_READ_AFTER_FREE 30 300
x86_64-lkdtm-corrupt-stack lkdtm corrupt-stack CORRUPT_STACK 5 300
x86_64-lkdtm-exec-data lkdtm exec-data EXEC_DATA 5 300
x86_64-lkdtm-usercopy-slab-size-to lkdtm usercopy-slab-size-to USERCOPY_SLAB_SIZE_TO 5 300
x86_64-lkdtm-fortify-str-object lkdtm fortify-str-object FORTIFY_STR_OBJECT 5 300
x86_64-lkdtm-exhaust-stack lkdtm exhaust-stack EXHAUST_STACK 5 300
x86_64-dbg-boot dbg boot 5 400
x86_64-dbg-lockdep-abba dbg lockdep-abba 5 400 provoke=abba
x86_64-dbg-lockdep-recursive dbg lockdep-recursive 5 400 provoke=recursive
x86_64-dbg-lockdep-inconsistent dbg lockdep-inconsistent 5 400 provoke=inconsistent
x86_64-dbg-lockdep-bad-unlock dbg lockdep-bad-unlock 5 400 provoke=bad_unlock
x86_64-dbg-lockdep-held-freed dbg lockdep-held-freed 5 400 provoke=held_freed
x86_64-dbg-lockdep-exit-held dbg lockdep-exit-held 5 400 provoke=exit_held
x86_64-dbg-lockdep-user-held dbg lockdep-user-held 5 400 provoke=user_held
x86_64-dbg-lockdep-rcu dbg lockdep-rcu 5 400 provoke=rcu
x86_64-dbg-lockdep-nonstatic dbg lockdep-nonstatic 5 400 provoke=nonstatic
x86_64-dbg-kmemleak dbg kmemleak 8 400 provoke=kmemleak kmemleak_scan=1
x86_64-dbg-kmemleak-test dbg kmemleak-test 8 400 provoke=kmemleak-test kmemleak_scan=1
x86_64-dbg-odebug dbg odebug 5 400 provoke=odebug
x86_64-dbg-sleep-atomic dbg sleep-atomic 5 400 provoke=sleep_atomic
x86_64-dbg-sched-atomic dbg sched-atomic 5 400 provoke=sched_atomic
x86_64-dbg-smp-id dbg smp-id 5 400 provoke=smp_id
x86_64-dbg-bad-page dbg bad-page 5 400 provoke=bad_page init_on_free=1
x86_64-dbg-lkdtm-stack-guard-page-leading dbg lkdtm-stack-guard-page-leading 5 400 lkdtm=STACK_GUARD_PAGE_LEADING
x86_64-dbg-lkdtm-stack-guard-page-trailing dbg lkdtm-stack-guard-page-trailing 5 400 lkdtm=STACK_GUARD_PAGE_TRAILING
x86_64-dbg-lkdtm-slab-free-double dbg lkdtm-slab-free-double 5 400 lkdtm=SLAB_FREE_DOUBLE slub_debug=FZPU
x86_64-dbg-lkdtm-corrupt-list-del dbg lkdtm-corrupt-list-del 5 400 lkdtm=CORRUPT_LIST_DEL
x86_64-dbg-lkdtm-refcount-dec-zero dbg lkdtm-refcount-dec-zero 5 400 lkdtm=REFCOUNT_DEC_ZERO
x86_64-dbg-lockdep-subclass dbg lockdep-subclass 5 400 provoke=subclass
x86_64-dbg-netdev-leak dbg netdev-leak 25 400 provoke=netdev_leak
x86_64-dbg-busy-inodes dbg busy-inodes 5 400 provoke=busy_inodes
x86_64-dbg-interleave dbg interleave 5 400 provoke=interleave
x86_64-dbg-cut dbg cut 5 400 provoke=cut
x86_64-dbg-double-fault dbg double-fault 5 400 provoke=double_fault
x86_64-dbg-agent dbg agent 8 400 provoke=kmemleak-test,abba agent=1 bootproof.scenarios=mm,userfaultfd
x86_64-kcsan-race kcsan race 10 600 provoke=race
x86_64-kmsan-uninit kmsan uninit 10 900 provoke=uninit
arm64-boot boot612 arm64 arm64-boot 300
arm64-lkdtm-exception boot612 arm64 arm64-lkdtm-exception 300 lkdtm=EXCEPTION lkdtm_wait=5
arm64-lkdtm-bug boot612 arm64 arm64-lkdtm-bug 300 lkdtm=BUG lkdtm_wait=5
arm64-lkdtm-warning boot612 arm64 arm64-lkdtm-warning 300 lkdtm=WARNING lkdtm_wait=5
i386-boot i386_boot
i386-lkdtm-warning boot612 i386 i386-lkdtm-warning 300 lkdtm=WARNING lkdtm_wait=5
i386-lkdtm-exception boot612 i386 i386-lkdtm-exception 300 lkdtm=EXCEPTION lkdtm_wait=5
TABLE
}

run_log() {
	line=$(logs_table | awk -v n="$1" '$1 == n')
	[ -n "$line" ] || die "unknown target '$1' (try: $0 list)"
	eval "${line#* }"
}

[ $# -gt 0 ] || set -- all
for t in "$@"; do
	case $t in
	list) logs_table | cut -d' ' -f1 ;;
	kernel-x86_64 | kernel-i386 | kernel-dbg | kernel-kcsan | kernel-kmsan | \
		kernel-arm64) build_kernel "${t#kernel-}" ;;
	initramfs-x86_64 | initramfs-i386 | initramfs-dbg | initramfs-kcsan | \
		initramfs-kmsan | initramfs-arm64)
		build_initramfs "${t#initramfs-}" ;;
	debian-rootfs) build_debian_rootfs ;;
	logs | all) for n in $(logs_table | cut -d' ' -f1); do run_log "$n"; done ;;
	*) run_log "$t" ;;
	esac
done
