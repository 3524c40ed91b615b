#!/bin/sh
# make setup: install what bootproof needs on Debian 12 and start libvirtd.
# Idempotent: installs only missing packages, starts libvirtd only when no
# daemon answers.  Not as root it changes nothing and lists what is missing.
# Exit: 0 ready, 3 something is missing or could not be set up.
set -u

PKGS="
build-essential pkg-config make gcc clang gcc-multilib
libclang-rt-14-dev
qemu-system-x86 qemu-utils qemu-user-static
libvirt-daemon-system libvirt-clients libvirt-dev
libguestfs-tools libguestfs-dev
libcmocka-dev libjson-c-dev libxml2-dev libarchive-dev
linux-source-6.12 linux-image-amd64
busybox-static gdb ccache
bc bison flex libelf-dev libssl-dev cpio kmod xz-utils
chromium libxml2-utils
"

missing_pkgs() {
	for p in $PKGS; do
		s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
		[ "$s" = installed ] || printf '%s\n' "$p"
	done
}

libvirt_ok() {
	command -v virsh >/dev/null 2>&1 &&
		LC_ALL=C timeout 15 virsh -c qemu:///system version >/dev/null 2>&1
}

missing=$(missing_pkgs)

if [ "$(id -u)" -ne 0 ]; then
	rc=0
	if [ -n "$missing" ]; then
		echo "setup: not root; missing Debian packages:" >&2
		echo "  apt-get install -y" $missing >&2
		rc=3
	fi
	if ! libvirt_ok; then
		echo "setup: not root; libvirtd does not answer on qemu:///system" >&2
		echo "  fix: as root: mkdir -p /var/log/libvirt && libvirtd -d" >&2
		rc=3
	fi
	bb32=${BOOTPROOF_CACHE:-/var/cache/bootproof}/i386-busybox/bin/busybox
	[ -x "$bb32" ] || echo "setup: not root; no i386 busybox at $bb32 (i386 images need it; run make setup as root)" >&2
	[ $rc -eq 0 ] && echo "setup: everything present"
	exit $rc
fi

if [ -n "$missing" ]; then
	echo "setup: installing:" $missing
	export DEBIAN_FRONTEND=noninteractive
	# A third-party source that cannot be reached must not stop us:
	# Debian's own archive is what we need.
	apt-get update -q >/dev/null 2>&1 || apt-get update -q || true
	# shellcheck disable=SC2086
	if ! apt-get install -y -q --no-install-recommends $missing; then
		echo "setup: apt-get install failed" >&2
		exit 3
	fi
	missing=$(missing_pkgs)
	if [ -n "$missing" ]; then
		echo "setup: still missing after install:" $missing >&2
		exit 3
	fi
fi

if ! libvirt_ok; then
	mkdir -p /var/log/libvirt /var/run/libvirt
	# libvirtd -d forks into the background; virtlogd is started on
	# demand by libvirtd when it is not running.
	if command -v virtlogd >/dev/null 2>&1 && ! pgrep -x virtlogd >/dev/null; then
		virtlogd -d || true
	fi
	libvirtd -d
	i=0
	while [ $i -lt 30 ] && ! libvirt_ok; do
		sleep 0.5
		i=$((i + 1))
	done
	if ! libvirt_ok; then
		echo "setup: libvirtd started but qemu:///system does not answer" >&2
		exit 3
	fi
	echo "setup: libvirtd started"
fi
# The i386 busybox that `bootproof image --arch i386` puts into i386 images:
# Debian's busybox-static:i386, unpacked (not installed) into the cache.
# Failing here is only a warning: x86_64 images do not need it.
bb_cache=${BOOTPROOF_CACHE:-/var/cache/bootproof}
bb32=$bb_cache/i386-busybox
if [ ! -x "$bb32/bin/busybox" ]; then
	dpkg --print-foreign-architectures | grep -qx i386 ||
		dpkg --add-architecture i386
	bbtmp=$(mktemp -d "${TMPDIR:-/tmp}/bp-busybox.XXXXXX")
	get_bb32() { (cd "$bbtmp" && apt-get download -q busybox-static:i386) >/dev/null 2>&1; }
	# The i386 package lists exist only after an update that knows i386.
	get_bb32 || { apt-get update -q >/dev/null 2>&1; get_bb32; }
	# Unpacked beside its final place, then renamed: a concurrent or
	# interrupted setup never leaves a half directory at $bb32.
	bbnew=$bb_cache/.i386-busybox.$$
	mkdir -p "$bb_cache"
	if deb=$(ls "$bbtmp"/busybox-static_*_i386.deb 2>/dev/null) &&
		dpkg-deb -x "$deb" "$bbnew" &&
		[ -x "$bbnew/bin/busybox" ]; then
		rm -rf "$bb32"
		mv -T "$bbnew" "$bb32" 2>/dev/null || [ -x "$bb32/bin/busybox" ]
		echo "setup: i386 busybox unpacked into $bb32"
	else
		echo "setup: warning: could not fetch busybox-static:i386 (needed for i386 images only)" >&2
	fi
	rm -rf "$bbtmp" "$bbnew"
fi
echo "setup: ready"
