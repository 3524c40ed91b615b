#!/bin/sh
# The i386 agent (-m32 -static) in a real i386 guest: Debian's 686-pae
# kernel under qemu-system-i386 (TCG).  Its virtio_blk and ext4 are
# modules, and Debian's initrd for it cannot be made on an amd64 host, so
# a small initramfs is built here: i386 busybox + those modules, mount
# /dev/vda, switch_root to /bootproof/agent.  Expected: boot, bpf, cgroups,
# userfaultfd (write-protect SKIP: not on i386) and mm pass, kgdb SKIP.
# The guest has no agent channel (as on a LAVA lab): the boot scenario's
# channel check says SKIP with the reason and the agent keeps the kernel's
# log in /bootproof/dmesg.txt on the root instead.
#
# Needs Debian's linux-image-<newest>-686-pae:i386 and busybox-static:i386
# unpacked (never committed) into i386-kernel/ and i386-busybox/ of the
# cache: `make setup` (harness/setup.sh, as root) fetches both there.
# BP_I386_DIR overrides the directory that holds the two, by default
# ${BOOTPROOF_CACHE:-/var/cache/bootproof}.
set -u
here=$(dirname "$0")
. "$here/agent-lib.inc"

build=${BP_BUILD:-build}
agent=$build/guest/i386/bootproof-agent
dir=${BP_I386_DIR:-${BOOTPROOF_CACHE:-/var/cache/bootproof}}
[ -x "$agent" ] || skip "no agent binary $agent (make guest)"
kernel=$(ls -1 "$dir"/i386-kernel/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$kernel" ] || skip "no i386 kernel unpacked in $dir/i386-kernel (make setup, as root)"
busybox=$dir/i386-busybox/bin/busybox
[ -x "$busybox" ] || skip "no i386 busybox in $dir/i386-busybox (make setup, as root)"
rel=${kernel##*/vmlinuz-}
moddir=$dir/i386-kernel/lib/modules/$rel
[ -d "$moddir" ] || skip "no modules in $moddir"
need qemu-system-i386 mkfs.ext4 depmod debugfs cpio gzip perl timeout

work=$(mktemp -d "${TMPDIR:-/var/tmp}/bp-agent-i386.XXXXXX")
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

dep=$work/modules.dep
depfile "$dir/i386-kernel" "$rel" "$dep"
[ -s "$dep" ] || { echo "FAIL: depmod -n gave no modules.dep"; exit 1; }

# The initramfs: load the modules for the root disk, mount it, switch.
init=$work/initramfs
mkdir -p "$init/bin" "$init/proc" "$init/sys" "$init/dev" "$init/root"
cp "$busybox" "$init/bin/busybox"
order=$(load_order "$dep" crc32c_generic ext4 virtio_pci virtio_blk)
for f in $order; do
	mkdir -p "$init/lib/modules/$rel/$(dirname "$f")"
	cp "$moddir/$f" "$init/lib/modules/$rel/$f"
done
{
	echo '#!/bin/busybox sh'
	echo 'export PATH=/bin'
	echo '/bin/busybox --install -s /bin'
	echo 'mount -t proc proc /proc; mount -t sysfs sysfs /sys'
	echo 'mount -t devtmpfs devtmpfs /dev'
	for f in $order; do
		echo "insmod /lib/modules/$rel/$f || echo 'initramfs: insmod $f failed'"
	done
	echo 'i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done'
	echo 'mount -t ext4 -o rw /dev/vda /root || { echo "initramfs: cannot mount /dev/vda"; exec sh; }'
	echo 'umount /proc /sys; mount --move /dev /root/dev'
	echo 'exec switch_root /root /bootproof/agent'
} >"$init/init"
chmod 755 "$init/init"
(cd "$init" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"

mkroot "$work/root" "$agent" "$busybox"
copy_modules "$moddir" "$dep" "$work/root" "$rel" virtio_pci virtio_blk \
	virtio_net virtio_rng virtio_console pvpanic_pci
mkimage "$work/root" "$work/root.img" >/dev/null

start=$(date +%s)
BP_NO_CHANNEL=1 boot_qemu i386 "$kernel" "$work/initrd.gz" "$work/root.img" \
	"root=/dev/vda rw console=ttyS0 panic=-1 psi=1 bootproof.scenarios=boot,bpf,cgroups,userfaultfd,kgdb,mm bootproof.timeout=120 bootproof.cpus=2 bootproof.mem_mib=1024" \
	"$work" 900
q=$?
tr -d '\r' <"$work/console.log" >"$work/console.txt"
log=$work/console.txt
echo "qemu exit $q after $(($(date +%s) - start)) s"
grep 'initramfs:' "$log"
sed -n '/^KTAP version 1/,$p' "$log" | grep -v '^\['
[ $q -eq 0 ] || bad "qemu did not power off by itself (exit $q)"
grep -q ', kernel .* i686, running as init' "$log" || bad "the agent did not run as init on i686"
expect "$log" 1 boot 'ok 1 boot$'
expect "$log" 2 bpf 'ok 2 bpf$'
expect "$log" 3 cgroups 'ok 3 cgroups$'
expect "$log" 4 userfaultfd 'ok 4 userfaultfd$'
grep -q '^    ok 5 write_protect # SKIP UFFD_FEATURE_PAGEFAULT_FLAG_WP not offered' "$log" ||
	bad "write_protect should be SKIP on i386"
expect "$log" 5 kgdb 'ok 5 kgdb # SKIP CONFIG_KGDB not set'
expect "$log" 6 mm 'ok 6 mm$'
grep -q '^# bootproof-agent: done' "$log" || bad "no '# bootproof-agent: done'"
grep -q 'reboot: Power down' "$log" || bad "no 'reboot: Power down'"
grep -q '^    ok [0-9]* virtio_channel # SKIP no virtio-serial port named org.bootproof.agent.0' "$log" ||
	bad "virtio_channel should be SKIP without the channel"
grep -q '^# bootproof-agent: dmesg saved to /bootproof/dmesg.txt ([0-9]* bytes; no channel org.bootproof.agent.0)' "$log" ||
	bad "the agent did not say it kept the log on the root"
debugfs -R 'cat /bootproof/dmesg.txt' "$work/root.img" 2>/dev/null |
	grep -q "Linux version $rel" || bad "/bootproof/dmesg.txt not saved"
if [ -n "${BOOTPROOF:-}" ] && [ -x "$BOOTPROOF" ]; then
	"$BOOTPROOF" triage "$work/console.log" >"$work/triage.txt" 2>&1
	t=$?
	cat "$work/triage.txt"
	[ $t -eq 0 ] || bad "bootproof triage: exit $t"
fi
[ $rc -eq 0 ] && echo "agent-i386: all checks as expected"
exit $rc
