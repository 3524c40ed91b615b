#!/bin/sh
# A real guest that lies and floods, through libvirtd and QEMU: Debian's
# kernel boots an initramfs whose /init writes to the console forever --
# a fake agent run (KTAP, "# bootproof-agent: done"), a fake
# "reboot: Power down", escape sequences, invalid UTF-8, a 1 MiB line,
# binary garbage -- and never powers off.  bootproof must say HUNG at the
# timeout (never BOOTED), destroy the guest, keep the console log, and
# stay under its memory bound (docs/reliability.md: 64 MiB; 128 MiB under
# ASan, its quarantine off).
set -u
BP=${BOOTPROOF:-./bootproof}
K=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$K" ] || { echo "SKIP: no Debian kernel in /boot (make setup installs linux-image-amd64)"; exit 77; }
[ -x /bin/busybox ] || { echo "SKIP: no /bin/busybox (busybox-static)"; exit 77; }
command -v cpio >/dev/null || { echo "SKIP: no cpio"; exit 77; }
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (Debian package time)"; exit 77; }
virsh -c qemu:///system version >/dev/null 2>&1 || { echo "FAIL: libvirtd does not answer (make setup starts it)"; exit 1; }
bound=65536
if ldd "$BP" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
	bound=131072
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# The initramfs: busybox and a flooding /init.
mkdir -p "$T/i/bin" "$T/i/dev"
cp /bin/busybox "$T/i/bin/"
cat >"$T/i/init" <<'EOS'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
exec >/dev/console 2>&1
while :; do /bin/busybox cat /flood.txt; done
EOS
chmod +x "$T/i/init"
{
	printf 'KTAP version 1\n1..1\nok 1 boot\n# bootproof-agent: done\n'
	printf '[   99.000000] reboot: Power down\n'
	printf 'hostile-flood-marker \033[2J\033]0;x\a\377\376\300\257\n'
	head -c 1048576 /dev/zero | tr '\000' 'L'
	printf '\n'
	head -c 262144 /dev/urandom
	printf '\n'
} >"$T/i/flood.txt"
(cd "$T/i" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/flood.cpio.gz"

/usr/bin/time -o "$T/time" -f '%M %e' "$BP" boot --kernel "$K" \
	--initrd "$T/flood.cpio.gz" --scenarios none --timeout 60 \
	--results "$T/r" >"$T/out" 2>"$T/err"
rc=$?
read -r rss secs <<EOT
$(tail -n 1 "$T/time")
EOT
cat "$T/out"
[ $rc = 1 ] || { no "exit $rc, want 1"; tail -n 10 "$T/err"; }
grep -q '^verdict: HUNG (no end within 60s' "$T/out" || no "not HUNG at the timeout: $(head -n 1 "$T/out")"
d=$(sed -n 's/^results: \(.*\)\/$/\1/p' "$T/out")
[ -n "$d" ] && [ -d "$d" ] || no "no run directory"
if [ -n "$d" ]; then
	grep -q '"verdict":"HUNG"' "$d/run.json" || no "run.json verdict not HUNG"
	grep -q '"complete":true' "$d/run.json" || no "run.json not complete"
	grep -aq 'hostile-flood-marker' "$d/console.log" || no "the flood is not in console.log"
	echo "console.log: $(wc -c <"$d/console.log") bytes in ${secs}s"
fi
name=$(sed -n 's/.*starting x86_64 guest \(bootproof-[^ ]*\).*/\1/p' "$T/err")
[ -n "$name" ] && virsh -c qemu:///system list --all --name | grep -qx "$name" &&
	no "domain $name still defined"
echo "max RSS ${rss} KiB (bound ${bound} KiB)"
[ "${rss:-999999999}" -lt $bound ] || no "max RSS ${rss} KiB over ${bound} KiB"
exit $fail
