#!/bin/sh
# A distcc farm of two "hosts" on this machine, each a distccd in a
# network namespace of its own, and a client namespace wired to both:
#
#   <p>-c  10.253.1.1/24 --veth-- 10.253.1.2/24  <p>-1  distccd --jobs J
#          10.253.2.1/24 --veth-- 10.253.2.2/24  <p>-2  distccd --jobs J
#
# (<p> = bpdcc<pid>).  Nothing is added to the machine's own network: the
# addresses and routes exist only inside these namespaces, and each
# distccd listens on its namespace's address and allows only the client's.
#
# usage: netns-farm.sh DIR [--jobs J] CMD [ARG...]
#
# Sets the farm up, runs CMD in the client namespace with
#   DISTCC_FARM   "10.253.1.2/J 10.253.2.2/J" (for bootproof --distcc)
#   FARM_DIR      DIR: distccd-1.log, distccd-2.log (--log-level info:
#                 one line per compile), stats-1.txt and stats-2.txt (each
#                 distccd's own statistics, --stats, read after CMD)
# then tears everything down (the distccd it started, the namespaces and
# their veths), on every exit: CMD's end, an error, SIGINT, SIGTERM.
# Exit: CMD's, or 77 when namespaces cannot be made here (not root, no
# ip), 3 when the farm could not be set up.
set -u
[ $# -ge 2 ] || { echo "usage: netns-farm.sh DIR [--jobs J] CMD [ARG...]" >&2; exit 2; }
DIR=$1
shift
J=2
if [ "$1" = --jobs ]; then J=$2; shift 2; fi
P=bpdcc$$
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

[ "$(id -u)" = 0 ] || { echo "SKIP-HOST: network namespaces need root"; exit 77; }
command -v ip >/dev/null 2>&1 || { echo "SKIP: no ip (iproute2)"; exit 77; }
command -v distccd >/dev/null 2>&1 || { echo "SKIP: no distccd (make setup installs distcc)"; exit 77; }

down() {
	for n in 1 2; do
		pidf=$DIR/distccd-$n.pid
		if [ -s "$pidf" ]; then
			pid=$(cat "$pidf")
			# only the daemon we started: its pid file, in our namespace
			if [ -n "$pid" ] && ip netns identify "$pid" 2>/dev/null | grep -qx "$P-$n"; then
				kill "$pid" 2>/dev/null
				sleep 1
				kill -9 "$pid" 2>/dev/null
			fi
			rm -f "$pidf"
		fi
	done
	for ns in "$P-c" "$P-1" "$P-2"; do
		# any process still in it (a distccd child) goes with it
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
	done
}
trap 'down' EXIT
trap 'exit 130' INT TERM

up() {
	ip netns add "$P-c" || return 1
	ip netns exec "$P-c" ip link set lo up || return 1
	for n in 1 2; do
		ip netns add "$P-$n" || return 1
		ip netns exec "$P-$n" ip link set lo up || return 1
		# both ends made inside the client namespace, one moved out:
		# the root namespace never holds either
		ip netns exec "$P-c" ip link add "c$n" type veth peer name "s$n" || return 1
		ip netns exec "$P-c" ip link set "s$n" netns "$P-$n" || return 1
		ip netns exec "$P-c" ip addr add "10.253.$n.1/24" dev "c$n" || return 1
		ip netns exec "$P-c" ip link set "c$n" up || return 1
		ip netns exec "$P-$n" ip addr add "10.253.$n.2/24" dev "s$n" || return 1
		ip netns exec "$P-$n" ip link set "s$n" up || return 1
		# written by distccd after it became the distccd user
		: >"$DIR/distccd-$n.log"
		: >"$DIR/distccd-$n.pid"
		chmod 666 "$DIR/distccd-$n.log" "$DIR/distccd-$n.pid"
		# --nice 0: compiles at the caller's priority, as a local
		# build's (distccd's default adds 5)
		ip netns exec "$P-$n" distccd --daemon --user distccd --jobs "$J" --nice 0 \
			--listen "10.253.$n.2" --allow "10.253.$n.1" --stats \
			--log-level info --log-file "$DIR/distccd-$n.log" \
			--pid-file "$DIR/distccd-$n.pid" || return 1
	done
	# wait until both answer
	for i in $(seq 1 50); do
		ok=0
		for n in 1 2; do
			ip netns exec "$P-c" python3 - "10.253.$n.2" 2>/dev/null <<'PYEOF' && ok=$((ok + 1))
import socket, sys
socket.create_connection((sys.argv[1], 3632), timeout=1).close()
PYEOF
		done
		[ $ok = 2 ] && return 0
		sleep 0.2
	done
	return 1
}

stats() {
	for n in 1 2; do
		ip netns exec "$P-c" python3 - "10.253.$n.2" >"$DIR/stats-$n.txt" 2>&1 <<'PYEOF'
import sys, urllib.request
print(urllib.request.urlopen("http://%s:3633/" % sys.argv[1], timeout=5).read().decode())
PYEOF
	done
}

if ! up; then
	echo "netns-farm: could not set the farm up" >&2
	exit 3
fi
echo "netns-farm: distccd on 10.253.1.2 and 10.253.2.2 ($J jobs each), client namespace $P-c"
DISTCC_FARM="10.253.1.2/$J 10.253.2.2/$J" FARM_DIR=$DIR ip netns exec "$P-c" "$@"
rc=$?
stats
exit $rc
