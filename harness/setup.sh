#!/bin/sh
# make setup: install what bootproof needs on Debian 12, start libvirtd and
# unpack Debian's i386 busybox and kernel into the cache for i386 guests.
# Idempotent: installs only missing packages, starts libvirtd only when no
# daemon answers, fetches only what the cache lacks.  Not as root it
# changes nothing and lists what is missing.
# Usage: setup.sh [run|all] (default all; see PKGS_RUN).
# Exit: 0 ready, 2 bad usage, 3 something is missing or could not be set up.
set -u

# What `bootproof run` needs (make demo): build bootproof and its guest
# agent (gcc-multilib for i386; zlib, static, for both arches: the agent
# reads /proc/config.gz itself), build kernels, boot them under libvirt,
# build images with libguestfs (linux-image-amd64: its appliance kernel on
# a host that has none in /boot), gdb for the kgdb scenario.
PKGS_RUN="
build-essential pkg-config make gcc gcc-multilib zlib1g-dev lib32z1-dev
qemu-system-x86 qemu-utils
libvirt-daemon-system libvirt-clients libvirt-dev
libguestfs-tools libguestfs-dev
libjson-c-dev libxml2-dev libarchive-dev libyaml-dev
linux-source-6.12 linux-image-amd64
busybox-static gdb ccache tini
bc bison flex libelf-dev libssl-dev cpio kmod xz-utils procps
python3
"
# What only the tests, fuzzers, benchmarks and the LAVA and distcc
# back-ends need (make check, make bench).
PKGS_TEST="
clang libclang-rt-14-dev qemu-user-static
libcmocka-dev distcc time
chromium libxml2-utils python3-jsonschema python3-yaml
lava-dispatcher lava-common
"
# setup.sh run: only PKGS_RUN and the i386 busybox; setup.sh (all): both
# lists and the i386 distro kernel the i386 tests boot.
profile=${1:-all}
case $profile in
run) PKGS=$PKGS_RUN ;;
all) PKGS="$PKGS_RUN $PKGS_TEST" ;;
*)
	echo "usage: setup.sh [run|all]" >&2
	exit 2
	;;
esac

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

# What i386 guests need from Debian's i386 archive, unpacked (not
# installed) into the cache: busybox-static:i386 for `bootproof image
# --arch i386`, the 686-pae kernel for tests/integration/agent-i386.sh.
bb_ok() { [ -x "$1/bin/busybox" ]; }
# A kernel with its modules and their modules.dep: a package's unpacked
# files have none (its postinst runs depmod), so depmod writes it here;
# bootproof boot finds the modules beside the kernel (../lib/modules).
kernel_ok() {
	for k in "$1"/boot/vmlinuz-*; do
		r=${k##*/vmlinuz-}
		[ -f "$k" ] && [ -d "$1/lib/modules/$r" ] || continue
		[ -f "$1/lib/modules/$r/modules.dep" ] ||
			depmod -b "$1" "$r" 2>/dev/null
		[ -f "$1/lib/modules/$r/modules.dep" ] && return 0
	done
	return 1
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
	cache=${BOOTPROOF_CACHE:-/var/cache/bootproof}
	bb_ok "$cache/i386-busybox" ||
		echo "setup: not root; no i386 busybox at $cache/i386-busybox/bin/busybox (i386 images need it; run make setup as root)" >&2
	[ "$profile" = run ] || kernel_ok "$cache/i386-kernel" ||
		echo "setup: not root; no i386 kernel unpacked in $cache/i386-kernel (tests/integration/agent-i386.sh needs it; run make setup as root)" >&2
	[ $rc -eq 0 ] && echo "setup: everything present"
	exit $rc
fi

if [ -n "$missing" ]; then
	echo "setup: installing:" $missing
	export DEBIAN_FRONTEND=noninteractive
	# A third-party source that cannot be reached must not stop us:
	# Debian's own archive is what we need.
	apt-get update -q >/dev/null 2>&1 || apt-get update -q || true
	# linux-image-amd64 is libguestfs's appliance kernel.  On a host
	# that boots no kernel from /boot (a container, a VM given its
	# kernel from outside) its initramfs would be 40 s of apt for
	# nothing: INITRD=No tells the kernel's postinst hook to skip it.
	# A host with a kernel in /boot keeps its initramfs as Debian makes it.
	if ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
		case " $(echo $missing) " in
		*" linux-image-amd64 "*)
			echo "setup: nothing boots from /boot here: linux-image-amd64 (libguestfs's appliance kernel) is installed without an initramfs"
			export INITRD=No
			;;
		esac
	fi
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
	sh "$(dirname "$0")/libvirtd-start.sh" || exit 3
else
	# One started before tini was installed (libvirtd-start.sh says why
	# it matters) is left running: it may have guests.
	lv=$(cat /run/libvirtd.pid 2>/dev/null)
	parent=$(ps -o comm= -p "$(ps -o ppid= -p "${lv:-0}" 2>/dev/null | tr -d ' ')" 2>/dev/null)
	if [ -n "$lv" ] && [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ] &&
		[ "$parent" != tini ]; then
		echo "setup: note: libvirtd runs without a reaping parent: each guest's teardown waits for PID 1 to reap its QEMU; stop it when no guest runs and run harness/libvirtd-start.sh"
	fi
fi
# The i386 packages (see bb_ok above).  Failing here is only a warning:
# x86_64 images and tests do not need them.
cache=${BOOTPROOF_CACHE:-/var/cache/bootproof}
i386_updated=0
# i386_apt CMD...: an apt command that needs the i386 package lists; they
# exist only after an update that knows i386, so on failure update once
# and retry.
i386_apt() {
	"$@" && return 0
	[ $i386_updated -eq 0 ] || return 1
	i386_updated=1
	apt-get update -q >/dev/null 2>&1
	"$@"
}
i386_arch() {
	dpkg --print-foreign-architectures | grep -qx i386 ||
		dpkg --add-architecture i386
}
download_into() { (cd "$1" && apt-get download -q "$2"); }
# newest_kernel_pkg: the newest 686-pae kernel package apt knows, which is
# what the metapackage depends on (linux-image-6.1.0-57-686-pae in 2026).
newest_kernel_pkg() {
	apt-cache depends linux-image-686-pae:i386 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*-686-pae\):i386$/\1/p' |
		sort -V | tail -n 1 | grep .
}
# fetch_i386 PKG DEST CHECK: apt-get download PKG (an :i386 package) and
# unpack it into DEST; CHECK DEST must succeed on the result.  Unpacked
# beside DEST, then renamed: a concurrent or interrupted setup never
# leaves a half directory at DEST.  Returns 1 when it could not.
fetch_i386() {
	mkdir -p "$cache" || return 1
	dl=$(mktemp -d "$cache/.download.XXXXXX") || return 1
	new=$cache/.${2##*/}.$$
	r=1
	deb=
	if i386_apt download_into "$dl" "$1" >/dev/null 2>&1; then
		deb=$(find "$dl" -name '*_i386.deb' | head -n 1)
	fi
	if [ -n "$deb" ] && dpkg-deb -x "$deb" "$new" && "$3" "$new"; then
		rm -rf "$2"
		mv -T "$new" "$2" 2>/dev/null || "$3" "$2"
		r=$?
	fi
	rm -rf "$dl" "$new"
	return $r
}

bb32=$cache/i386-busybox
if ! bb_ok "$bb32"; then
	i386_arch
	if fetch_i386 busybox-static:i386 "$bb32" bb_ok; then
		echo "setup: i386 busybox unpacked into $bb32"
	else
		echo "setup: warning: could not fetch busybox-static:i386 into $bb32 (needed for i386 images only)" >&2
	fi
fi

k32=$cache/i386-kernel
if [ "$profile" = all ] && ! kernel_ok "$k32"; then
	i386_arch
	kpkg=$(i386_apt newest_kernel_pkg)
	if [ -z "$kpkg" ]; then
		echo "setup: warning: apt knows no linux-image-686-pae:i386 dependency; no i386 kernel in $k32 (needed by i386 tests only)" >&2
	elif fetch_i386 "$kpkg:i386" "$k32" kernel_ok; then
		echo "setup: i386 kernel $kpkg unpacked into $k32"
	else
		echo "setup: warning: could not fetch $kpkg:i386 into $k32 (needed by i386 tests only)" >&2
	fi
fi
# The tests that boot Debian's own kernel (agent-distro, faults-qemu) boot
# it with Debian's initramfs, which a kernel installed with INITRD=No (by
# `setup.sh run` above, or by an earlier one) lacks: make it once.
if [ "$profile" = all ]; then
	for k in /boot/vmlinuz-*; do
		[ -f "$k" ] || continue
		r=${k#/boot/vmlinuz-}
		[ -f "/boot/initrd.img-$r" ] && continue
		echo "setup: making Debian's initramfs for $r (the tests boot Debian's kernel with it)"
		if ! update-initramfs -c -k "$r" >/dev/null 2>&1; then
			echo "setup: update-initramfs -c -k $r failed; the distro-kernel tests cannot run" >&2
			exit 3
		fi
	done
fi
echo "setup: ready"
