#!/bin/sh
# libvirtd really stopped (docs/reliability.md), then started again for the
# tests that follow:
#  - stopped (SIGTERM) before a boot: INFRA, exit 3, the message names
#    libvirt, run.json complete;
#  - killed (SIGKILL, a crash) after KERNEL_BANNER: INFRA, exit 3, the
#    message names libvirtd; the guest's QEMU, which no libvirtd will
#    destroy any more, does not outlive bootproof (bootproof kills it), and
#    the restarted libvirtd does not adopt it; console log and run.json
#    kept;
#  - stopped (SIGTERM) after KERNEL_BANNER: the same;
#  - bootproof itself stopped (SIGSTOP) while it starts the guest, past
#    libvirtd's keepalive, then continued: INFRA, exit 3, its record
#    written (not killed by SIGPIPE), the guest gone.
# libvirt unreachable through a bogus socket is in boot-libvirt.sh.
#
# It stops the system's libvirtd: on a machine where other guests run
# (a shared development host) it waits for them to finish, and skips when
# they do not (BP_FAULTS_IDLE_WAIT seconds, default 900).  CI runs the
# tests one after the other, so nothing else is running there.
set -u
. "$(dirname "$0")/faults-lib.inc"
need_root
need_kernel
need_libvirt
command -v libvirtd >/dev/null || skip "no libvirtd binary"
T=$(mktemp -d)
chmod 755 "$T"
idle_wait=${BP_FAULTS_IDLE_WAIT:-900}

libvirtd_pid() {
	p=$(cat /run/libvirtd.pid 2>/dev/null)
	[ -n "$p" ] && kill -0 "$p" 2>/dev/null && { echo "$p"; return; }
	pgrep -x libvirtd | head -n 1
}

# stop_libvirtd SIGNAL: and wait until it is gone.
stop_libvirtd() {
	p=$(libvirtd_pid)
	[ -n "$p" ] || return 0
	kill -"$1" "$p"
	i=0
	while kill -0 "$p" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$p" 2>/dev/null
}

# start_libvirtd: as make setup does, when it does not answer.
start_libvirtd() {
	sh "$(dirname "$0")/../../harness/libvirtd-start.sh" >/dev/null
}

cleanup() {
	start_libvirtd || echo "FAIL: could not start libvirtd again"
	rm -rf "$T"
}
trap cleanup EXIT

# idle [NAME]: no guest but NAME runs on libvirtd (waits for one).
idle() {
	i=0
	while [ -n "$(foreign_guests "${1:-}")" ]; do
		[ $i -ge "$idle_wait" ] && return 1
		[ $i = 0 ] && echo "waiting for other guests to end: $(foreign_guests "${1:-}" | tr '\n' ' ')"
		sleep 5
		i=$((i + 5))
	done
}

check_record() { # WHAT DIR
	json_ok "$2/run.json" || { no "$1: run.json is not valid JSON"; return; }
	[ "$(jget "$2/run.json" '{complete}')" = true ] || no "$1: run.json not complete"
	[ "$(jget "$2/run.json" '{exit_code}')" = 3 ] || no "$1: run.json exit_code"
	[ "$(jget "$2/run.json" '{boots}[0]{verdict}')" = INFRA ] || no "$1: run.json verdict"
}

# 1. Stopped before the boot.
idle || skip_host "other guests run on libvirtd; not stopping it"
stop_libvirtd TERM || no "libvirtd did not stop"
"$BP" boot --kernel "$K" --accel tcg --scenarios boot --results "$T/before" >"$T/out" 2>"$T/err"
rc=$?
start_libvirtd || { no "libvirtd did not start again"; exit 1; }
cat "$T/out" "$T/err"
[ $rc = 3 ] || no "stopped before: exit $rc, want 3"
grep -q "error: infrastructure: cannot connect to libvirt at $URI" "$T/err" ||
	no "stopped before: the message does not name libvirt"
grep -q '^verdict: INFRA' "$T/out" || no "stopped before: $(head -n 1 "$T/out")"
check_record "stopped before" "$(run_dir "$T/out")"
ok "libvirtd stopped before a boot"

# answers_still: the libvirtd started last still answers 2 s later.  Seen
# once in CI: the libvirtd restarted after the SIGKILL round cleaned up
# the dead guest, answered, and was gone a second later, without a word in
# its log; the next round then measured nothing of bootproof.  The round
# needs a running libvirtd: it is started again, and the note says so.
answers_still() {
	sleep 2
	virsh -c $URI version >/dev/null 2>&1 && return 0
	echo "NOTE: libvirtd, started again, was gone 2 s later: starting it once more"
	start_libvirtd
}

# 2, 3. Killed or stopped during the boot, once the kernel runs.
during() { # SIGNAL
	sig=$1
	attempt=0
	answers_still || { no "$sig: libvirtd does not stay up"; return; }
	while :; do
		attempt=$((attempt + 1))
		idle || skip_host "other guests run on libvirtd; not stopping it"
		rm -rf "$T/during"
		# Emptied here, not by the background job's redirection: that
		# may come after wait_for has read the last round's lines.
		: >"$T/out"
		: >"$T/err"
		"$BP" boot --kernel "$K" --accel tcg --scenarios boot --results "$T/during" \
			>"$T/out" 2>"$T/err" &
		bp=$!
		wait_for "$T/err" 'KERNEL_BANNER|verdict' 300
		name=$(guest_name "$T/err")
		# Someone else's guest came meanwhile: do not break it, retry.
		if [ -n "$(foreign_guests "$name")" ] && [ $attempt -lt 3 ]; then
			kill -INT $bp
			wait $bp
			continue
		fi
		# The restarted libvirtd was gone before the boot began (the
		# round's precondition, not what it tests): once more.
		if grep -q 'cannot connect to libvirt' "$T/err" && [ $attempt -lt 3 ]; then
			wait $bp
			echo "NOTE: $sig: libvirtd gone before the boot ($(grep -o 'Failed to connect[^(]*' "$T/err" | head -n 1)); starting it again"
			start_libvirtd
			sleep 2
			continue
		fi
		break
	done
	qpid=$(qemu_of "$name")
	grep -q KERNEL_BANNER "$T/err" || no "$sig: no KERNEL_BANNER: $(tail -n 3 "$T/err")"
	[ -n "$qpid" ] || no "$sig: no QEMU for $name"
	stop_libvirtd "$sig" || no "$sig: libvirtd did not stop"
	wait_pid $bp 60 || { kill -INT $bp; no "$sig: bootproof did not end without libvirtd"; }
	# bootproof has ended: its QEMU must have too, libvirtd or not.
	[ -n "$qpid" ] && running "$qpid" && no "$sig: QEMU $qpid of $name outlived bootproof"
	start_libvirtd || { no "libvirtd did not start again"; exit 1; }
	cat "$T/out"
	tail -n 3 "$T/err"
	[ $rc = 3 ] || no "$sig: exit $rc, want 3"
	grep -q "error: infrastructure: libvirtd closed the connection" "$T/err" ||
		no "$sig: the message does not name libvirtd"
	grep -q '^verdict: INFRA' "$T/out" || no "$sig: $(head -n 1 "$T/out")"
	d=$(run_dir "$T/out")
	check_record "$sig" "$d"
	grep -q 'Linux version' "$d/console.log" 2>/dev/null || no "$sig: console log lost"
	[ "$(jget "$d/run.json" '{boots}[0]{milestones}[0]{name}')" = KERNEL_BANNER ] ||
		no "$sig: milestones lost"
	# The restarted libvirtd does not find the guest running.
	gone "$name" 30 || no "$sig: domain $name still there after libvirtd restarted: $(virsh -c $URI list --all)"
	ok "libvirtd $sig during a boot"
}
during KILL
during TERM

# 4. bootproof itself stopped (SIGSTOP) while it starts the guest, longer
# than libvirtd's keepalive (5 s x 5 by default): libvirtd drops the
# connection.  Continued, bootproof's next libvirt call writes to the
# closed socket: it must end with its record (an EPIPE it handles), not
# die of SIGPIPE without a word or a record (exit 141), as it did before
# main ignored SIGPIPE (every time the stop landed inside the guest's
# start: 5 of 5 tries).  Where the stop lands is a race: the guest may
# also have booted to its end meanwhile (its events were buffered:
# BOOTED, exit 0), or been ended by libvirtd's AUTODESTROY (INFRA, exit 3,
# the guest gone).
answers_still || no "stopped bootproof: libvirtd does not stay up"
idle || skip_host "other guests run on libvirtd; not stopping bootproof"
rm -rf "$T/stopped"
: >"$T/out"
: >"$T/err"
"$BP" boot --kernel "$K" --accel tcg --scenarios boot --results "$T/stopped" \
	>"$T/out" 2>"$T/err" &
bp=$!
wait_for "$T/err" 'starting x86_64 guest|verdict' 60
kill -STOP $bp
name=$(guest_name "$T/err")
sleep 40
kill -CONT $bp
wait_pid $bp 60 || { kill -INT $bp; no "stopped bootproof: it did not end"; }
cat "$T/out"
tail -n 3 "$T/err"
d=$(run_dir "$T/out")
case $rc in
3)
	grep -q '^verdict: INFRA' "$T/out" || no "stopped bootproof: $(head -n 1 "$T/out")"
	if [ -n "$d" ]; then check_record "stopped bootproof" "$d"; else no "stopped bootproof: no run directory"; fi
	;;
0)
	grep -q '^verdict: BOOTED' "$T/out" || no "stopped bootproof: exit 0 but $(head -n 1 "$T/out")"
	json_ok "$d/run.json" && [ "$(jget "$d/run.json" '{complete}')" = true ] ||
		no "stopped bootproof: exit 0 without a complete run.json"
	;;
*) no "stopped bootproof: exit $rc, want 3 or 0 (141: killed by SIGPIPE; no run directory: ${d:-none})" ;;
esac
[ -z "$name" ] || gone "$name" 30 || no "stopped bootproof: domain $name still there"
ok "bootproof stopped past libvirtd's keepalive while starting its guest"

virsh -c $URI list --all >/dev/null || no "libvirtd does not answer at the end"
exit $fail
