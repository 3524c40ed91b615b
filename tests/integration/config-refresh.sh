#!/bin/sh
# bootproof config --refresh: bad input exits 2 with a message naming the
# argument, the file:line or the option, before any Kconfig run (seconds).
# The real audit takes minutes (two .configs, docs/config.md), so it is not
# run here: docs/seed-series.md has the commands and what they gave, and
# tests/data/refresh/record.sh runs it on three cases.
# The tree: $BP_KSRC, else the default (Debian's linux-source tarball,
# unpacked once into the cache by bootproof itself), else skip.
set -u
BP=${BOOTPROOF:-./bootproof}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

[ -x "$BP" ] || { echo "no bootproof binary at $BP"; exit 1; }
if [ -n "${BP_KSRC:-}" ]; then
	KSRC_ARG="--ksrc $BP_KSRC"
elif [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	KSRC_ARG=
else
	echo "SKIP: no kernel tree: set BP_KSRC or install linux-source-6.12"
	exit 77
fi

# expect NAME MESSAGE-PART ARGS...: exit 2 and the message on stderr
expect() {
	name=$1 msg=$2
	shift 2
	# shellcheck disable=SC2086
	"$BP" config --arch x86_64 --odir "$T/odir" $KSRC_ARG "$@" \
		>"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	echo "$name: exit $rc: $(cat "$T/$name.err")"
	[ $rc -eq 2 ] || no "$name: exit $rc, expected 2"
	grep -qF -- "$msg" "$T/$name.err" || no "$name: no '$msg' in the message"
	[ -s "$T/$name.out" ] && no "$name: something on stdout"
}

printf 'CONFIG_A=y\nCONFIG_B=maybe\n' >"$T/bad_defconfig"
expect unknown "no arch/x86/configs/nosuch_defconfig" \
	--base x86_64_defconfig --refresh nosuch_defconfig
expect notdef "expected a defconfig of arch/x86/configs/" \
	--base x86_64_defconfig --refresh kvm_guest.config
expect malformed "$T/bad_defconfig:2: expected" \
	--base x86_64_defconfig --refresh "$T/bad_defconfig"
expect missing "$T/missing_defconfig: No such file" \
	--base x86_64_defconfig --refresh "$T/missing_defconfig"
expect oldbase "old defconfig 'tinyconfig'" \
	--base tinyconfig --refresh x86_64_defconfig
expect group "takes no --group" \
	--base x86_64_defconfig --refresh x86_64_defconfig --group bpf
exit $fail
