#!/bin/sh
# A console that floods, through the console and KTAP parsers end to end
# (`bootproof triage`, which streams its input): a real boot's start, then
# BP_FLOOD_MB MiB (default 256; docs/reliability.md reports 2048) of
# hostile output -- escape sequences, invalid UTF-8, NUL bytes, fake KTAP
# from "user space" and from printk lines, plans that never complete,
# 8 MiB lines, binary garbage -- then the real boot's end.  The verdict
# must still be the boot's (BOOTED), and the process's max RSS stay under
# the bound docs/reliability.md states (64 MiB; 128 MiB under ASan, whose
# quarantine is turned off here: it would hold 256 MiB of freed blocks by
# design).
set -u
BP=${BOOTPROOF:-./bootproof}
MB=${BP_FLOOD_MB:-256}
LOG=tests/data/console/debian61-boot.log
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (Debian package time)"; exit 77; }
[ -f "$LOG" ] || { echo "FAIL: no $LOG (run from the source tree)"; exit 1; }
bound=65536
if ldd "$BP" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
	bound=131072
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

flood() {
	n=$(grep -a -n 'as init process' "$LOG" | head -n 1 | cut -d: -f1)
	head -n "$n" "$LOG"
	block=$(printf '[   30.000000] \033[1;31mred\033[0m \377\376 \300\257 \355\240\200 a\001b\001c\nKTAP version 1\n1..1000\nok 1 flood\n[   30.000001] ok 2 fake # printk\n\033]0;title\a\033P dcs\033\\#\tdiag\n\033[')
	i=0
	while [ $i -lt "$MB" ]; do
		yes "$block" | head -c 48M | tr '\001' '\000'
		head -c 8M /dev/zero | tr '\000' 'L'
		printf '\n'
		head -c 8M /dev/urandom
		printf '\n'
		i=$((i + 64))
	done
	tail -n +"$((n + 1))" "$LOG"
}

flood | /usr/bin/time -o "$T/time" -f '%M %e' "$BP" triage /dev/stdin \
	>"$T/out" 2>"$T/err"
rc=$?
read -r rss secs <<EOT
$(tail -n 1 "$T/time")
EOT
cat "$T/out"
fail=0
# Exit 1: the flood's KTAP plans never complete (errors), not the boot.
[ $rc = 1 ] || { echo "FAIL: triage exit $rc, want 1"; tail -n 5 "$T/err"; fail=1; }
grep -q '^/dev/stdin: BOOTED: init ran, clean power-off' "$T/out" ||
	{ echo "FAIL: the boot after the flood is not BOOTED"; fail=1; }
grep -q 'ktap: error (incomplete' "$T/out" ||
	{ echo "FAIL: the flood's unfinished plans are not reported"; fail=1; }
echo "flood: ${MB} MiB in ${secs}s, max RSS ${rss} KiB (bound ${bound} KiB)"
[ "${rss:-999999999}" -lt $bound ] || { echo "FAIL: max RSS ${rss} KiB over ${bound} KiB"; fail=1; }
exit $fail
