#!/bin/sh
# bootproof triage on the real golden logs (tests/data/console/, recorded by
# tests/data/console/record.sh): verdict, problem kinds and exit code of
# each, plus bad input (empty, binary, not a console log, missing file)
# and a log cut off mid-boot.
set -u
BP=${BOOTPROOF:-./bootproof}
D=tests/data/console
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# Detection, measured over every golden log: reports found with the right
# kind (position by position), and logs without a report that stay clean.
n_want=0 n_found=0 n_clean=0 n_clean_ok=0
tally() {
	if [ -z "$1" ]; then
		n_clean=$((n_clean + 1))
		[ -z "$2" ] && n_clean_ok=$((n_clean_ok + 1))
		return
	fi
	# shellcheck disable=SC2086
	set -- "$2" $1
	got=$1
	shift
	for w in "$@"; do
		n_want=$((n_want + 1))
		g=${got%% *}
		[ "$g" = "$w" ] && n_found=$((n_found + 1))
		case $got in *" "*) got=${got#* } ;; *) got= ;; esac
	done
}

# log | exit | verdict | problem kinds in order (space separated)
expect() {
	log=$1 want_rc=$2 want_v=$3 want_kinds=$4
	[ -f "$D/$log" ] || { echo "missing golden log $log (skipped)"; return; }
	out=$("$BP" triage --json "$D/$log" 2>"$T/err"); rc=$?
	[ "$rc" = "$want_rc" ] || no "$log: exit $rc, want $want_rc ($(cat "$T/err"))"
	v=$(printf '%s' "$out" | sed -n 's/^ *"verdict":"\([A-Z]*\)".*/\1/p' | head -n 1)
	[ "$v" = "$want_v" ] || no "$log: verdict '$v', want '$want_v'"
	kinds=$(printf '%s' "$out" | sed -n 's/^ *"kind":"\([A-Z_]*\)".*/\1/p' | tr '\n' ' ' | sed 's/ $//')
	[ "$kinds" = "$want_kinds" ] || no "$log: problems '$kinds', want '$want_kinds'"
	tally "$want_kinds" "$kinds"
	# Every problem has a short title, without numbers (stable across
	# boots: no PIDs, CPUs, addresses).
	printf '%s' "$out" | sed -n 's/^ *"title":"\(.*\)",$/\1/p' >"$T/titles"
	[ "$(wc -l <"$T/titles")" -eq "$(printf '%s' "$kinds" | wc -w)" ] ||
		no "$log: $(wc -l <"$T/titles") titles for problems '$kinds'"
	if grep -E '0x[0-9a-f]+|(^|[^A-Za-z_0-9])[0-9]{3,}([^A-Za-z_0-9]|$)|^$' \
		"$T/titles" >"$T/bad"; then
		no "$log: titles with numbers or empty: $(cat "$T/bad")"
	fi
	# The text form says the same verdict.
	"$BP" triage "$D/$log" 2>/dev/null | head -n 1 | grep -q ": $want_v: " ||
		no "$log: text output does not start with the verdict $want_v"
	echo "ok $log: $v [$kinds] exit $rc"
}

expect debian61-boot.log 0 BOOTED ""
expect debian61-noroot-panic.log 1 PANIC "NO_ROOT_FS PANIC"
expect debian61-initramfs-noroot.log 1 CRASHED "NO_ROOT_FS"
if [ -f "$D/expected-verdicts.txt" ]; then
	# More logs as recorded: "log exit verdict kinds..." per line.
	while read -r log rc v kinds; do
		case $log in ''|'#'*) continue ;; esac
		expect "$log" "$rc" "$v" "$kinds"
	done <"$D/expected-verdicts.txt"
fi

echo "detection: $n_found/$n_want kernel reports found with the right kind;" \
	"$n_clean_ok/$n_clean logs without a report stay clean"

# The same problem in two separate boots has the same signature; different
# problems do not.
sig() { "$BP" triage --json "$D/$1" 2>/dev/null | sed -n 's/^ *"signature":"\([0-9a-f]*\)".*/\1/p' | head -n 1; }
if [ -f "$D/x86_64-lkdtm-warning-2.log" ] && [ -f "$D/x86_64-lkdtm-exception-2.log" ]; then
	w1=$(sig x86_64-lkdtm-warning-1.log) w2=$(sig x86_64-lkdtm-warning-2.log)
	e1=$(sig x86_64-lkdtm-exception-1.log) e2=$(sig x86_64-lkdtm-exception-2.log)
	[ -n "$w1" ] && [ "$w1" = "$w2" ] || no "WARNING signatures differ across boots: $w1 $w2"
	[ -n "$e1" ] && [ "$e1" = "$e2" ] || no "EXCEPTION signatures differ across boots: $e1 $e2"
	[ "$w1" != "$e1" ] || no "WARNING and EXCEPTION share a signature"
	echo "ok signatures stable across boots: $w1 $e1"
fi

# KTAP the kernel prints itself (in-kernel KUnit, with printk timestamps)
# is kernel output, not the agent's results: a boot does not count it, nor
# does triage (core/bootlog.h).
if [ -f "$D/x86_64-kunit.log" ]; then
	out=$("$BP" triage "$D/x86_64-kunit.log" 2>/dev/null)
	printf '%s\n' "$out" | grep -q 'KTAP_START (line 205' ||
		no "x86_64-kunit.log: no KTAP_START milestone"
	if printf '%s\n' "$out" | grep -q '^  ktap:'; then
		no "x86_64-kunit.log: the kernel's own KTAP counted as test results"
	fi
	echo "ok kernel KTAP not counted as results"
fi

# A log cut off mid-boot: HUNG with the last milestone.
head -c 20000 "$D/debian61-boot.log" >"$T/cut.log"
out=$("$BP" triage "$T/cut.log"); rc=$?
[ $rc = 1 ] || no "cut log: exit $rc, want 1"
printf '%s\n' "$out" | head -n 1 | grep -q 'HUNG: the log ends before the boot finished; last milestone: KERNEL_BANNER' ||
	no "cut log: $(printf '%s' "$out" | head -n 1)"

# Bad input: exit 2 and a message naming the file.
: >"$T/empty.log"
head -c 4096 /bin/sh >"$T/binary.log"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$T/passwd.log"
for f in empty binary passwd; do
	"$BP" triage "$T/$f.log" >/dev/null 2>"$T/err"; rc=$?
	[ $rc = 2 ] || no "$f: exit $rc, want 2"
	grep -q "$T/$f.log: " "$T/err" || no "$f: message does not name the file: $(cat "$T/err")"
done
"$BP" triage "$T/nonexistent.log" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q 'nonexistent.log: No such file' "$T/err" || no "missing file: exit $rc $(cat "$T/err")"
"$BP" triage >/dev/null 2>&1; [ $? = 2 ] || no "no argument must exit 2"
# A bad log among good ones still exits 2, after reporting the good one.
out=$("$BP" triage "$D/debian61-boot.log" "$T/empty.log" 2>/dev/null); rc=$?
[ $rc = 2 ] || no "mixed: exit $rc, want 2"
printf '%s' "$out" | grep -q 'debian61-boot.log: BOOTED' || no "mixed: good log not reported"

exit $fail
