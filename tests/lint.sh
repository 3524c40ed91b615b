#!/bin/sh
# Project rules a compiler does not check.  Exit 1 on any violation.
set -u
rc=0
bad() { echo "lint: $*"; rc=1; }

# Paths and options reach subprocesses as argv elements, never a shell.
hits=$(grep -nE '\b(system|popen|sprintf|vsprintf|strcpy|strcat|gets)[[:space:]]*\(' \
	harness/*.c harness/*/*.c 2>/dev/null | grep -v '^\S*:[0-9]*:\s*/\?\*')
[ -z "$hits" ] || bad "banned function:
$hits"

# The pure core does no I/O of its own kind: no libvirt, guestfs, processes.
hits=$(grep -nE '#include <(libvirt/|guestfs|spawn\.h|sys/wait\.h)|\b(fork|execv[pe]*|posix_spawn[p]?)[[:space:]]*\(' \
	harness/core/*.c harness/core/*.h 2>/dev/null)
[ -z "$hits" ] || bad "pure core reaches outside:
$hits"

# Only adapters include libvirt/guestfs headers.
hits=$(grep -lE '#include <(libvirt/|guestfs)' harness/*.c harness/verbs/*.c harness/util/*.c 2>/dev/null)
[ -z "$hits" ] || bad "libvirt/guestfs headers outside harness/adapters: $hits"

# Nothing built or recorded by a run is tracked.
if git rev-parse --git-dir >/dev/null 2>&1; then
	hits=$(git ls-files | grep -E '(^|/)(bzImage|vmlinux|vmlinuz[^/]*|[^/]*\.qcow2|[^/]*\.img)$')
	[ -z "$hits" ] || bad "build artifacts tracked: $hits"
	hits=$(git ls-files results | grep -vE '^results/(README\.md|\.gitignore)$')
	[ -z "$hits" ] || bad "run output tracked: $hits"
fi
[ $rc -eq 0 ] && echo "lint: ok"
exit $rc
