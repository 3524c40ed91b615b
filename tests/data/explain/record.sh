#!/bin/sh
# Record the golden bp-kconfig-explain output under tests/data/explain/ from
# a real kernel tree (see README.md).  Usage, from the repository root:
#	sh tests/data/explain/record.sh KSRC WORKDIR
# KSRC: a clean kernel tree (Linux 6.12.118 for the committed files);
# WORKDIR: scratch space for the O= directories (kept, reused).
set -eu
ksrc=$(realpath "$1")
work=$(realpath -m "$2")
here=$(dirname "$0")
bp=./bootproof
mkdir -p "$work"

# One O= directory per case, configured by bootproof config itself (its
# exit status 1 only says that something was dropped).
config() { # odir arch base fragment...
	o=$1 a=$2 b=$3
	shift 3
	set -- $(for f in "$@"; do printf ' --group %s' "$f"; done)
	$bp config --arch "$a" --base "$b" --ksrc "$ksrc" --odir "$o" "$@" \
		>/dev/null || [ $? -eq 1 ]
}

# The helper, compiled as bootproof compiles it (engine/configstage.c).
helper() { # odir -> prints the helper's path
	o=$1
	objs=$(ls "$o"/scripts/kconfig/*.o | grep -Ev '/(conf|mconf|nconf|nconf\.gui|mnconf-common|gconf|qconf|qconf-moc|images)\.o$')
	cc -O1 -I"$ksrc/scripts/kconfig" -I"$ksrc/scripts/include" \
		-o "$o/bp-kconfig-explain" harness/kconfig-explain/kconfig-explain.c $objs
	echo "$o/bp-kconfig-explain"
}

# Run the helper on queries (stdin) in the environment Kconfig saw (the
# variables include/config/auto.conf.cmd records), as bootproof does.
explain() { # odir
	o=$1
	h=$(helper "$o")
	sed -n 's/^ifneq "$(\([A-Za-z0-9_]*\))" "\(.*\)"$/\1=\2/p' \
		"$o/include/config/auto.conf.cmd" >"$o/helper.env"
	env -i PATH="$PATH" LC_ALL=C srctree="$ksrc" sh -c '
		while IFS= read -r kv; do export "$kv"; done <"$1/helper.env"
		cd "$1" && exec "$2" "$srctree/Kconfig" .config' sh "$o" "$h"
}

printf 'CONFIG_KVM_INTEL=y\n# CONFIG_KVM is not set\n' >"$work/kvm-off.config"
printf 'CONFIG_KVM=m\nCONFIG_KVM_INTEL=y\n' >"$work/kvm-m.config"

config "$work/x86_64-kvm-off" x86_64 x86_64_defconfig "$work/kvm-off.config"
explain "$work/x86_64-kvm-off" <"$here/x86_64-kvm-off.queries" >"$here/x86_64-kvm-off.out"

config "$work/x86_64-kvm-m" x86_64 x86_64_defconfig "$work/kvm-m.config"
explain "$work/x86_64-kvm-m" <"$here/x86_64-kvm-m.queries" >"$here/x86_64-kvm-m.out"

config "$work/i386-tiny" i386 tinyconfig+kvm_guest.config
explain "$work/i386-tiny" <"$here/i386-tiny.queries" >"$here/i386-tiny.out"
# The environment records of an auto.conf.cmd (its ifneq blocks; the rest is
# the list of Kconfig files), for the explain_parse_env() test.
sed -n '/^ifneq/,$p' "$work/x86_64-kvm-m/include/config/auto.conf.cmd" \
	>"$here/x86_64.auto.conf.cmd.env"
echo "recorded into $here"
