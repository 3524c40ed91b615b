#!/bin/sh
# Start virtlogd and libvirtd on a host where systemd does not (make setup,
# and tests that restart libvirtd).  Does nothing to a libvirtd that
# answers on qemu:///system.
#
# libvirt daemonizes every QEMU it starts, so an exited QEMU waits for PID 1
# to reap it, and libvirt's teardown of a guest that powered off waits with
# it (virProcessKillPainfully polls until the pid is gone).  An init that
# reaps orphans only now and then (measured here: 1 to 2 s late) adds that
# to every boot.  So, unless PID 1 is systemd, libvirtd runs under tini as
# a child subreaper (`tini -s`): the QEMUs become tini's orphans and are
# reaped at once.  Without tini: `libvirtd -d`, as before.
# Exit: 0 libvirtd answers, 3 it does not.
set -u
URI=qemu:///system

ok() { LC_ALL=C timeout 15 virsh -c $URI version >/dev/null 2>&1; }

ok && exit 0
mkdir -p /var/log/libvirt /var/run/libvirt
# A libvirtd that answers cannot start a guest without virtlogd ("Failed to
# connect socket to /run/libvirt/virtlogd-sock").
if command -v virtlogd >/dev/null 2>&1 && ! pgrep -x virtlogd >/dev/null; then
	(cd / && virtlogd -d) || true
fi
# One that is still shutting down holds the pid file.
p=$(cat /run/libvirtd.pid 2>/dev/null)
i=0
while [ -n "$p" ] && kill -0 "$p" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ] &&
	command -v tini >/dev/null 2>&1; then
	(cd / && setsid tini -s -- libvirtd </dev/null \
		>>/var/log/libvirt/libvirtd.stdout.log 2>&1 &)
	how="under tini -s"
else
	(cd / && libvirtd -d)
	how="-d"
fi
i=0
while [ $i -lt 60 ] && ! ok; do
	sleep 0.5
	i=$((i + 1))
done
if ! ok; then
	echo "libvirtd-start: libvirtd ($how) started but $URI does not answer" >&2
	exit 3
fi
echo "libvirtd-start: libvirtd started ($how)"
