#!/bin/sh
# make bench-devloop KSRC=DIR: the developer's loop on a kernel tree of
# one's own, as a ratio measured side by side in this one run (never a
# timed test).  Alternated BP_DEVLOOP_N times (default 3), each time after
# a new one-line edit of FILE (default kernel/sys.c, a comment appended:
# a real change, so ccache misses on both sides):
#   A  `bootproof run PLAN --arch x86_64` started inside DIR (the tree is
#      found by itself), PLAN the demo plan with only the boot scenario:
#      config stage (cached: no Kconfig file changed), the incremental
#      build in bootproof's kept O= tree, the image (cached), the boot and
#      its verdict;
#   B  what a developer does by hand: make's incremental bzImage in an O=
#      tree of the same .config (CC="ccache gcc" on bootproof's ccache, as
#      bootproof builds), then a bare QEMU boot of it (same memory, CPUs
#      and accelerator, a root disk whose /init prints a line and powers
#      off).
# Prints each side's median and spread and the ratio A/B (target <= 1.20,
# docs/boot.md, "The developer's loop").  The first run of A builds the tree from clean (ccache
# cold: 15 minutes or more here); B's O= tree is then filled from ccache.
# FILE is restored at the end (its mtime is new: the next build
# recompiles it).  Knobs: BOOTPROOF (the binary), BOOTPROOF_CACHE,
# BOOTPROOF_DATADIR, BP_DEVLOOP_N, BP_DEVLOOP_FILE, BP_DEVLOOP_DIR (work
# directory, default a new one in /var/tmp).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
BP=${BOOTPROOF:-$top/bootproof}
KSRC=${KSRC:-}
N=${BP_DEVLOOP_N:-3}
FILE=${BP_DEVLOOP_FILE:-kernel/sys.c}
CACHE=${BOOTPROOF_CACHE:-/var/cache/bootproof}
export BOOTPROOF_CACHE=$CACHE BOOTPROOF_DATADIR=${BOOTPROOF_DATADIR:-$top}

[ -n "$KSRC" ] || { echo "SKIP  devloop  no KSRC=DIR (a clean kernel tree of your own; docs/boot.md)"; exit 0; }
KSRC=$(cd "$KSRC" && pwd)
[ -f "$KSRC/$FILE" ] || { echo "devloop: $KSRC/$FILE: no such file" >&2; exit 2; }
[ -x "$BP" ] || { echo "devloop: no bootproof binary at $BP (make bootproof)" >&2; exit 2; }
QEMU=$(command -v qemu-system-x86_64) || { echo "SKIP  devloop  no qemu-system-x86_64 (make setup)"; exit 0; }
W=${BP_DEVLOOP_DIR:-$(mktemp -d /var/tmp/bootproof-devloop.XXXXXX)}
mkdir -p "$W"
cp "$KSRC/$FILE" "$W/file.orig"
trap 'cp "$W/file.orig" "$KSRC/$FILE"' EXIT INT TERM

sed -e 's/^name .*/name devloop/' -e 's/^arch .*/arch x86_64/' \
	"$top/scenarios/plans/demo.plan" >"$W/devloop.plan"
echo "scenarios boot" >>"$W/devloop.plan"

# The bare side's root: /init writes a line and powers off.
cat >"$W/init.c" <<'EOF'
#include <sys/reboot.h>
#include <unistd.h>
int main(void)
{
	static const char msg[] = "devloop: init ran\n";
	write(1, msg, sizeof(msg) - 1);
	sync();
	/* a reset, which -no-reboot turns into QEMU's exit: a kernel
	 * without ACPI (the demo's) cannot power off */
	reboot(RB_AUTOBOOT);
	return 1;
}
EOF
mkdir -p "$W/root/dev" "$W/root/proc"
gcc -static -O2 -o "$W/root/init" "$W/init.c"
rm -f "$W/root.img"
mkfs.ext4 -q -F -d "$W/root" "$W/root.img" 16M

edit() { printf '/* bootproof devloop %s */\n' "$1" >>"$KSRC/$FILE"; }
secs() { date +%s.%N; }

# A: bootproof in the tree; prints its seconds, fails on a non-BOOTED run.
side_a() {
	t0=$(secs)
	(cd "$KSRC" && "$BP" run "$W/devloop.plan" --results "$W/runs") \
		>"$W/a.out" 2>"$W/a.err" || { cat "$W/a.err" >&2; return 1; }
	t1=$(secs)
	grep -q 'BOOTED' "$W/a.out" || { cat "$W/a.out" >&2; return 1; }
	echo "$t0 $t1" | awk '{printf "%.2f\n", $2 - $1}'
}

# B: make in its own O= tree, then a bare boot.
side_b() {
	t0=$(secs)
	CCACHE_DIR=$CACHE/ccache make -s -C "$KSRC" O="$W/obj" ARCH=x86_64 \
		CC="ccache gcc" -j"$(nproc)" bzImage >"$W/b.make" 2>&1 ||
		{ tail -n 20 "$W/b.make" >&2; return 1; }
	rm -f "$W/console.log"
	timeout 300 "$QEMU" -accel tcg -m 1024 -smp 2 -display none -no-reboot \
		-nodefaults -serial "file:$W/console.log" \
		-kernel "$W/obj/arch/x86/boot/bzImage" \
		-append "console=ttyS0 root=/dev/vda rw init=/init panic=-1" \
		-drive "file=$W/root.img,if=virtio,format=raw" >/dev/null 2>&1 || true
	t1=$(secs)
	grep -q 'devloop: init ran' "$W/console.log" ||
		{ echo "devloop: the bare boot did not reach init" >&2; tail -n 5 "$W/console.log" >&2; return 1; }
	echo "$t0 $t1" | awk '{printf "%.2f\n", $2 - $1}'
}

echo "devloop: tree $KSRC, file $FILE, $N rounds, work in $W"
# Warm-up: A builds (or finds) the kernel; B's O= tree gets its .config.
side_a >/dev/null
cfg=$(ls -t "$W"/runs/*/x86_64-all/config | head -1)
mkdir -p "$W/obj"
cp "$cfg" "$W/obj/.config"
make -s -C "$KSRC" O="$W/obj" ARCH=x86_64 olddefconfig >/dev/null
side_b >/dev/null
: >"$W/a.times"
: >"$W/b.times"
i=1
while [ "$i" -le "$N" ]; do
	edit "a$i"
	side_a >>"$W/a.times"
	edit "b$i"
	side_b >>"$W/b.times"
	echo "  round $i: bootproof $(tail -n 1 "$W/a.times") s, make + bare QEMU $(tail -n 1 "$W/b.times") s"
	i=$((i + 1))
done
python3 - "$W/a.times" "$W/b.times" <<'EOF'
import statistics, sys
a, b = ([float(x) for x in open(p)] for p in sys.argv[1:3])
ma, mb = statistics.median(a), statistics.median(b)
print("devloop: bootproof run (edit, build, boot, verdict): median %.1f s (%.1f-%.1f)" % (ma, min(a), max(a)))
print("devloop: make bzImage + bare QEMU boot:             median %.1f s (%.1f-%.1f)" % (mb, min(b), max(b)))
print("devloop: ratio %.2f (target <= 1.20): %s" % (ma / mb, "met" if ma / mb <= 1.2 else "NOT met"))
EOF
echo "devloop: the last bootproof run: $(ls -td "$W"/runs/* | head -1)"
