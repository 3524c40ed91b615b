#!/bin/sh
# How long `harness/setup.sh run`'s apt takes on a fresh machine, simulated
# in a chroot (docs/run.md, Measured times).  As root:
#
#   sh tests/bench/apt-fresh.sh FRESH_LIST DIR
#
# FRESH_LIST: the packages of a fresh machine, one "apt NAME VERSION" line
# each (the workplace's env package list, installed-cpp.txt); DIR: a new
# directory for the chroot (a few GB).  Makes a minbase Debian 12 chroot,
# installs the list's packages that the archive has (not timed), then
# times what setup.sh run does: apt-get update and apt-get install of its
# PKGS_RUN that are missing, with INITRD=No when nothing boots from /boot.
# Prints the seconds, how many packages and how much was downloaded.
set -eu
list=$1
R=$2/root
top=$(cd "$(dirname "$0")/../.." && pwd)
[ ! -e "$R" ] || { echo "apt-fresh: $R exists" >&2; exit 2; }
mkdir -p "$R"
debootstrap --variant=minbase bookworm "$R" http://deb.debian.org/debian >"$2/debootstrap.log" 2>&1
cp /etc/apt/sources.list.d/debian.sources "$R/etc/apt/sources.list.d/" 2>/dev/null || true
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod +x "$R/usr/sbin/policy-rc.d"
mount -t proc proc "$R/proc"
mount --bind /dev "$R/dev"
trap 'umount "$R/proc" "$R/dev" 2>/dev/null || true' EXIT
chroot "$R" apt-get update -q >"$2/update.log" 2>&1
avail=$(awk '$1 == "apt" { print $2 }' "$list" |
	chroot "$R" sh -c 'while read -r p; do apt-cache show --no-all-versions "$p" >/dev/null 2>&1 && echo "$p"; done')
echo "apt-fresh: the fresh machine: $(echo "$avail" | wc -l) packages"
# shellcheck disable=SC2086
chroot "$R" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	--no-install-recommends $avail >"$2/fresh.log" 2>&1
chroot "$R" apt-get clean
pkgs=$(sed -n '/^PKGS_RUN="/,/^"/p' "$top/harness/setup.sh" | grep -v '"' | tr '\n' ' ')
missing=$(chroot "$R" sh -c 'for p in '"$pkgs"'; do s=$(dpkg-query -W -f="\${db:Status-Status}" "$p" 2>/dev/null); [ "$s" = installed ] || echo "$p"; done' | tr '\n' ' ')
echo "apt-fresh: setup.sh run would install: $missing"
t=$(date +%s)
chroot "$R" sh -c 'export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null 2>&1
	ls /boot/vmlinuz-* >/dev/null 2>&1 || export INITRD=No
	apt-get install -y -q --no-install-recommends '"$missing" >"$2/run.log" 2>&1
echo "apt-fresh: $(( $(date +%s) - t )) s; $(grep -E 'newly installed' "$2/run.log"); $(grep -E '^Need to get' "$2/run.log")"
