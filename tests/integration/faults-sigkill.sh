#!/bin/sh
# bootproof killed with SIGKILL at moments spread over a whole boot
# (docs/reliability.md): before the guest starts, while it boots, while run.json is
# rewritten, while the last records are written.  Every time:
#  - run.json is absent or a whole JSON document (never truncated: it is
#    only ever replaced by rename);
#  - no domain and no QEMU are left (AUTODESTROY: libvirtd destroys the
#    guest when bootproof's connection closes);
# and at the end the staging directories of the killed runs are gone (the
# next boot removes those whose run no longer holds their lock).
#
# A first boot, not killed, measures how long one takes (a short --timeout
# ends it HUNG, so that the end, and its writes, come soon); the kills then
# fall at i/BP_KILLS of that time plus a random part.  BP_KILLS (default
# 10) sets how many; make stress runs more.
set -u
. "$(dirname "$0")/faults-lib.inc"
need_root
need_kernel
need_libvirt
kills=${BP_KILLS:-10}
T=$(mktemp -d)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
cache=${BOOTPROOF_CACHE:-/var/cache/bootproof}
# boot,hang: the agent never finishes, so the boot is HUNG at the timeout
# however fast the kernel boots (Debian's with bootproof's initramfs: 8 s).
args="--kernel $K --accel tcg --scenarios boot,hang --timeout 12"

now_ms() { date +%s%3N; }

start=$(now_ms)
# shellcheck disable=SC2086
"$BP" boot $args --results "$T/ref" >"$T/out" 2>"$T/err"
rc=$?
dur=$(($(now_ms) - start))
head -n 1 "$T/out"
[ $rc = 1 ] && grep -q '^verdict: HUNG' "$T/out" ||
	{ cat "$T/err"; no "reference boot: exit $rc, $(head -n 1 "$T/out")"; exit 1; }
echo "one boot takes ${dur} ms"

names=""
i=0
while [ $i -lt "$kills" ]; do
	# i/kills of a boot, plus up to one slice more (the last one may
	# fall after the end); the first one before the guest starts.
	slice=$((dur / kills))
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	if [ $i = 0 ]; then
		at=$((20 + r % 300))
	else
		at=$((i * slice + r % (slice + 1) + 50))
	fi
	"$BP" boot $args --results "$T/k" >"$T/out" 2>"$T/err" &
	bp=$!
	sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
	phase=$(grep -v '^$' "$T/err" | tail -n 1 | cut -c1-100)
	kill -KILL $bp 2>/dev/null
	wait $bp 2>/dev/null
	name=$(guest_name "$T/err")
	echo "kill $((i + 1)) at ${at} ms: ${phase:-(nothing printed yet)}"
	for d in "$T"/k/*/; do
		[ -e "$d/run.json" ] || continue
		json_ok "$d/run.json" || no "kill at ${at} ms: $d/run.json is not whole JSON: $(head -c 300 "$d/run.json")"
	done
	if [ -n "$name" ]; then
		names="$names $name"
		gone "$name" 20 || no "kill at ${at} ms: domain or QEMU of $name left: $(virsh -c $URI list --all --name | grep -x "$name") $(qemu_of "$name")"
	fi
	i=$((i + 1))
done
n=$(ls -d "$T"/k/*/ 2>/dev/null | wc -l)
complete=$(for d in "$T"/k/*/; do jget "$d/run.json" '{complete}' 2>/dev/null; echo; done | grep -c true)
tmps=$(ls "$T"/k/*/ | grep -c '\.tmp\.')
echo "$n run directories, $complete of them complete (killed after the end), $tmps temporary files left by a kill mid-write"

# The next boot removes the staging directories the killed ones left.
# shellcheck disable=SC2086
"$BP" boot $args --results "$T/ref" >"$T/out" 2>"$T/err"
for name in $names; do
	[ -e "$cache/runs/$name" ] && no "staging directory of killed $name left in $cache/runs"
done
ok "$kills kills"
exit $fail
