#!/bin/sh
# bootproof run on bad input, before anything is configured or built (the
# cheap part of `make check` for the run verb; the real builds and boots
# are tests/matrix/, `make check-matrix`):
#  - a malformed plan exits 2 naming file:line
#  - an unknown group exits 2 naming it and the known ones
#  - a group file with a malformed line exits 2 naming file:line
#  - --resume of a directory that is not a run exits 2
#  - none of them leaves a run directory behind
set -u
BP=${BOOTPROOF:-./bootproof}
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }

# expect CODE REGEX ARGS...: bootproof run ARGS exits CODE, stderr matches
expect() {
	code=$1 re=$2
	shift 2
	"$BP" run "$@" --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" = "$code" ] || no "run $*: exit $rc, not $code"
	grep -q -- "$re" "$T/err" || { no "run $*: stderr lacks '$re'"; cat "$T/err"; }
}

printf 'arch x86_64\nbase tinyconfig\ncandidates each most\n' >"$T/bad.plan"
expect 2 "bad.plan:3: unknown candidates 'most'" "$T/bad.plan"

printf 'arch x86_64\nbase tinyconfig\nboots 0\n' >"$T/boots.plan"
expect 2 "boots.plan:3: boots: expected a count (1..20), got '0'" "$T/boots.plan"
expect 2 "boots" "$top/scenarios/plans/demo.plan" --boots 0

printf 'arch x86_64\nbase tinyconfig\narch i386\n' >"$T/twice.plan"
expect 2 "twice.plan:3: " "$T/twice.plan"

expect 2 "unknown group 'no-such-group'.*known: .*demo-bpf" \
	"$top/scenarios/plans/demo.plan" --group no-such-group

printf '# group: broken\n# scenarios: boot\nCONFIG_FOO=y\nthis is not an option\n' >"$T/broken.config"
expect 2 "broken.config:4" "$top/scenarios/plans/demo.plan" --group "$T/broken.config"

expect 2 "no-such.plan" "$T/no-such.plan"

mkdir -p "$T/notarun"
expect 2 "notarun" --resume "$T/notarun"

expect 2 "unknown candidates 'most'" "$top/scenarios/plans/demo.plan" --candidates most
expect 2 "an empty base" "$top/scenarios/plans/demo.plan" --base ''

# bootproof bisect: bad input is exit 2, before any run directory
"$BP" bisect "$T/notarun" --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "not a run directory" "$T/err" || no "bisect notarun: exit $rc: $(cat "$T/err")"
printf '{"command":"boot","boots":[]}\n' >"$T/notarun/run.json"
"$BP" bisect "$T/notarun" --results "$T/r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "not the record of a .bootproof run" "$T/err" || no "bisect boot run: exit $rc: $(cat "$T/err")"

[ ! -d "$T/r" ] || [ -z "$(ls "$T/r")" ] || no "bad input left a run directory: $(ls "$T/r")"

[ $fail = 0 ] && echo "run-input: all checks passed"
exit $fail
