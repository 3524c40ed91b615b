#!/bin/sh
# A host that fails, on disk and in what the user gives (docs/reliability.md):
#  - the results disk fills during a boot (a 64 KiB tmpfs as --results):
#    INFRA, exit 3, the message names the file and "No space left on
#    device", the guest is stopped at once, and the run.json left is a
#    whole one (never truncated);
#  - the results disk already full: exit 3 naming the directory, no run
#    directory left behind;
#  - the cache directory unwritable (a file; a read-only file system that
#    holds the image): exit 3 naming it;
#  - a kernel path that is not a kernel (a directory, an empty file, a
#    kernel cut off): exit 2 naming it, before any guest.
# A damaged cached image is in faults-qemu.sh (it needs a boot) and in
# tests/unit/test-faults.c.
set -u
. "$(dirname "$0")/faults-lib.inc"
need_root
need_kernel
need_libvirt
T=$(mktemp -d)
chmod 755 "$T"
mnts=""
cleanup() {
	for m in $mnts; do umount "$m" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
mount_tmpfs() { # DIR SIZE
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2,mode=0755" bootproof-faults "$1" || skip_host "cannot mount a tmpfs"
	mnts="$1 $mnts"
}

# 1. The results disk fills during the boot.  64 KiB, most of it taken:
# run.json and domain.xml fit, the console log soon does not.
R=$T/full
mount_tmpfs "$R" 64k
dd if=/dev/zero of="$R/filler" bs=4k count=11 2>/dev/null
"$BP" boot --kernel "$K" --accel tcg --scenarios boot --timeout 240 \
	--results "$R" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
d=$(ls -d "$R"/*-x86_64-*/ 2>/dev/null | head -n 1)
d=${d%/}
[ $rc = 3 ] || no "disk full: exit $rc, want 3"
grep -q "No space left on device" "$T/err" || no "disk full: no 'No space left on device'"
[ -n "$d" ] || no "disk full: no run directory"
grep -Fq "cannot write $d/console.log: No space left on device" "$T/err" ||
	no "disk full: the message does not name $d/console.log"
grep -q '^verdict: INFRA' "$T/out" || no "disk full: verdict $(head -n 1 "$T/out")"
# The guest was stopped at the first failed write, not at the end.
grep -q 'POWER_OFF' "$T/err" && no "disk full: the boot went on to the end"
if [ -e "$d/run.json" ]; then
	json_ok "$d/run.json" || no "disk full: run.json is not valid JSON (truncated?)"
	[ "$(jget "$d/run.json" '{run_id}')" = "$(basename "$d")" ] || no "disk full: run.json of another run?"
fi
ls "$d" | grep -q '\.tmp\.' && no "disk full: temporary files left: $(ls "$d")"
ok "results disk full during a boot"

# 2. The results disk full before the run: nothing is created.
R2=$T/full2
mount_tmpfs "$R2" 16k
dd if=/dev/zero of="$R2/filler" bs=4k count=8 2>/dev/null
"$BP" boot --kernel "$K" --accel tcg --scenarios none --results "$R2" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc = 3 ] || no "full before: exit $rc, want 3"
grep -Fq "cannot create a run directory under $R2: No space left on device" "$T/err" ||
	no "full before: message: $(tail -n 1 "$T/err")"
[ "$(ls "$R2")" = filler ] || no "full before: left behind: $(ls "$R2")"
ok "results disk full before a run"

# 3. The cache directory is a file.
: >"$T/cachefile"
BOOTPROOF_CACHE=$T/cachefile "$BP" boot --kernel "$K" --accel tcg --scenarios boot \
	--results "$T/r3" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc = 3 ] || no "cache is a file: exit $rc, want 3"
grep -Fq "$T/cachefile/images: Not a directory" "$T/err" || no "cache is a file: message does not name it"
ok "cache directory is a file"

# 4. The cache on a read-only file system that holds the image and
# bootproof's initramfs: both are found and checked, staging the kernel
# fails.
img=$("$BP" image --arch x86_64 --modules "/lib/modules/$REL" 2>"$T/err" | sed -n 's/^path: //p')
if [ -n "$img" ] && [ -f "${img%.img}.json" ]; then
	C=$T/rocache
	mount_tmpfs "$C" 512m
	mkdir -p "$C/images"
	cp --sparse=always "$img" "${img%.img}.json" "$C/images/"
	cp "$(dirname "$img")"/initramfs-x86_64-*.cpio "$C/images/" 2>/dev/null
	mount -o remount,ro "$C"
	BOOTPROOF_CACHE=$C "$BP" boot --kernel "$K" --accel tcg --scenarios boot \
		--results "$T/r4" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T/out" "$T/err"
	[ $rc = 3 ] || no "read-only cache: exit $rc, want 3"
	grep -Fq "cannot create $C/runs: Read-only file system" "$T/err" ||
		no "read-only cache: message does not name $C/runs"
	grep -q 'building' "$T/err" && no "read-only cache: the cached image was not used"
	d=$(run_dir "$T/out")
	[ "$(jget "$d/run.json" '{boots}[0]{verdict}')" = INFRA ] || no "read-only cache: run.json verdict"
	[ "$(jget "$d/run.json" '{exit_code}')" = 3 ] || no "read-only cache: run.json exit_code"
	ok "read-only cache"
else
	no "bootproof image did not give the image: $(cat "$T/err")"
fi

# 5. Not a kernel: exit 2, named, before anything runs.
mkdir "$T/kdir"
: >"$T/empty"
head -c 3000000 "$K" >"$T/cut"
for k in "$T/kdir:Is a directory" "$T/empty:not an x86 kernel image" \
	"$T/cut:cut off: 3000000 bytes, its boot header says at least"; do
	path=${k%%:*}
	want=${k#*:}
	"$BP" boot --kernel "$path" --results "$T/r5" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || no "--kernel $path: exit $rc, want 2"
	grep -Fq -- "--kernel $path" "$T/err" && grep -Fq "$want" "$T/err" ||
		no "--kernel $path: message: $(cat "$T/err")"
done
[ -e "$T/r5" ] && no "bad kernel: a run directory was made"
ok "not a kernel"

exit $fail
