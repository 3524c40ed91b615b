#!/bin/sh
# Boot the distro kernel N times, JOBS at a time, all into one results
# directory, and report failures and verdict flips (docs/reliability.md).
# Passes when every boot is BOOTED, exits 0, and every scenario has the
# same result in every boot.  tests/stress/README.md says more.
#
#   BP_STRESS_N=20          boots
#   BP_STRESS_JOBS=2        at a time
#   BP_STRESS_ARGS=...      more options for bootproof boot (e.g. --accel tcg)
#   BP_STRESS_RESULTS=DIR   keep the run directories there (default: a
#                           temporary directory, removed when all passed)
#   BOOTPROOF=PATH          the bootproof to run (make stress sets it)
set -u
. "$(dirname "$0")/../integration/faults-lib.inc"
need_kernel
need_libvirt
N=${BP_STRESS_N:-20}
JOBS=${BP_STRESS_JOBS:-2}
W=$(mktemp -d)
R=${BP_STRESS_RESULTS:-$W/results}
mkdir -p "$R"
echo "stress: $N boots of $K, $JOBS at a time, results in $R"

# launch I: one boot in the background, its pid in slot file.
launch() {
	# shellcheck disable=SC2086
	"$BP" boot --kernel "$K" ${BP_STRESS_ARGS:-} --results "$R" \
		>"$W/$1.out" 2>"$W/$1.err" &
	echo $! >"$W/$1.pid"
}

# record I RC: one line per boot: I RC VERDICT ELAPSED ACCEL SCENARIOS.
record() {
	d=$(run_dir "$W/$1.out")
	if [ -n "$d" ] && json_ok "$d/run.json"; then
		perl -MJSON::PP -e '
			open(my $f, "<", $ARGV[0]) or die; local $/;
			my $j = decode_json(<$f>); my $b = $j->{boots}[0] // {};
			my $sc = join(" ", map { "$_->{name}=$_->{result}" } @{$b->{scenarios} // []});
			printf("%s %s %s %.1f %s %s\n", $ARGV[1], $ARGV[2], $b->{verdict} // "?",
			       $b->{elapsed_s} // 0, $b->{accel} // "?", $sc || "-");
		' "$d/run.json" "$1" "$2"
	else
		echo "$1 $2 NO-RECORD 0 ? -"
	fi >>"$W/table"
}

t0=$(date +%s)
next=1
running_n=0
: >"$W/table"
: >"$W/live"
while [ $next -le "$N" ] || [ $running_n -gt 0 ]; do
	while [ $next -le "$N" ] && [ $running_n -lt "$JOBS" ]; do
		launch $next
		echo $next >>"$W/live"
		next=$((next + 1))
		running_n=$((running_n + 1))
	done
	sleep 1
	for i in $(cat "$W/live"); do
		pid=$(cat "$W/$i.pid")
		kill -0 "$pid" 2>/dev/null && continue
		wait "$pid"
		rc=$?
		record "$i" "$rc"
		tail -n 1 "$W/table" | awk '{ printf "  boot %2d: exit %s %s after %ss [%s]\n", $1, $2, $3, $4, $5 }'
		grep -vx "$i" "$W/live" >"$W/live.new"
		mv "$W/live.new" "$W/live"
		running_n=$((running_n - 1))
	done
done
secs=$(($(date +%s) - t0))

sort -n "$W/table" >"$W/sorted"
echo
echo "boot exit verdict    elapsed accel scenarios"
awk '{ s = ""; for (i = 6; i <= NF; i++) s = s " " $i;
       printf "%4d %4s %-10s %6.1fs %-5s%s\n", $1, $2, $3, $4, $5, s }' "$W/sorted"

booted=$(awk '$2 == 0 && $3 == "BOOTED"' "$W/sorted" | wc -l)
# The most common scenario results are the reference; any other is a flip.
ref=$(cut -d' ' -f6- "$W/sorted" | sort | uniq -c | sort -rn | head -n 1 | sed 's/^ *[0-9]* //')
same=$(cut -d' ' -f6- "$W/sorted" | grep -cxF -- "$ref")
echo
echo "stress: $booted of $N boots BOOTED (exit 0), in ${secs}s, $JOBS at a time"
awk '{ print $4 }' "$W/sorted" | sort -n | awk '{ a[NR] = $1 } END {
	if (NR) printf "stress: boot time min %.1fs, median %.1fs, max %.1fs\n", a[1], a[int((NR + 1) / 2)], a[NR] }'
echo "stress: scenario results the same in $same of $N: $ref"
rc=0
awk '!($2 == 0 && $3 == "BOOTED")' "$W/sorted" | while read -r i code v _; do
	echo "FAIL: boot $i: exit $code, $v: $(head -n 1 "$W/$i.out")"
	grep -E 'error|warning' "$W/$i.err" | head -n 3 | sed 's/^/    /'
done
[ "$booted" = "$N" ] || rc=1
# Flips, per scenario: which boots had another result than the reference.
for kv in $ref; do
	s=${kv%%=*}
	awk -v s="$s" -v want="$kv" '{ for (i = 6; i <= NF; i++) {
		split($i, p, "="); if (p[1] == s && $i != want) printf "%d:%s ", $1, p[2] } }' "$W/sorted" >"$W/flip"
	[ -s "$W/flip" ] && { echo "FLIP: $s is ${kv#*=} in most boots, not in: $(cat "$W/flip")"; rc=1; }
done
[ "$same" = "$N" ] || rc=1
if [ $rc = 0 ]; then
	echo "stress: PASS"
	[ -n "${BP_STRESS_RESULTS:-}" ] || rm -rf "$W"
else
	echo "stress: FAIL (logs in $W)"
fi
exit $rc
