#!/bin/sh
# The agent's scenario runner, run by hand on the host (not as PID 1): a
# check that exceeds bootproof.timeout is reported TIMEOUT, one that
# crashes is reported ERROR with its signal, the unrun checks still get a
# result line, an unknown name fails, scenarios that would change the
# machine refuse to run outside a guest, the exit status says whether
# anything failed, and "hang" never finishes.  The same for the i386
# binary under qemu-i386-static when it is installed.
set -u
here=$(dirname "$0")
. "$here/agent-lib.inc"

build=${BP_BUILD:-build}
need timeout
rc=0
bad() { echo "FAIL: $*"; rc=1; }
has() { # FILE LINE
	grep -qxF -- "$2" "$1" || bad "missing line: '$2'"
}

work=$(mktemp -d "${TMPDIR:-/var/tmp}/bp-agent-host.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

runner_checks() { # ARCH RUNNER...
	arch=$1
	shift
	out=$work/$arch.txt
	"$@" --cmdline 'quiet bootproof.scenarios=timeout,segv,nosuch,cgroups bootproof.timeout=3 bootproof.bogus=1' \
		>"$out" 2>"$work/$arch.err"
	st=$?
	cat "$out"
	[ $st -eq 1 ] || bad "$arch: exit $st, expected 1"
	has "$out" 'KTAP version 1'
	has "$out" '1..4'
	has "$out" '# bootproof-agent: unknown parameter bootproof.bogus ignored'
	has "$out" '    # Subtest: timeout'
	has "$out" '    1..3'
	has "$out" '    ok 1 before'
	has "$out" '    not ok 2 sleep # TIMEOUT 3 s'
	has "$out" '    ok 3 after # SKIP not run: scenario ended early'
	has "$out" 'not ok 1 timeout # TIMEOUT 3 s'
	has "$out" '    not ok 2 null_deref # ERROR killed by SIGSEGV'
	has "$out" 'not ok 2 segv # ERROR killed by SIGSEGV'
	has "$out" 'not ok 3 nosuch # ERROR unknown scenario'
	grep -q '^ok 4 cgroups # SKIP not PID 1' "$out" ||
		bad "$arch: cgroups ran outside a guest"
	has "$out" '# bootproof-agent: 0 passed, 3 failed, 1 skipped'
	has "$out" '# bootproof-agent: done'
	# Every line is KTAP-shaped: no stray output from the children.
	bad_lines=$(grep -vE '^(KTAP version 1|1\.\.[0-9]+|(    )?(ok|not ok) [0-9]+ .*|(    )?# .*|    KTAP version 1|    1\.\.[0-9]+)$' "$out")
	[ -z "$bad_lines" ] || bad "$arch: lines that are not KTAP: $bad_lines"

	# hang: no time limit at all, whatever bootproof.timeout says.
	timeout 8 "$@" --cmdline 'bootproof.scenarios=hang bootproof.timeout=2' \
		>"$work/$arch-hang.txt" 2>&1
	st=$?
	[ $st -eq 124 ] || bad "$arch: hang ended by itself (exit $st)"
	has "$work/$arch-hang.txt" '    # hang: the agent stops here on purpose, without a time limit'
	grep -q 'done' "$work/$arch-hang.txt" && bad "$arch: hang finished"
}

a64=$build/guest/x86_64/bootproof-agent
[ -x "$a64" ] || skip "no agent binary $a64 (make guest)"
runner_checks x86_64 "$a64"

a32=$build/guest/i386/bootproof-agent
if command -v qemu-i386-static >/dev/null 2>&1 && [ -x "$a32" ]; then
	runner_checks i386 qemu-i386-static "$a32"
else
	echo "i386: qemu-i386-static or $a32 missing: not run"
fi
[ $rc -eq 0 ] && echo "agent-host: all checks as expected"
exit $rc
