#!/bin/sh
# Record the golden data of tests/unit/test-refresh.c under
# tests/data/refresh/ from a real kernel tree (see README.md).  Usage, from
# the repository root, after `make`:
#	sh tests/data/refresh/record.sh KSRC WORKDIR
# KSRC: a clean kernel tree (Linux 6.12.118 for the committed files);
# WORKDIR: scratch space (the patched defconfigs, the O= directories; kept).
set -eu
ksrc=$(realpath "$1")
work=$(realpath -m "$2")
here=$(dirname "$0")
seeds=${BP_SEEDS:-/work/shared/seeds}
bp=./bootproof
mkdir -p "$work"

# The refresh patches applied to copies of the tree's own defconfigs.  The
# patches name the blobs they were made against (index 61e25f6209ed..,
# 91801138b10b..); 6.12.118's files are those blobs, so they apply exactly
# (no fuzz), which git apply checks.
rm -rf "$work/tree"
mkdir -p "$work/tree/arch/x86/configs"
cp "$ksrc/arch/x86/configs/x86_64_defconfig" "$ksrc/arch/x86/configs/i386_defconfig" \
	"$work/tree/arch/x86/configs/"
(cd "$work/tree" && git apply \
	"$seeds/002-patch-x86-kconfig-64-refresh-defconfig.patch" \
	"$seeds/003-patch-x86-kconfig-32-refresh-defconfig.patch")

# The helper, compiled as bootproof compiles it (engine/configstage.c).
helper() { # odir -> prints the helper's path
	o=$1
	objs=$(ls "$o"/scripts/kconfig/*.o | grep -Ev '/(conf|mconf|nconf|nconf\.gui|mnconf-common|gconf|qconf|qconf-moc|images)\.o$')
	cc -O1 -I"$ksrc/scripts/kconfig" -I"$ksrc/scripts/include" \
		-o "$o/bp-kconfig-explain" harness/kconfig-explain/kconfig-explain.c $objs
	echo "$o/bp-kconfig-explain"
}

# The helper on queries (stdin) in the environment Kconfig saw (the
# variables include/config/auto.conf.cmd records), as bootproof runs it.
explain() { # odir
	o=$1
	h=$(helper "$o")
	sed -n 's/^ifneq "$(\([A-Za-z0-9_]*\))" "\(.*\)"$/\1=\2/p' \
		"$o/include/config/auto.conf.cmd" >"$o/helper.env"
	env -i PATH="$PATH" LC_ALL=C srctree="$ksrc" sh -c '
		while IFS= read -r kv; do export "$kv"; done <"$1/helper.env"
		cd "$1" && exec "$2" "$srctree/Kconfig" .config' sh "$o" "$h"
}

# symbols FILE...: the CONFIG_ names of the lines of .config files
symbols() {
	sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p' "$@"
}

# (Shell functions share variables: case_ keeps its directory in cdir.)
# One case: bootproof's own audit (its JSON kept in WORKDIR), the two
# final .configs, and the helper's "why" answers against each for every
# symbol of either defconfig and every line that differs between the two
# .configs (a superset of what bootproof asks; the test looks names up).
case_() { # name arch old new
	n=$1 a=$2 old=$3 new=$4
	$bp config --arch "$a" --base "$old" --refresh "$new" --ksrc "$ksrc" \
		--odir "$work/$n" --json >"$work/$n.json" || [ $? -eq 1 ]
	cdir=$work/$n
	cp "$cdir/old/.config" "$here/$n.old.config"
	cp "$cdir/new/.config" "$here/$n.new.config"
	{
		symbols "$ksrc/arch/x86/configs/$old" "$new"
		diff "$cdir/old/.config" "$cdir/new/.config" | sed -n 's/^[<>] //p' >"$cdir/lines.diff" || true
		symbols "$cdir/lines.diff"
	} | awk '!seen[$0]++ { printf "why\t%s\n", $0 }' >"$here/$n.queries"
	explain "$cdir/old" <"$here/$n.queries" >"$here/$n.why-old.out"
	explain "$cdir/new" <"$here/$n.queries" >"$here/$n.why-new.out"
}

cp "$ksrc/arch/x86/configs/x86_64_defconfig" "$here/x86_64.old_defconfig"
cp "$ksrc/arch/x86/configs/i386_defconfig" "$here/i386.old_defconfig"
cp "$work/tree/arch/x86/configs/x86_64_defconfig" "$here/x86_64-002.new_defconfig"
cp "$work/tree/arch/x86/configs/i386_defconfig" "$here/i386-003.new_defconfig"
case_ x86_64-002 x86_64 x86_64_defconfig "$here/x86_64-002.new_defconfig"
case_ i386-003 i386 i386_defconfig "$here/i386-003.new_defconfig"

# A true no-op: the kernel's own savedefconfig of the old result.  Its
# final .config and answers equal the old side's: kept once (cmp checks).
make -s -C "$ksrc" O="$work/x86_64-002/old" ARCH=x86_64 savedefconfig
cp "$work/x86_64-002/old/defconfig" "$here/x86_64-save.new_defconfig"
case_ x86_64-save x86_64 x86_64_defconfig "$here/x86_64-save.new_defconfig"
cmp "$here/x86_64-save.old.config" "$here/x86_64-002.old.config"
cmp "$here/x86_64-save.new.config" "$here/x86_64-002.old.config"
cmp "$here/x86_64-save.why-old.out" "$here/x86_64-save.why-new.out"
rm "$here/x86_64-save.old.config" "$here/x86_64-save.new.config" \
	"$here/x86_64-save.why-new.out"
mv "$here/x86_64-save.why-old.out" "$here/x86_64-save.why.out"
echo "recorded into $here"
