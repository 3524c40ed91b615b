#!/bin/sh
# make bench, its boot part: the speeds a user feels, each a ratio of two
# commands measured side by side in this one run (never a timed test: it
# prints, it does not pass or fail).  Each case alternates A B (C) A B ...
# BP_BENCH_N times (default 5) after a warm-up round that is not counted,
# and prints each side's median and spread (min-max) in seconds of wall
# clock, the ratio of the medians with the min and max of the pairwise
# ratios, the host's load average when the case started, and its target.
# Every bootproof boot is `--accel tcg` (as the bare QEMU) with its run
# directory in the work directory, and must end with exit 0 and
# "verdict: BOOTED"; a failure ends its case with the reason, not a ratio.
#
#   built      A  bootproof boot --kernel K --scenarios boot --accel tcg
#                 (K: bootproof's own build of the demo plan's x86_64
#                 kernel, with the config and vmlinux of its artifact
#                 directory)
#              B  bare qemu-system-x86_64 with QEMU's defaults: -machine pc
#                 -accel tcg, bootproof's -m and -smp, -nodefaults -display
#                 none -no-reboot, serial to a file, -kernel K and a gzip
#                 cpio (-initrd) whose static /init writes a line and
#                 resets (QEMU exits: -no-reboot), -append "console=ttyS0 rdinit=/init panic=-1".
#                 A kernel without initramfs support (the demo kernel: no
#                 BLK_DEV_INITRD) gets the same /init on a raw ext4 disk on
#                 virtio-blk instead, root=/dev/vda init=/init.
#              C  B with -bios /usr/share/qemu/qboot.rom (information:
#                 QEMU's fastest firmware; no target)
#              D  C on -machine q35 (information: bootproof's own
#                 machine and firmware, core/domxml.h DOMXML_MACHINE)
#              target A/B <= 1.30
#              The comparison needs the same CPUs on both sides: each bare
#              side's console says how many CPUs its kernel brought up
#              ("smp: Brought up 1 node, N CPUs"), printed with its median.
#              SeaBIOS' MP table lists one CPU where -smp asks for two, so
#              a kernel without ACPI (the demo's) boots uniprocessor on
#              B (QEMU 7.2, TCG); then the target is taken against C
#              (qboot lists both) and the output says so.
#   distro     the same four on Debian's kernel (the newest
#              /boot/vmlinuz-*-amd64; A boots it with bootproof's own
#              initramfs); a modular kernel's B, C and D get the disk too and
#              an uncompressed initramfs whose /init loads the modules
#              bootproof's initramfs loads for the root, in modprobe's
#              order, then resets ("booting that kernel with its
#              needed modules")
#              target A/B <= 1.50
#   i386       the same four on Debian's 686-pae kernel that make setup
#              unpacks in <cache>/i386-kernel/boot/: A with --arch i386,
#              B, C and D qemu-system-i386 -cpu coreduo (bootproof's i386 TCG
#              model, read from core/arch.c) and an i386 /init (gcc -m32
#              -static)
#              target A/B <= 1.50
#   scenarios  A  bootproof boot --kernel K (the default scenarios)
#              B  bootproof boot --kernel K --scenarios boot
#              on the built kernel: what the checks cost (no target)
#   parallel   A  two `bootproof boot --kernel K --scenarios boot` started
#                 together, until both end
#              B  the same two one after the other
#              C  two bare QEMUs (built's D, each disk a snapshot) at once
#              D  the same two bare QEMUs one after the other
#              E  bootproof's own guest without libvirt, two at once: a bare
#                 QEMU with the kernel, root image (a snapshot) and command
#                 line of a boot of A (its record) and the devices of
#                 A's guest, the agent running its boot scenario to its end
#              F  the same two one after the other
#              throughput ratio B/A, target >= 1.70; D/C and F/E
#              (information: what this host gives two guests at once, and
#              what bootproof's guest alone, without libvirt, gets)
#   rerun      A  the second `bootproof run` of a small plan (the demo
#                 plan, x86_64 only, scenarios boot), unchanged, right
#                 after B in the same cache
#              B  its first run: a new empty BOOTPROOF_CACHE, whose
#                 ccache, images and kconfig-explain are the real cache's
#                 (linked) and the kernel tree the real cache's Debian
#                 tree (--ksrc): the config stage runs Kconfig, the kernel
#                 is built in an empty O= tree with every object in ccache
#                 (the warm-up round fills ccache if it has not seen this
#                 .config), then the boot.  Each round runs B then A (a
#                 second run needs its first); BP_BENCH_RUN_N rounds
#                 (default 2: a first run is a whole build).  No target.
#   vng        A  bootproof boot --kernel K --scenarios boot
#              B  vng --run K --disable-kvm -- true (virtme-ng: BP_PEER_VNG
#                 or vng on PATH, else SKIP; Debian 12 has no package)
#              K: Debian's kernel (vng boots the host's root over 9p or
#              virtiofs, which the demo kernel leaves out).
#              target A/B <= 0.30
#
# The built kernel: BP_BENCH_KERNEL=PATH, else the newest run.json of a
# `bootproof run demo` in results/ whose x86_64 bzImage still exists, else
# one `bootproof run demo --arch x86_64` run here first (a minute when the
# kernel is in the cache, 15 minutes or more when it must be built).
# Knobs: BOOTPROOF (the binary), BOOTPROOF_CACHE, BOOTPROOF_DATADIR,
# BP_BENCH_N, BP_BENCH_RUN_N, BP_BENCH_CASES (default "built distro i386
# scenarios parallel rerun vng"), BP_BENCH_KERNEL, BP_BENCH_DISTRO_KERNEL,
# BP_BENCH_I386_KERNEL, BP_PEER_VNG, BP_BENCH_KEEP=1 (keep the work
# directory).  Work in a new /var/tmp/bootproof-bench.XXXXXX, removed at
# the end (kept when a case failed, for its runs' records) with the work
# directories of earlier benches that are no longer running.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
BP=${BOOTPROOF:-$top/bootproof}
N=${BP_BENCH_N:-5}
RUN_N=${BP_BENCH_RUN_N:-2}
CASES=${BP_BENCH_CASES:-built distro i386 scenarios parallel rerun vng}
CACHE=${BOOTPROOF_CACHE:-/var/cache/bootproof}
export BOOTPROOF_CACHE="$CACHE" BOOTPROOF_DATADIR="${BOOTPROOF_DATADIR:-$top}"
# bootproof's guest (core/domxml.h: DOMXML_MEMORY_MIB_DEFAULT,
# DOMXML_VCPUS_DEFAULT): the bare QEMU gets the same.
MEM=$(sed -n 's/^#define DOMXML_MEMORY_MIB_DEFAULT \([0-9]*\).*/\1/p' "$top/harness/core/domxml.h")
CPUS=$(sed -n 's/^#define DOMXML_VCPUS_DEFAULT \([0-9]*\).*/\1/p' "$top/harness/core/domxml.h")
MACHINE=$(sed -n 's/^#define DOMXML_MACHINE "\([a-z0-9]*\)".*/\1/p' "$top/harness/core/domxml.h")
# The i386 guest's TCG CPU model (core/arch.c, the only arch with one).
I386_CPU=$(sed -n 's/.*\.tcg_cpu_model = "\([^"]*\)".*/\1/p' "$top/harness/core/arch.c")
QBOOT=/usr/share/qemu/qboot.rom
MARK='bootproof-bench: init ran'

case $N in '' | *[!0-9]* | 0) echo "bench: BP_BENCH_N=$N: not a count" >&2; exit 2 ;; esac
case $RUN_N in '' | *[!0-9]* | 0) echo "bench: BP_BENCH_RUN_N=$RUN_N: not a count" >&2; exit 2 ;; esac
[ -x "$BP" ] || { echo "bench: no bootproof binary at $BP (make bootproof guest)" >&2; exit 2; }
: "${MEM:?no DOMXML_MEMORY_MIB_DEFAULT in harness/core/domxml.h}"
: "${CPUS:?no DOMXML_VCPUS_DEFAULT in harness/core/domxml.h}"
: "${MACHINE:?no DOMXML_MACHINE in harness/core/domxml.h}"
: "${I386_CPU:?no tcg_cpu_model in harness/core/arch.c}"

W=$(mktemp -d /var/tmp/bootproof-bench.XXXXXX)
FAILED=
# QEMU runs as libvirt's user: it must reach the staged files below W.
chmod 755 "$W"
echo $$ >"$W/owner"
# At the end: this work directory, and those of benches no longer running.
cleanup() {
	for cl_d in /var/tmp/bootproof-bench.*; do
		{ [ -d "$cl_d" ] && [ "$cl_d" != "$W" ]; } || continue
		cl_p=$(cat "$cl_d/owner" 2>/dev/null) || cl_p=
		[ -n "$cl_p" ] && kill -0 "$cl_p" 2>/dev/null && continue
		rm -rf "$cl_d"
	done
	if [ "${BP_BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: work directory kept: $W"
	elif [ "$FAILED" ]; then
		echo "bench: kept for the runs that failed ($FAILED): $W (the next bench removes it)"
	else
		rm -rf "$W"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

secs() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
has() { case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }
say() { printf '%s\n' "$*"; }

# ---------------------------------------------------------------- statistics

# stats FILE: "median min max" of the numbers in FILE, one per line.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.4f %.4f %.4f\n", m, v[1], v[NR]
		}'
}
# side LABEL FILE: one side's median and spread.
side() {
	# shellcheck disable=SC2046
	set -- "$1" $(stats "$2")
	printf '  %-58s median %7.2f s  (%.2f-%.2f)\n' "$1" "$2" "$3" "$4"
}
# ratio LABEL NUM DEN [TARGET]: the ratio of the medians of the times in
# the files NUM and DEN, the spread of the pairwise ratios (round by
# round), and TARGET ("<= 1.30", ">= 1.70") met or not.
ratio() {
	paste "$2" "$3" | awk '{ printf "%.4f\n", $1 / $2 }' >"$W/ratios"
	ra_r=$(awk -v a="$(stats "$2" | cut -d' ' -f1)" \
		-v b="$(stats "$3" | cut -d' ' -f1)" 'BEGIN { printf "%.2f", a / b }')
	ra_line=$(stats "$W/ratios" | awk -v l="$1" -v r="$ra_r" \
		'{ printf "  %s %s (pairs %.2f-%.2f)", l, r, $2, $3 }')
	if [ -z "${4:-}" ]; then
		say "$ra_line  (no target)"
		return 0
	fi
	ra_met=$(awk -v r="$ra_r" -v op="${4%% *}" -v t="${4#* }" 'BEGIN {
		ok = op == "<=" ? r <= t : r >= t; print ok ? "met" : "not met" }')
	say "$ra_line  target $4: $ra_met"
}

# ------------------------------------------------------------------ the sides

# bp_boot TAG ARGS...: one bootproof boot into $W/runs; fails unless it
# exits 0 with verdict BOOTED (its verdict and scenarios on stderr).
bp_boot() {
	bb_tag=$1
	shift
	bb_rc=0
	"$BP" boot --accel tcg --results "$W/runs" "$@" \
		>"$W/$bb_tag.out" 2>"$W/$bb_tag.err" || bb_rc=$?
	if [ $bb_rc -ne 0 ] || ! grep -q '^verdict: BOOTED' "$W/$bb_tag.out"; then
		echo "bench: bootproof boot $* exited $bb_rc:" >&2
		grep -E '^(verdict|  |results)' "$W/$bb_tag.out" >&2 ||
			tail -n 5 "$W/$bb_tag.err" >&2
		return 1
	fi
}

# bare TAG QEMU KERNEL MACHINE ARGS...: a bare QEMU boot, ARGS its -cpu,
# -bios, -initrd or -drive and -append; fails unless /init's line reached
# the serial console.
bare() {
	ba_tag=$1 ba_qemu=$2 ba_kernel=$3 ba_machine=$4
	shift 4
	rm -f "$W/$ba_tag.console"
	ba_rc=0
	timeout 300 "$ba_qemu" -machine "$ba_machine" -accel tcg -m "$MEM" -smp "$CPUS" \
		-nodefaults -display none -no-reboot \
		-serial "file:$W/$ba_tag.console" -kernel "$ba_kernel" "$@" \
		>"$W/$ba_tag.err" 2>&1 || ba_rc=$?
	if [ $ba_rc -ne 0 ] || ! grep -q "$MARK" "$W/$ba_tag.console"; then
		echo "bench: bare $ba_qemu exited $ba_rc; the end of its console and stderr:" >&2
		tail -n 5 "$W/$ba_tag.console" "$W/$ba_tag.err" >&2
		return 1
	fi
}

# timed FILE CMD...: run CMD, append its wall seconds to FILE (/dev/null:
# not counted); fails as CMD fails.
timed() {
	tm_out=$1
	shift
	tm_0=$(secs)
	"$@" || return 1
	tm_1=$(secs)
	awk -v a="$tm_0" -v b="$tm_1" 'BEGIN { printf "%.3f\n", b - a }' >>"$tm_out"
}

# alternate NAME ROUNDS WARMUP LABELS SIDE...: the sides (each a command
# line for timed, with the shell's quoting) in turn, ROUNDS times after
# WARMUP (0 or 1) uncounted rounds; the side labelled L (LABELS: "A B C",
# one per side, in their order) has its times in $W/NAME.L.  AL_AFTER, when
# set, is run after each round, untimed.  Fails at the first side that
# fails.
alternate() {
	al_name=$1 al_n=$2 al_labels=$4
	al_i=$((1 - $3))
	shift 4
	for al_l in $al_labels; do : >"$W/$al_name.$al_l"; done
	while [ $al_i -le "$al_n" ]; do
		al_k=1
		al_line=
		for al_s in "$@"; do
			al_l=$(echo $al_labels | cut -d' ' -f$al_k)
			al_dst=$W/$al_name.$al_l
			[ $al_i -ne 0 ] || al_dst=$W/warmup
			eval "timed \"\$al_dst\" $al_s" || return 1
			al_line="$al_line $al_l $(tail -n 1 "$al_dst") s"
			al_k=$((al_k + 1))
		done
		[ -z "${AL_AFTER:-}" ] || eval "$AL_AFTER"
		if [ $al_i -eq 0 ]; then say "  warm-up:$al_line"; else say "  round $al_i:$al_line"; fi
		al_i=$((al_i + 1))
	done
}

# ------------------------------------------------------------ bare guests

# mkinit ARCH GCCFLAG: the bare side's /init for ARCH, as a gzip cpio
# ($W/init-ARCH.cpio.gz) and on an ext4 disk ($W/init-ARCH.img).
mkinit() {
	mi_r=$W/root-$1
	[ -f "$W/init-$1.img" ] && return 0
	cat >"$W/init.c" <<EOF
#include <sys/reboot.h>
#include <unistd.h>
int main(void)
{
	static const char msg[] = "$MARK\\n";
	write(1, msg, sizeof(msg) - 1);
	sync();
	/* a reset, which -no-reboot turns into QEMU's exit: a kernel
	 * without ACPI (the demo's) cannot power off */
	reboot(RB_AUTOBOOT);
	return 1;
}
EOF
	mkdir -p "$mi_r/dev" "$mi_r/proc" &&
		mknod "$mi_r/dev/console" c 5 1 &&
		gcc "$2" -static -O2 -o "$mi_r/init" "$W/init.c" || return 1
	(cd "$mi_r" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -9 \
		>"$W/init-$1.cpio.gz" || return 1
	mkfs.ext4 -q -F -d "$mi_r" "$W/init-$1.img" 16M >/dev/null
}

# modinit ARCH GCCFLAG KERNEL: for a modular kernel (its modules beside it
# as bootproof finds them: KDIR/../lib/modules/REL, else /lib/modules/REL),
# the bare side's initramfs with the modules bootproof's own initramfs
# loads for the root (virtio_pci, virtio_blk, ext4 and crc32c, with what
# they depend on, in modprobe's order) and a static /init that loads them
# and resets (QEMU exits): $W/modinit-ARCH.cpio, uncompressed as bootproof's.
# Fails (1) for a kernel without such modules.
modinit() {
	mo_rel=$(basename "$3" | sed -n 's/^vmlinuz-//p')
	mo_base=$(cd "$(dirname "$3")/.." && pwd)
	[ -n "$mo_rel" ] || return 1
	[ -f "$mo_base/lib/modules/$mo_rel/modules.dep" ] || mo_base=
	[ -f "$mo_base/lib/modules/$mo_rel/modules.dep" ] || return 1
	[ -f "$W/modinit-$1.cpio" ] && return 0
	mo_r=$W/modroot-$1
	rm -rf "$mo_r"
	mkdir -p "$mo_r/dev" "$mo_r/proc" "$mo_r/m" && mknod "$mo_r/dev/console" c 5 1 || return 1
	mo_n=0
	for mo_m in virtio_pci virtio_blk ext4 crc32c; do
		modprobe ${mo_base:+-d "$mo_base"} -S "$mo_rel" --show-depends "$mo_m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' >"$W/modinit-$1.list"
	while read -r mo_f; do
		mo_n=$((mo_n + 1))
		cp "$mo_f" "$mo_r/m/$mo_n.ko" || return 1
	done <"$W/modinit-$1.list"
	cat >"$W/modinit.c" <<EOF
#include <fcntl.h>
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void)
{
	static const char msg[] = "$MARK\\n";
	char p[32];

	for (int i = 1; i <= $mo_n; i++) {
		snprintf(p, sizeof(p), "/m/%d.ko", i);
		int fd = open(p, O_RDONLY);
		if (fd < 0 || syscall(__NR_finit_module, fd, "", 0) < 0)
			dprintf(1, "insmod %s failed\\n", p);
		close(fd);
	}
	write(1, msg, sizeof(msg) - 1);
	sync();
	/* a reset, which -no-reboot turns into QEMU's exit: a kernel
	 * without ACPI (the demo's) cannot power off */
	reboot(RB_AUTOBOOT);
	return 1;
}
EOF
	gcc "$2" -static -O2 -o "$mo_r/init" "$W/modinit.c" || return 1
	(cd "$mo_r" && find . | cpio -o -H newc -R 0:0 --quiet) >"$W/modinit-$1.cpio"
}

# bare_args ARCH CONFIG: the bare side's root and command line for a
# kernel whose .config is CONFIG (empty: unknown): the initramfs, or the
# disk when the kernel cannot take an initramfs.
bare_args() {
	if [ -n "$2" ] && ! grep -q '^CONFIG_BLK_DEV_INITRD=y' "$2"; then
		echo "-drive file=$W/init-$1.img,if=virtio,format=raw -append 'console=ttyS0 root=/dev/vda rw init=/init panic=-1'"
	else
		echo "-initrd $W/init-$1.cpio.gz -append 'console=ttyS0 rdinit=/init panic=-1'"
	fi
}

# ------------------------------------------------------------------ kernels

# bzimage_of RUN_JSON: the x86_64 bzImage a run's record names (a BOOT's
# "arch" comes before its kernel and build artifacts).
bzimage_of() {
	awk '/"arch":"x86_64"/ { x = 1 } /"arch":"i386"/ { x = 0 }
		x && /"bzImage":"/ { sub(/.*"bzImage":"/, ""); sub(/".*/, ""); print; exit }' "$1"
}

# The built kernel: BUILT, its bzImage.
BUILT=
find_built() {
	[ -z "$BUILT" ] || return 0
	if [ -n "${BP_BENCH_KERNEL:-}" ]; then
		[ -f "$BP_BENCH_KERNEL" ] || {
			echo "bench: BP_BENCH_KERNEL=$BP_BENCH_KERNEL: no such file" >&2
			return 1
		}
		BUILT=$BP_BENCH_KERNEL
		return 0
	fi
	# shellcheck disable=SC2045
	for fb_j in $(ls -t "$top"/results/*-demo-*/run.json 2>/dev/null); do
		fb_k=$(bzimage_of "$fb_j")
		if [ -n "$fb_k" ] && [ -f "$fb_k" ]; then
			BUILT=$fb_k
			say "  the built kernel: $BUILT (from $fb_j)"
			return 0
		fi
	done
	say "  no demo run in $top/results with its x86_64 kernel still cached:"
	say "  running \`bootproof run demo --arch x86_64\` once (a minute when its kernel is cached, 15 minutes or more to build it)"
	fb_rc=0
	"$BP" run demo --arch x86_64 --accel tcg --results "$W/demo" \
		>"$W/demo.out" 2>"$W/demo.err" || fb_rc=$?
	fb_j=$(ls -t "$W"/demo/*/run.json 2>/dev/null | head -1)
	fb_k=
	[ -z "$fb_j" ] || fb_k=$(bzimage_of "$fb_j")
	if [ -z "$fb_k" ] || [ ! -f "$fb_k" ]; then
		echo "bench: bootproof run demo --arch x86_64 (exit $fb_rc) left no kernel:" >&2
		tail -n 20 "$W/demo.out" "$W/demo.err" >&2
		return 1
	fi
	BUILT=$fb_k
	say "  the built kernel: $BUILT (bootproof run demo: exit $fb_rc)"
}

# bp_kargs KERNEL: --kernel and the files of its artifact directory that
# bootproof run gives its own boot (boot finds them only in /boot or a
# build tree).
bp_kargs() {
	ka_d=$(dirname "$1")
	ka_a="--kernel $1"
	[ ! -f "$ka_d/config" ] || ka_a="$ka_a --config $ka_d/config"
	[ ! -f "$ka_d/vmlinux" ] || ka_a="$ka_a --vmlinux $ka_d/vmlinux"
	echo "$ka_a"
}
# kconfig KERNEL: its .config (an artifact's config, config-<release>
# beside it as in /boot), or nothing.
kconfig() {
	kc_d=$(dirname "$1")
	kc_r=$(basename "$1" | sed -n 's/^vmlinuz-//p')
	for kc_c in "$kc_d/config" "$kc_d/config-$kc_r"; do
		[ ! -f "$kc_c" ] || { echo "$kc_c"; return 0; }
	done
}
newest() { ls -1 "$@" 2>/dev/null | sort -V | tail -1; }
# short TEXT: TEXT with the work directory's and kernel's paths shortened.
short() { echo "$1" | sed -e "s|$W/||g" -e "s|$2|K|g" -e "s|$(dirname "$2")/|KDIR/|g"; }

# cpus_up CONSOLE: how many CPUs the kernel of that serial console brought
# up ("smp: Brought up 1 node, 2 CPUs"; 1 for a kernel without SMP), "?"
# when it does not say.
cpus_up() {
	cu_n=$(sed -n 's/.*smp: Brought up [0-9]* nodes*, \([0-9]*\) CPUs*.*/\1/p' "$1" | tail -1)
	if [ -n "$cu_n" ]; then echo "$cu_n"
	elif [ -f "$1" ] && ! grep -q 'smp:' "$1"; then echo 1
	else echo '?'; fi
}

# ------------------------------------------------------------------ the cases

# vs_bare NAME KERNEL ARCH QEMU GCCFLAG TARGET BOOTPROOF-ARGS...
vs_bare() {
	vb_name=$1 vb_k=$2 vb_arch=$3 vb_qemu=$4 vb_m=$5 vb_target=$6
	shift 6
	mkinit "$vb_arch" "$vb_m" || { echo "bench: could not make the bare side's /init" >&2; return 1; }
	vb_cfg=$(kconfig "$vb_k")
	vb_ba=$(bare_args "$vb_arch" "$vb_cfg")
	# A modular kernel: the root disk too, and its modules loaded.
	if modinit "$vb_arch" "$vb_m" "$vb_k"; then
		vb_ba="-drive file=$W/init-$vb_arch.img,if=virtio,format=raw -initrd $W/modinit-$vb_arch.cpio -append 'console=ttyS0 rdinit=/init panic=-1'"
		vb_mods=$(wc -l <"$W/modinit-$vb_arch.list")
	else
		vb_mods=
	fi
	vb_cpu=
	[ "$vb_arch" != i386 ] || vb_cpu="-cpu $I386_CPU"
	say "  K  $vb_k"
	say "  A  bootproof boot $(short "$*" "$vb_k") --scenarios boot --accel tcg"
	say "  B  $vb_qemu -machine pc -accel tcg${vb_cpu:+ $vb_cpu} -m $MEM -smp $CPUS -nodefaults -display none -no-reboot -serial file:F -kernel K $(short "$vb_ba" "$vb_k")"
	case $vb_ba in -drive*-initrd*) ;; -drive*) say "     (a disk, not -initrd: ${vb_cfg:-its config} has no CONFIG_BLK_DEV_INITRD)" ;; esac
	[ -z "$vb_mods" ] || say "     (a modular kernel: the disk too, and /init loads the $vb_mods modules bootproof's initramfs loads for the root: $(sed 's|.*/||; s|[.]ko.*||' "$W/modinit-$vb_arch.list" | tr '\n' ' '))"
	say "  C  B with -bios $QBOOT"
	say "  D  C with -machine $MACHINE (bootproof's machine and firmware)"
	alternate "$vb_name" "$N" 1 "A B C D" \
		"bp_boot $vb_name-a $* --scenarios boot" \
		"bare $vb_name-b $vb_qemu $vb_k pc $vb_cpu $vb_ba" \
		"bare $vb_name-c $vb_qemu $vb_k pc $vb_cpu -bios $QBOOT $vb_ba" \
		"bare $vb_name-d $vb_qemu $vb_k $MACHINE $vb_cpu -bios $QBOOT $vb_ba" || return 1
	vb_b=$(cpus_up "$W/$vb_name-b.console")
	vb_c=$(cpus_up "$W/$vb_name-c.console")
	vb_d=$(cpus_up "$W/$vb_name-d.console")
	side "A bootproof boot --scenarios boot" "$W/$vb_name.A"
	side "B bare $vb_qemu ($vb_b of $CPUS CPUs up)" "$W/$vb_name.B"
	side "C bare $vb_qemu -bios qboot.rom ($vb_c of $CPUS CPUs up)" "$W/$vb_name.C"
	side "D bare $vb_qemu -machine $MACHINE -bios qboot.rom ($vb_d of $CPUS CPUs up)" "$W/$vb_name.D"
	if [ "$vb_b" = "$CPUS" ] || [ "$vb_c" != "$CPUS" ]; then
		ratio "ratio A/B" "$W/$vb_name.A" "$W/$vb_name.B" "$vb_target"
		ratio "ratio A/C (information)" "$W/$vb_name.A" "$W/$vb_name.C"
	else
		say "  B's kernel brought up $vb_b of $CPUS CPUs (SeaBIOS' MP table; the kernel has no ACPI): the target is taken against C"
		ratio "ratio A/B (information: not the same CPUs)" "$W/$vb_name.A" "$W/$vb_name.B"
		ratio "ratio A/C" "$W/$vb_name.A" "$W/$vb_name.C" "$vb_target"
	fi
	ratio "ratio A/D (information)" "$W/$vb_name.A" "$W/$vb_name.D"
}

case_built() {
	find_built || return 1
	# shellcheck disable=SC2046
	vs_bare built "$BUILT" x86_64 qemu-system-x86_64 -m64 "<= 1.30" \
		$(bp_kargs "$BUILT")
}

case_distro() {
	cd_k=${BP_BENCH_DISTRO_KERNEL:-$(newest /boot/vmlinuz-*-amd64)}
	[ -n "$cd_k" ] || {
		say "SKIP  distro  no /boot/vmlinuz-*-amd64 (linux-image-amd64: make setup)"
		return 0
	}
	vs_bare distro "$cd_k" x86_64 qemu-system-x86_64 -m64 "<= 1.50" --kernel "$cd_k"
}

case_i386() {
	ci_k=${BP_BENCH_I386_KERNEL:-$(newest "$CACHE"/i386-kernel/boot/vmlinuz-*)}
	[ -n "$ci_k" ] || {
		say "SKIP  i386  no kernel in $CACHE/i386-kernel/boot (make setup, as root)"
		return 0
	}
	vs_bare i386 "$ci_k" i386 qemu-system-i386 -m32 "<= 1.50" --kernel "$ci_k" --arch i386
}

case_scenarios() {
	find_built || return 1
	sc_ka=$(bp_kargs "$BUILT")
	say "  K  $BUILT"
	say "  A  bootproof boot $(short "$sc_ka" "$BUILT") --accel tcg (the default scenarios)"
	say "  B  the same with --scenarios boot"
	alternate scenarios "$N" 1 "A B" "bp_boot sc-a $sc_ka" \
		"bp_boot sc-b $sc_ka --scenarios boot" || return 1
	side "A bootproof boot (default scenarios)" "$W/scenarios.A"
	side "B bootproof boot --scenarios boot" "$W/scenarios.B"
	ratio "ratio A/B" "$W/scenarios.A" "$W/scenarios.B"
}

# both_at_once ARGS...: two bootproof boots started together, until both
# end; fails if either fails.
both_at_once() {
	bp_boot par-1 "$@" &
	pa_1=$!
	bp_boot par-2 "$@" &
	pa_2=$!
	pa_r1=0 pa_r2=0
	wait $pa_1 || pa_r1=$?
	wait $pa_2 || pa_r2=$?
	[ $pa_r1 -eq 0 ] && [ $pa_r2 -eq 0 ]
}
one_then_other() { bp_boot seq-1 "$@" && bp_boot seq-2 "$@"; }
# bare_at_once, bare_in_a_row ARGS...: the same with two bare QEMUs
# (bare's arguments after its tag).
bare_at_once() {
	bare par-b1 "$@" &
	pb_1=$!
	bare par-b2 "$@" &
	pb_2=$!
	pb_r1=0 pb_r2=0
	wait $pb_1 || pb_r1=$?
	wait $pb_2 || pb_r2=$?
	[ $pb_r1 -eq 0 ] && [ $pb_r2 -eq 0 ]
}
bare_in_a_row() { bare seq-b1 "$@" && bare seq-b2 "$@"; }

# agent TAG: bootproof's guest on a bare QEMU (no libvirt): A's kernel,
# the root image as a snapshot, the command line of A's first boot record,
# and the devices core/domxml.c gives the domain (virtio disk, net with no
# peer, rng, virtio-serial with hvc0 and the agent's channel to a file,
# ttyS0 to a file); fails unless the agent finished and the guest ended
# (powered off, or reset by the agent when the kernel has no ACPI).
agent() {
	ag_tag=$1
	rm -f "$W/$ag_tag.console" "$W/$ag_tag.chan"
	ag_rc=0
	timeout 300 qemu-system-x86_64 -machine "$MACHINE" -bios "$QBOOT" -accel tcg \
		-cpu max -m "$MEM" -smp "$CPUS" -nodefaults -display none -no-reboot \
		-serial "file:$W/$ag_tag.console" \
		-drive "file=$AGENT_IMG,if=virtio,format=raw,snapshot=on" \
		-device virtio-net-pci -device virtio-rng-pci -device virtio-serial-pci \
		-chardev null,id=hvc -device virtconsole,chardev=hvc \
		-chardev "file,id=chan,path=$W/$ag_tag.chan" \
		-device "virtserialport,chardev=chan,name=$AGENT_CHANNEL" \
		-kernel "$BUILT" -append "$AGENT_CMDLINE" >"$W/$ag_tag.err" 2>&1 || ag_rc=$?
	# A kernel without ACPI cannot power off: the agent resets it
	# (scenarios/contract.h, BP_AGENT_REBOOT) and QEMU ends (-no-reboot).
	if [ $ag_rc -ne 0 ] || ! grep -q '# bootproof-agent: done' "$W/$ag_tag.console" ||
		! grep -Eq 'reboot: (Power down|Restarting system)' "$W/$ag_tag.console"; then
		echo "bench: bootproof's guest on bare QEMU exited $ag_rc; the end of its console and stderr:" >&2
		tail -n 5 "$W/$ag_tag.console" "$W/$ag_tag.err" >&2
		return 1
	fi
}
agent_at_once() {
	agent par-a1 &
	pg_1=$!
	agent par-a2 &
	pg_2=$!
	pg_r1=0 pg_r2=0
	wait $pg_1 || pg_r1=$?
	wait $pg_2 || pg_r2=$?
	[ $pg_r1 -eq 0 ] && [ $pg_r2 -eq 0 ]
}
agent_in_a_row() { agent seq-a1 && agent seq-a2; }

case_parallel() {
	find_built || return 1
	pl_ka=$(bp_kargs "$BUILT")
	say "  K  $BUILT"
	say "  A  two \`bootproof boot $(short "$pl_ka" "$BUILT") --scenarios boot --accel tcg\` started together, until both end"
	say "  B  the same two, one after the other"
	mkinit x86_64 -m64 || { echo "bench: could not make the bare side's /init" >&2; return 1; }
	# Two QEMUs cannot both write one disk: each its own snapshot.
	pl_ba="$BUILT $MACHINE -bios $QBOOT $(bare_args x86_64 "$(kconfig "$BUILT")" | sed 's/,format=raw/,format=raw,snapshot=on/')"
	say "  C  two bare QEMUs at once (built's D: bootproof's machine and firmware), until both end"
	say "  D  the same two bare QEMUs, one after the other"
	say "  E  bootproof's guest without libvirt (its image, command line, devices, agent) on two bare QEMUs at once"
	say "  F  the same two, one after the other"
	say "     (C to F: what this host gives two guests at once, and bootproof's guest alone; information)"
	# E and F: the command line of a real boot of A, the image it used.
	bp_boot par-probe $pl_ka --scenarios boot || return 1
	pl_rec=$(ls -t "$W"/runs/*/run.json | head -n 1)
	AGENT_CMDLINE=$(sed -n 's/^ *"cmdline":"\(.*\)",$/\1/p' "$pl_rec" | head -n 1)
	AGENT_IMG=$(sed -n 's/^ *"image":"\(.*\)",$/\1/p' "$pl_rec" | head -n 1)
	AGENT_CHANNEL=$(sed -n 's/^#define BP_CHANNEL_NAME "\(.*\)".*/\1/p' "$top/scenarios/contract.h")
	{ [ -n "$AGENT_CMDLINE" ] && [ -f "$AGENT_IMG" ] && [ -n "$AGENT_CHANNEL" ]; } || {
		echo "bench: no command line, image or channel name for bootproof's guest on bare QEMU" >&2
		return 1
	}
	say "     E, F: -append '$AGENT_CMDLINE', image $AGENT_IMG"
	alternate parallel "$N" 1 "A B C D E F" "both_at_once $pl_ka --scenarios boot" \
		"one_then_other $pl_ka --scenarios boot" \
		"bare_at_once qemu-system-x86_64 $pl_ba" \
		"bare_in_a_row qemu-system-x86_64 $pl_ba" \
		agent_at_once agent_in_a_row || return 1
	side "A two at once" "$W/parallel.A"
	side "B two in a row" "$W/parallel.B"
	side "C two bare QEMUs at once (information)" "$W/parallel.C"
	side "D two bare QEMUs in a row (information)" "$W/parallel.D"
	side "E bootproof's guest without libvirt, two at once (information)" "$W/parallel.E"
	side "F the same, in a row (information)" "$W/parallel.F"
	ratio "throughput B/A" "$W/parallel.B" "$W/parallel.A" ">= 1.70"
	ratio "bare QEMU's throughput D/C (information)" "$W/parallel.D" "$W/parallel.C"
	ratio "bootproof's guest without libvirt F/E (information)" "$W/parallel.F" "$W/parallel.E"
}

# fresh_cache I: $W/cache-I, a new cache for a first run: the real cache's
# ccache, images and kconfig-explain linked in, no config stage or build.
fresh_cache() {
	fc_c=$W/cache-$1
	mkdir -p "$fc_c" && chmod 755 "$fc_c" || return 1
	for fc_d in ccache images kconfig-explain; do
		[ ! -e "$CACHE/$fc_d" ] || ln -s "$CACHE/$fc_d" "$fc_c/$fc_d"
	done
}
# bp_run I TAG: the small plan run against $W/cache-I; fails unless it
# exits 0 and its candidate BOOTED.
bp_run() {
	br_rc=0
	BOOTPROOF_CACHE=$W/cache-$1 "$BP" run "$W/rerun.plan" --accel tcg \
		--ksrc "$KSRC" --results "$W/runs" >"$W/$2.out" 2>"$W/$2.err" ||
		br_rc=$?
	if [ $br_rc -ne 0 ] || ! grep -q BOOTED "$W/$2.out"; then
		echo "bench: bootproof run (cache $W/cache-$1) exited $br_rc:" >&2
		tail -n 15 "$W/$2.out" "$W/$2.err" >&2
		return 1
	fi
}
# rerun_first, rerun_second: a first run on a new cache, $W/cache-RR, then
# the second run on it (removed after the round, untimed).
RR=0
rerun_first() {
	RR=$((RR + 1))
	fresh_cache $RR && bp_run $RR "run-$RR-first"
}
rerun_second() { bp_run $RR "run-$RR-second"; }

case_rerun() {
	KSRC=$(newest "$CACHE"/src/linux-source-*/Makefile)
	KSRC=${KSRC%/Makefile}
	[ -n "$KSRC" ] || {
		say "SKIP  rerun  no kernel tree unpacked in $CACHE/src (bootproof run unpacks it)"
		return 0
	}
	sed -e 's/^name .*/name bench-rerun/' -e 's/^arch .*/arch x86_64/' \
		"$top/scenarios/plans/demo.plan" >"$W/rerun.plan"
	echo "scenarios boot" >>"$W/rerun.plan"
	say "  PLAN  scenarios/plans/demo.plan on x86_64 only, scenarios boot"
	say "  B  the first run: bootproof run PLAN --accel tcg --ksrc $KSRC"
	say "     on a new empty BOOTPROOF_CACHE (its ccache, images and kconfig-explain"
	say "     linked from $CACHE): the config stage runs Kconfig, the kernel is"
	say "     built in an empty O= tree with every object in ccache (the warm-up"
	say "     round fills it if need be), then the boot"
	say "  A  the same command again, unchanged, on that cache (config and build reused)"
	say "  $RUN_N rounds (BP_BENCH_RUN_N: each first run is a whole build), each in the order B A"
	rr_ok=0
	AL_AFTER='rm -rf "$W/cache-$RR"'
	alternate rerun "$RUN_N" 1 "B A" rerun_first rerun_second || rr_ok=1
	AL_AFTER=
	[ $rr_ok -eq 0 ] || return 1
	side "A second run (unchanged)" "$W/rerun.A"
	side "B first run (fresh config and build, warm ccache)" "$W/rerun.B"
	ratio "ratio A/B" "$W/rerun.A" "$W/rerun.B"
}

vng_run() {
	"$VNG" --run "$1" --disable-kvm -- true >"$W/vng.out" 2>&1 || {
		echo "bench: $VNG --run $1 --disable-kvm -- true failed:" >&2
		tail -n 10 "$W/vng.out" >&2
		return 1
	}
}

case_vng() {
	VNG=${BP_PEER_VNG:-$(command -v vng || true)}
	if [ -z "$VNG" ]; then
		vg_c=$(apt-cache policy virtme-ng 2>/dev/null | sed -n 's/^ *Candidate: *//p')
		say "SKIP  vng  BP_PEER_VNG unset and no vng on PATH; apt-cache policy virtme-ng: ${vg_c:-no such package (Debian 12 has none)}"
		return 0
	fi
	[ -x "$VNG" ] || { say "SKIP  vng  BP_PEER_VNG=$VNG: not an executable"; return 0; }
	vg_k=${BP_BENCH_DISTRO_KERNEL:-$(newest /boot/vmlinuz-*-amd64)}
	[ -n "$vg_k" ] || { say "SKIP  vng  no /boot/vmlinuz-*-amd64 (linux-image-amd64)"; return 0; }
	say "  K  $vg_k"
	say "  A  bootproof boot --kernel K --scenarios boot --accel tcg"
	say "  B  $VNG --run K --disable-kvm -- true"
	alternate vng "$N" 1 "A B" "bp_boot vng-a --kernel $vg_k --scenarios boot" \
		"vng_run $vg_k" || return 1
	side "A bootproof boot --scenarios boot" "$W/vng.A"
	side "B vng --run K --disable-kvm -- true" "$W/vng.B"
	ratio "ratio A/B" "$W/vng.A" "$W/vng.B" "<= 0.30"
}

# ------------------------------------------------------------------ main

for cs in $CASES; do
	case $cs in
	built | distro | i386 | scenarios | parallel | rerun | vng) ;;
	*) echo "bench: BP_BENCH_CASES: unknown case '$cs' (built distro i386 scenarios parallel rerun vng)" >&2; exit 2 ;;
	esac
done
say "boot bench: $N rounds per case ($RUN_N for rerun) after a warm-up round, load average at start $(load), $(nproc) CPUs, work in $W"
for cs in built distro i386 scenarios parallel rerun vng; do
	has "$cs" || continue
	say "== $cs (load average $(load))"
	case_$cs || {
		say "  $cs: no ratio: a run failed (above)"
		FAILED="${FAILED:+$FAILED }$cs"
	}
done
