#!/bin/sh
# Record the golden data of the ktap unit test (tests/unit/test-ktap.c).
#
#   tests/data/ktap/record.sh rst     the three examples of ktap.rst
#   tests/data/ktap/record.sh json    NAME.kunit.json for every NAME.log,
#                                     and kunit-x86_64-cut.kunit.json
#
# NAME.kunit.json is what the kernel's own KTAP parser (kunit.py parse
# --json) makes of NAME.log: the unit test compares our tree with it.
# SRC is the Linux 6.12 source tree, used read-only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-/var/tmp/bp-dev/linux-source-6.12}

# The Nth literal block of ktap.rst that starts with "KTAP version 1",
# without the leading tab.
rst_example() {
	awk -v want="$1" '
		/^\t/ { if (!inb && $0 == "\tKTAP version 1") nb++
			inb = 1
			if (nb == want) print substr($0, 2)
			next }
		{ inb = 0 }' "$SRC/Documentation/dev-tools/ktap.rst"
}

case ${1:-} in
rst)
	rst_example 1 >"$here/ktap-rst-nested.log"
	rst_example 2 >"$here/ktap-rst-multilevel.log"
	rst_example 3 >"$here/ktap-rst-example.log"
	;;
json)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# kunit-x86_64.log cut right after the first result line of its
	# second suite, as if the guest had died there (the unit test cuts
	# it the same way, so only the JSON is kept).
	awk '/# Subtest:/ { n++ } { print } n == 2 && /\]     ok 1 / { exit }' \
		"$here/kunit-x86_64.log" >"$tmp/kunit-x86_64-cut.log"
	for log in "$here"/*.log "$tmp/kunit-x86_64-cut.log"; do
		json=$here/$(basename "${log%.log}").kunit.json
		# kunit.py exits 1 when a test failed; that is not an error here.
		python3 "$SRC/tools/testing/kunit/kunit.py" parse \
			--json="$json" "$log" >/dev/null || true
		[ -s "$json" ] || { echo "no JSON for $log" >&2; exit 1; }
	done
	;;
*)
	echo "usage: $0 rst|json" >&2
	exit 2
	;;
esac
