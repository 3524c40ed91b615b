#!/bin/sh
# One real boot through libvirtd, several faults and containment checks
# (docs/reliability.md: a host that fails, containment):
#  - every path the user gives reaches subprocesses as an argv element,
#    never a shell: the kernel (with its config beside it), its initrd
#    (given: the distro's, not bootproof's own initramfs), the
#    results directory and the cache directory have spaces, quotes, ';',
#    $(...) and backquotes in their names, --cmdline has $(...) too; the
#    guest boots and nothing is executed;
#  - the cached image, overwritten with garbage after it was built, is
#    detected before the boot and built again (never a kernel that cannot
#    mount root): the guest mounts its root;
#  - containment: QEMU runs as libvirt's unprivileged user, never root; the
#    guest's NIC is a tap attached to nothing (no bridge, no address, no
#    route);
#  - QEMU killed with SIGKILL mid-boot (to bootproof, QEMU dying by itself):
#    the boot is tried again (--retries, default 1), the first attempt kept
#    with its own console log; killed again: INFRA (not the kernel's fault),
#    exit 3, both console logs kept, run.json complete, nothing left behind.
set -u
. "$(dirname "$0")/faults-lib.inc"
need_root
need_kernel
need_libvirt
initrd=/boot/initrd.img-$REL
[ -f "$initrd" ] || skip "no $initrd"
T=$(mktemp -d)
chmod 755 "$T" # QEMU's user reads the staged files below the cache
trap 'rm -rf "$T"' EXIT

# Names a shell would act on.  Each, if ever run by a shell, creates a file
# under $T/pwned-*.
evil="x \"q\" 'a' ;touch $T/pwned-semi; \$(touch $T/pwned-subst) \`touch $T/pwned-bq\` &"
kdir="$T/kernel $evil"
cache="$T/cache $evil"
results="$T/results $evil"
mkdir -p "$kdir" "$cache/images" "$results"
cp "$K" "$kdir/vmlinuz-$REL"
cp "$initrd" "$kdir/initrd.img-$REL"
[ -f "/boot/config-$REL" ] && cp "/boot/config-$REL" "$kdir/config-$REL"

# The image this boot uses, copied from the usual cache, then damaged.
img=$("$BP" image --arch x86_64 --modules "/lib/modules/$REL" 2>"$T/err" | sed -n 's/^path: //p')
[ -n "$img" ] || { cat "$T/err"; no "bootproof image gave no image"; exit 1; }
cp --sparse=always "$img" "${img%.img}.json" "$cache/images/"
cimg="$cache/images/$(basename "$img")"
printf 'this is not an ext4 superblock' | dd of="$cimg" bs=1 seek=1024 conv=notrunc 2>/dev/null
dd if=/dev/urandom of="$cimg" bs=64k seek=16 count=16 conv=notrunc 2>/dev/null

# boot,hang: the agent never finishes, so the guest is still running when
# the containment checks below are done and QEMU is killed, however slow
# the host is (with boot alone, a fast boot could power off first).
BOOTPROOF_CACHE=$cache "$BP" boot --kernel "$kdir/vmlinuz-$REL" --accel tcg \
	--initrd "$kdir/initrd.img-$REL" \
	--scenarios boot,hang --timeout 400 --results "$results" \
	--cmdline "bootproof.note=\$(touch\${IFS}$T/pwned-cmdline);\`id\`" \
	>"$T/out" 2>"$T/err" &
bp=$!
if ! wait_for "$T/err" 'ROOT_MOUNTED|verdict' 600; then
	kill -INT $bp
	wait $bp
	cat "$T/err"
	no "the guest did not mount its root in time"
	exit 1
fi
name=$(guest_name "$T/err")
qpid=$(qemu_of "$name")
grep -q "cached image $cimg cannot be used: its content changed" "$T/err" ||
	no "the damaged image was not detected: $(grep -i image "$T/err")"
grep -q "^bootproof: building $cimg" "$T/err" || no "the damaged image was not built again"
grep -q ROOT_MOUNTED "$T/err" || no "no ROOT_MOUNTED: $(tail -n 3 "$T/err")"
[ -n "$qpid" ] || no "no QEMU process for $name"

# Containment, from the host, while the guest runs.
if [ -n "$qpid" ]; then
	quid=$(ps -o uid= -p "$qpid" | tr -d ' ')
	quser=$(ps -o user= -p "$qpid" | tr -d ' ')
	[ "$quid" != 0 ] || no "QEMU runs as root"
	id libvirt-qemu >/dev/null 2>&1 && [ "$quid" != "$(id -u libvirt-qemu)" ] &&
		no "QEMU runs as $quser, not libvirt-qemu"
	echo "QEMU $qpid runs as $quser (uid $quid)"
fi
tap=$(virsh -c $URI domiflist "$name" | awk '$2 == "ethernet" { print $1 }')
if [ -z "$tap" ]; then
	no "no tap interface in $(virsh -c $URI domiflist "$name")"
else
	link=$(ip -o link show dev "$tap")
	echo "$link"
	case $link in *" master "*) no "tap $tap is attached: $link" ;; esac
	[ -e "/sys/class/net/$tap/master" ] && no "tap $tap has a master"
	addrs=$(ip -o addr show dev "$tap" | grep -v 'inet6 fe80::')
	[ -z "$addrs" ] || no "tap $tap has addresses: $addrs"
	routes=$(ip route show dev "$tap"; ip -6 route show dev "$tap" | grep -v '^fe80::')
	[ -z "$routes" ] || no "routes through $tap: $routes"
fi

# QEMU dies: bootproof boots again, once.
[ -n "$qpid" ] && kill -KILL "$qpid"
if wait_for "$T/err" 'attempt 2 of 2' 60; then
	# the second attempt's QEMU, once its guest has mounted its root: the
	# milestone's own progress lines, not the first attempt's verdict and
	# retry message, which name its last milestone too
	_i=0
	while [ $_i -lt 3000 ] &&
		[ "$(grep -c '\] ROOT_MOUNTED$' "$T/err")" -lt 2 ]; do
		sleep 0.2
		_i=$((_i + 1))
	done
	qpid2=$(qemu_of "$name")
	[ -n "$qpid2" ] && [ "$qpid2" != "$qpid" ] || no "no second QEMU for $name"
	[ -n "$qpid2" ] && kill -KILL "$qpid2"
else
	no "QEMU killed once: no second attempt: $(tail -n 2 "$T/err")"
fi
wait_pid $bp 120 || { kill -INT $bp; no "bootproof did not end after QEMU was killed"; }
cat "$T/out"
tail -n 4 "$T/err"
[ $rc = 3 ] || no "QEMU killed: exit $rc, want 3"
grep -q '^verdict: INFRA (QEMU died' "$T/out" || no "QEMU killed: $(head -n 1 "$T/out")"
grep -q 'error: infrastructure: QEMU died' "$T/err" || no "QEMU killed: no infrastructure message"
d=$(run_dir "$T/out")
case $d in "$results"/*) ;; *) no "run directory $d is not under the results directory" ;; esac
grep -q 'Linux version' "$d/console.log" 2>/dev/null || no "console log lost"
grep -q 'EXT4-fs (vda)' "$d/console.attempt1.log" 2>/dev/null || no "the first attempt's console log lost"
[ "$(jget "$d/run.json" '{boots}[0]{earlier_attempts}[0]{verdict}')" = INFRA ] || no "run.json: the first attempt is not kept"
[ "$(jget "$d/run.json" '{boots}[0]{earlier_attempts}[0]{files}{console}')" = console.attempt1.log ] ||
	no "run.json: the first attempt's console log"
[ "$(jget "$d/run.json" '{boots}[0]{earlier_attempts}[1]')" = null ] || no "run.json: more than one earlier attempt"
grep -q 'EXT4-fs (vda)' "$d/console.log" 2>/dev/null || no "the root file system was not mounted"
[ "$(jget "$d/run.json" '{complete}')" = true ] || no "run.json not complete"
[ "$(jget "$d/run.json" '{exit_code}')" = 3 ] || no "run.json exit_code"
[ "$(jget "$d/run.json" '{boots}[0]{verdict}')" = INFRA ] || no "run.json verdict"
[ "$(jget "$d/run.json" '{boots}[0]{end}{how}')" = qemu-failed ] || no "run.json end"
[ "$(jget "$d/run.json" '{boots}[0]{kernel}{path}')" = "$kdir/vmlinuz-$REL" ] || no "run.json kernel path"
[ "$(jget "$d/run.json" '{boots}[0]{kernel}{initrd}')" = "$kdir/initrd.img-$REL" ] || no "the initrd given was not used"
gone "$name" 20 || no "domain or QEMU of $name left behind"
ls "$cache/runs" 2>/dev/null | grep -q . && no "staging left in $cache/runs: $(ls "$cache/runs")"
# The image built again is whole, and its manifest says so.
[ "$(sha256sum <"$cimg" | cut -d' ' -f1)" = "$(jget "${cimg%.img}.json" '{image_sha256}')" ] ||
	no "the rebuilt image does not match its manifest"
ok "QEMU killed mid-boot, retried, killed again; damaged image rebuilt; containment"

# Nothing was run by a shell.
pw=$(ls -d "$T"/pwned-* 2>/dev/null)
[ -z "$pw" ] || no "a shell ran a user-given string: $pw"
ok "hostile paths and options reach no shell"

exit $fail
