#!/bin/sh
# bootproof image for real (libguestfs, TCG): build the x86_64 and i386
# images into a fresh cache, look inside them (loop mount read-only, else
# guestfish copy-out), check that a second call is a fast cache hit, that
# an input change (adding modules) changes the hash, that a failing
# libguestfs leaves the cached image alone and exits 3, and the usage
# errors (exit 2).  Three libguestfs launches: a few minutes under TCG.
#
# Needs the agent binaries ($BP_BUILD/guest/<arch>/bootproof-agent, from
# `make guest`) and the i386 busybox (`make setup`); SKIP without them.
set -u
BP=${BOOTPROOF:-./bootproof}
BUILD=${BP_BUILD:-build}
export BP_BUILD=$BUILD
export LC_ALL=C
T=$(mktemp -d "${TMPDIR:-/tmp}/bp-image-test.XXXXXX")
MNT=$T/mnt
cleanup() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	rm -rf "$T"
}
trap cleanup EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
skip() { echo "$*"; exit 77; }

A64=$BUILD/guest/x86_64/bootproof-agent
A32=$BUILD/guest/i386/bootproof-agent
[ -f "$A64" ] || skip "agent not built yet: no $A64 (make guest)"
[ -f "$A32" ] || skip "agent not built yet: no $A32 (make guest)"
BB32=${BOOTPROOF_CACHE:-/var/cache/bootproof}/i386-busybox/bin/busybox
[ -f "$BB32" ] || skip "no i386 busybox at $BB32 (make setup as root)"
[ -f /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"
MODS=$(ls -d /lib/modules/*/ 2>/dev/null | head -n 1)
MODS=${MODS%/}

C=$T/cache
now_ms() { date +%s%3N; }
field() { sed -n "s/^$1: //p" "$2"; }

# image ARGS... -> $T/out, $T/err, $rc
image() {
	"$BP" image --cache "$C" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# The image tree at $T/root: a read-only loop mount, or a guestfish copy.
open_image() {
	close_image
	mkdir -p "$MNT"
	if mount -o loop,ro "$1" "$MNT" 2>/dev/null; then
		ROOT=$MNT
	else
		rm -rf "$T/copy" && mkdir -p "$T/copy"
		LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg \
			guestfish --ro -a "$1" -m /dev/sda copy-out / "$T/copy" ||
			no "guestfish cannot read $1"
		ROOT=$T/copy
	fi
}
close_image() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	ROOT=
}

# The marker the guest reads: byte i = (i * 2654435761 mod 2^32) >> 24.
awk 'BEGIN { for (i = 0; i < 1048576; i++)
	printf "%d\n", int((i * 2654435761) % 4294967296 / 16777216) }' \
	>"$T/marker.expect"

# check_image ARCH AGENT BUSYBOX IMAGE
check_image() {
	arch=$1 agent=$2 bb=$3 img=$4
	[ "$(blkid -o value -s TYPE "$img" 2>/dev/null)" = ext4 ] ||
		no "$arch: $img is not a bare ext4 filesystem (blkid)"
	[ "$(blkid -o value -s LABEL "$img" 2>/dev/null)" = bootproof ] ||
		no "$arch: label is not bootproof"
	[ "$(du -k "$img" | cut -f1)" -lt $(($(stat -c %s "$img") / 1024 / 2)) ] ||
		no "$arch: $img is not sparse"
	open_image "$img"
	[ -n "$ROOT" ] || return
	cmp -s "$ROOT/bootproof/agent" "$agent" || no "$arch: /bootproof/agent differs from $agent"
	[ -x "$ROOT/bootproof/agent" ] || no "$arch: agent not executable"
	cmp -s "$ROOT/bin/busybox" "$bb" || no "$arch: /bin/busybox differs from $bb"
	[ "$(readlink "$ROOT/bin/sh")" = busybox ] || no "$arch: /bin/sh is not -> busybox"
	[ "$(readlink "$ROOT/sbin/modprobe")" = ../bin/busybox ] ||
		no "$arch: /sbin/modprobe is not -> ../bin/busybox"
	n=$(find "$ROOT/bin" "$ROOT/sbin" -type l | wc -l)
	[ "$n" -gt 200 ] || no "$arch: only $n applet links"
	[ "$(readlink "$ROOT/usr/bin")" = ../bin ] || no "$arch: /usr/bin is not -> ../bin"
	od -An -v -tu1 -w1 "$ROOT/bootproof/marker.bin" | tr -d ' ' |
		cmp -s - "$T/marker.expect" || no "$arch: marker.bin is not the pattern"
	for d in proc sys dev tmp run mnt sys/fs/cgroup; do
		[ -d "$ROOT/$d" ] || no "$arch: no /$d"
	done
	[ "$(stat -c %a "$ROOT/tmp")" = 1777 ] || no "$arch: /tmp is not 1777"
	[ -c "$ROOT/dev/console" ] || no "$arch: no /dev/console"
	grep -q '^root:x:0:0:' "$ROOT/etc/passwd" || no "$arch: /etc/passwd has no root"
	grep -q '^root:' "$ROOT/etc/group" || no "$arch: /etc/group has no root"
	[ "$(cat "$ROOT/etc/hostname")" = bootproof ] || no "$arch: hostname"
	echo "ok $arch: layout of $img"
}

# ---------------------------------------------------------------- x86_64
t0=$(now_ms)
image --arch x86_64
t1=$(now_ms)
[ $rc -eq 0 ] || { cat "$T/err"; no "x86_64 build: exit $rc"; exit 1; }
IMG64=$(field path "$T/out")
H64=$(field hash "$T/out")
echo "built x86_64 in $(((t1 - t0) / 1000)) s: $IMG64"
[ ${#H64} -eq 64 ] || no "x86_64: hash '$H64' is not a sha256"
case $IMG64 in "$C"/images/bootproof-x86_64-*.img) ;; *) no "x86_64: path $IMG64 not in $C/images" ;; esac
[ -f "${IMG64%.img}.json" ] || no "x86_64: no manifest beside the image"
ls -a "$C/images" | grep -q '\.tmp\.' && no "temporary files left in $C/images"
check_image x86_64 "$A64" /bin/busybox "$IMG64"
close_image

# Again: a cache hit (the image and its manifest untouched: no libguestfs
# launch), same answer; also as JSON.  The time is printed, not judged
# (house rule: no timed tests; idle it is about 0.4 s, the hash of the
# sparse image; a build is 15 s and more).
st64=$(stat -c '%i %Y %s' "$IMG64" "${IMG64%.img}.json")
t0=$(now_ms)
image --arch x86_64
t1=$(now_ms)
[ $rc -eq 0 ] || no "x86_64 again: exit $rc"
[ "$(field hash "$T/out")" = "$H64" ] || no "x86_64 again: hash changed"
[ "$(field path "$T/out")" = "$IMG64" ] || no "x86_64 again: path changed"
[ "$(stat -c '%i %Y %s' "$IMG64" "${IMG64%.img}.json")" = "$st64" ] ||
	no "x86_64 again: the image or its manifest was written (not a cache hit)"
grep -q cached "$T/err" || no "x86_64 again: not reported as cached"
echo "ok cache hit in $((t1 - t0)) ms"
image --arch x86_64 --json
printf '%s' "$(cat "$T/out")" | grep -q "\"hash\":\"$H64\"" || no "--json: no hash"
grep -q '"cached":true' "$T/out" || no "--json: not cached"

# Touching the agent changes nothing; its bytes do (unit-tested); here
# the module set is the changed input: another image, another hash.
cp "$A64" "$T/agent-copy"
image --arch x86_64 --agent "$T/agent-copy"
[ "$(field hash "$T/out")" = "$H64" ] || no "same agent bytes elsewhere: hash changed"
grep -q cached "$T/err" || no "same agent bytes elsewhere: rebuilt"

if [ -n "$MODS" ] && [ -f "$MODS/modules.dep" ]; then
	REL=${MODS##*/}
	image --arch x86_64 --modules "$MODS"
	[ $rc -eq 0 ] || { cat "$T/err"; no "x86_64 --modules: exit $rc"; }
	IMGM=$(field path "$T/out")
	HM=$(field hash "$T/out")
	[ -n "$HM" ] && [ "$HM" != "$H64" ] || no "--modules: hash did not change"
	[ "$IMGM" != "$IMG64" ] || no "--modules: same image path"
	[ -f "$IMG64" ] || no "--modules: the other image is gone"
	open_image "$IMGM"
	if [ -n "$ROOT" ]; then
		D=$ROOT/lib/modules/$REL
		for m in virtio_net virtio_blk ext4; do
			p=$(grep -E "(^|/)$m\.ko[^:]*:" "$MODS/modules.dep" | cut -d: -f1)
			[ -z "$p" ] && continue	# built in
			cmp -s "$D/$p" "$MODS/$p" || no "--modules: $p not copied"
			grep -q "^$p:" "$D/modules.dep" || no "--modules: $p not in modules.dep"
			for dep in $(grep "^$p:" "$MODS/modules.dep" | cut -d: -f2); do
				[ -f "$D/$dep" ] || no "--modules: $p needs $dep, not copied"
			done
		done
		n=$(wc -l <"$D/modules.dep")
		[ "$n" -lt 100 ] || no "--modules: $n modules, expected a small set"
		echo "ok --modules: $n modules from $MODS"
	fi
	close_image
else
	echo "no /lib/modules/*/modules.dep here: --modules not tested"
fi

# libguestfs fails (no appliance): exit 3, a message naming libguestfs and
# the backend, and the cached image untouched.
sum=$(md5sum <"$IMG64")
LIBGUESTFS_PATH=$T/no-appliance image --arch x86_64 --force
[ $rc -eq 3 ] || no "libguestfs failure: exit $rc, want 3"
grep -q 'libguestfs: launch' "$T/err" || no "libguestfs failure: message does not name libguestfs launch: $(cat "$T/err")"
grep -q 'force_tcg' "$T/err" || no "libguestfs failure: message does not name the backend settings"
[ "$(md5sum <"$IMG64")" = "$sum" ] || no "libguestfs failure: cached image changed"
ls -a "$C/images" | grep -q '\.tmp\.' && no "libguestfs failure: temporary file left"
echo "ok libguestfs failure: exit 3, image kept"

# ------------------------------------------------------------------ i386
image --arch i386
[ $rc -eq 0 ] || { cat "$T/err"; no "i386 build: exit $rc"; exit 1; }
IMG32=$(field path "$T/out")
H32=$(field hash "$T/out")
[ "$H32" != "$H64" ] || no "i386 and x86_64 have the same hash"
case $IMG32 in "$C"/images/bootproof-i386-*.img) ;; *) no "i386: path $IMG32" ;; esac
check_image i386 "$A32" "$BB32" "$IMG32"
close_image
st32=$(stat -c '%i %Y %s' "$IMG32" "${IMG32%.img}.json")
t0=$(now_ms)
image --arch i386
t1=$(now_ms)
[ "$(field hash "$T/out")" = "$H32" ] && grep -q cached "$T/err" &&
	[ "$(stat -c '%i %Y %s' "$IMG32" "${IMG32%.img}.json")" = "$st32" ] ||
	no "i386 again: not a cache hit"
echo "ok i386 cache hit in $((t1 - t0)) ms"

# ------------------------------------------------------------ bad usage
image --arch arm64
[ $rc -eq 2 ] || no "--arch arm64: exit $rc, want 2"
grep -q "unknown architecture 'arm64'" "$T/err" || no "--arch arm64: message"
image --arch x86_64 --agent "$T/nope"
[ $rc -eq 2 ] || no "missing agent: exit $rc, want 2"
grep -q "$T/nope" "$T/err" || no "missing agent: message does not name the file"
image --arch i386 --agent "$A64"
[ $rc -eq 2 ] || no "x86_64 agent in i386 image: exit $rc, want 2"
grep -q 'not i386' "$T/err" || no "x86_64 agent in i386 image: message"
image --arch x86_64 --modules "$T"
[ $rc -eq 2 ] || no "--modules without modules.dep: exit $rc, want 2"
image --arch x86_64 --bogus
[ $rc -eq 2 ] || no "--bogus: exit $rc, want 2"
echo "ok usage errors exit 2"

[ $fail -eq 0 ] || exit 1
echo "image: all checks passed"
