#!/bin/sh
# Regenerate the seed corpora tests/fuzz/corpus/<target>/ (see README.md).
# Deterministic: the same inputs give the same files.  Run from anywhere:
#
#   tests/fuzz/seed.sh            # needs tests/data/, scenarios/groups/,
#                                 # /boot/vmlinuz-6.1.0-57-amd64,
#                                 # /lib/modules/6.1.0-57-amd64/ and the
#                                 # guest agents (make guest)
set -eu
cd "$(dirname "$0")/../.."
top=$(pwd)
C=tests/fuzz/corpus
O=${O:-build}
KREL=6.1.0-57-amd64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -rf "$C"
for t in console ktap kconfig groups explain gdbout bzimage virtcaps \
	modules elf plan builderr report; do
	mkdir -p "$C/$t"
done

# byte B (0..255) then FILE's bytes, into OUT
prefixed() {
	printf "\\$(printf %03o "$1")" >"$3"
	cat "$2" >>"$3"
}

# ---------------------------------------------------------------- console
# Real serial logs cut at line ends into pieces of at most 4 KiB, of which
# the first (firmware, banner) and the last two (init, the agent's KTAP,
# kernel problem reports, the end) are kept; byte 0 (the chunking) cycles
# through one chunk and the four chunk-size ranges.
i=0
for log in tests/data/console/*.log tests/data/boot/*.log; do
	b=$(basename "$log" .log)
	split -C 4096 -d -a 2 "$log" "$tmp/$b."
	n=$(ls "$tmp/$b".* | wc -l)
	k=0
	for p in "$tmp/$b".*; do
		k=$((k + 1))
		[ $k -eq 1 ] || [ $k -ge $((n - 1)) ] || continue
		prefixed $(((i * 53) % 256)) "$p" "$C/console/$b-${p##*.}"
		i=$((i + 1))
	done
done
# Excerpts of every report class (tests/data/console/excerpts/), whole.
for log in tests/data/console/excerpts/*.log; do
	prefixed $(((i * 53) % 256)) "$log" "$C/console/excerpt-$(basename "$log" .log)"
	i=$((i + 1))
done
# Hostile streams, written here: escape sequences of every kind, NUL bytes
# and invalid UTF-8, fake KTAP from printk lines, a kernel message cut into
# a user line, a report with no end, a plan that never completes.
h() { printf "$2" >"$tmp/h"; prefixed "$1" "$tmp/h" "$C/console/hostile-$3"; }
h 0 '\033c\033[2J\033[1;1H\033[0;37;40mSeaBIOS (version 1.16)\r\n\033]0;title\007\033P dcs \033\\\033_apc\033\\\033^pm\033\\\033X sos\033\\\033(B\033%%G\r\n\033[?25l\033[' escapes
h 1 'Linux version 6.12.0\000(x) #1\r\nbad \377\376 \300\257 \355\240\200 \364\220\200\200 \342\202 end\r\n\302\205\302\237\177\001tab\there\r\r\r\n' bytes
h 2 '[    0.000000] Linux version 6.12.118 (x) #1 SMP\r\n[    1.000000] KTAP version 1\r\n[    1.000001] 1..2\r\n[    1.000002] ok 1 boot\r\n[    1.000003] # bootproof-agent: done\r\n[    1.100000] reboot: Power down\r\n' fake-ktap
h 3 'KTAP version 1\r\n1..3\r\n    KTAP version 1\r\n    # Subtest: boot\r\n    1..8\r\n    ok 1 kernel\r\n    ok 2 c[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000\r\npus\r\n[    5.000001] #PF: supervisor read access in kernel mode\r\n[    5.000002] Call Trace:\r\n[    5.000003]  <TASK>\r\n[    5.000004]  ? die+0x30/0x80\r\n' split
h 85 '[    2.000000] ------------[ cut here ]------------\r\n[    2.000001] WARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x1/0x2\r\n[    2.000002] Modules linked in:\r\n[    2.000003] RIP: 0010:f+0x1/0x2\r\n[    2.000004] Call Trace:\r\n[    2.000005]  <IRQ>\r\n[    2.000006]  g+0x1/0x2 [mod]\r\n[    2.000007]  h.isra.0+0x3/0x4\r\n[    2.000008] Kernel panic - not syncing: Fatal exception in interrupt\r\n' report
h 170 '================================================================================\r\nUBSAN: shift-out-of-bounds in x.c:1:2\r\nshift exponent 64 is too large\r\nCPU: 0 PID: 1 Comm: init\r\nCall Trace:\r\n dump_stack+0x1/0x2\r\n================================================================================\r\nINFO: task kworker/0:1:12 blocked for more than 120 seconds.\r\nrcu: INFO: rcu_sched detected stalls on CPUs/tasks:\r\nwatchdog: BUG: soft lockup - CPU#0 stuck for 22s! [a:1]\r\n' kinds

# ---------------------------------------------------------------- ktap
# KTAP logs (byte 0: 0 defaults line by line, 1 tiny limits, 2 feed_text,
# 3 both), the agent's KTAP from a real run with its kernel lines.
for log in tests/data/ktap/*.log; do
	b=$(basename "$log" .log)
	for m in 0 1 2 3; do
		prefixed $m "$log" "$C/ktap/$b-$m"
	done
done
sed -n '/KTAP version 1/,$p' tests/data/boot/debian61-agent.log >"$tmp/agent"
split -C 8192 -d -a 2 "$tmp/agent" "$tmp/agent."
m=0
for p in "$tmp"/agent.*; do
	prefixed $m "$p" "$C/ktap/agent-${p##*.}"
	m=$(((m + 1) % 4))
done
printf 'TAP version 14\n1..4\nok 1 - a # SKIP why\nnot ok 2 b # TODO later\n  ---\n  message: x\n  ...\nok 3 c \\# not a directive # XFAIL\nBail out! stop\n' >"$tmp/t"
prefixed 0 "$tmp/t" "$C/ktap/tap14"
printf 'KTAP version 1\n1..2\n  KTAP version 1\n  1..1000000\n  ok 1 x\n  ok 99 y\n# never ends\n    KTAP version 1\n' >"$tmp/t"
prefixed 1 "$tmp/t" "$C/ktap/unfinished"

# ---------------------------------------------------------------- kconfig
# Fragments as they are; two fragments joined by a NUL (the second merged
# over the first); three 16 KiB pieces of a full .config.
for f in tests/data/kconfig/*.config tests/data/console/*.config \
	tests/data/kconfig/*_defconfig; do
	[ "$(wc -c <"$f")" -le 16384 ] || continue
	cp "$f" "$C/kconfig/$(basename "$f")"
done
{ cat tests/data/kconfig/x86_64_defconfig; printf '\000'
  cat tests/data/kconfig/kvm_guest.config; } >"$C/kconfig/pair-kvm"
{ cat tests/data/kconfig/i386_defconfig; printf '\000'
  cat tests/data/kconfig/bootproof-extra.config; } >"$C/kconfig/pair-extra"
split -C 16384 -d -a 2 tests/data/kconfig/merged.final.config "$tmp/final."
for n in 00 04 08; do
	cp "$tmp/final.$n" "$C/kconfig/final-$n"
done

# ---------------------------------------------------------------- groups
for f in scenarios/groups/*/*.config tests/data/groups/*/*.config \
	tests/data/kconfig/kvm_guest.config; do
	[ -f "$f" ] || continue
	d=$(basename "$(dirname "$f")")
	cp "$f" "$C/groups/$d-$(basename "$f" .config)"
done

# ---------------------------------------------------------------- explain
# The helper's recorded output, and the ifneq blocks of a 6.12 tree's
# include/config/auto.conf.cmd (what explain_parse_env reads).
for f in tests/data/explain/*.out; do
	cp "$f" "$C/explain/$(basename "$f")"
done
acmd=/var/tmp/bp-dev/kconfig-golden/include/config/auto.conf.cmd
if [ -f "$acmd" ]; then
	grep -A2 '^ifneq' "$acmd" | grep -v '^--$' | head -n 60 >"$C/explain/auto.conf.cmd"
fi

# ---------------------------------------------------------------- gdbout
# First line: the console's banner; then a gdb -batch session against
# kgdb in gdb 13's words (the shape gdbout.h describes).
banner='Linux version 6.12.118 (root@host) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC'
cat >"$C/gdbout/session" <<EOF
$banner
Remote debugging using 127.0.0.1:4242
kgdb_breakpoint () at kernel/debug/debug_core.c:1219
1219		wmb(); /* Sync point after breakpoint */
#0  kgdb_breakpoint () at kernel/debug/debug_core.c:1219
#1  0xffffffff8118a6d1 in sysrq_handle_dbg (key=<optimized out>) at kernel/debug/debug_core.c:1000
#2  0xffffffff8166c0e4 in __handle_sysrq (key=103, check_mask=false) at drivers/tty/sysrq.c:601
#3  0xffffffff8166c6a3 in write_sysrq_trigger (file=<optimized out>, buf=<optimized out>, count=2, ppos=<optimized out>) at drivers/tty/sysrq.c:1163
#4  0xffffffff81436d5e in proc_reg_write (file=<optimized out>, buf=<optimized out>, count=<optimized out>, ppos=<optimized out>) at fs/proc/inode.c:330
#5  0xffffffff813a1a58 in vfs_write (file=file@entry=0xffff888003a5e900, buf=buf@entry=0x7ffd4b9e0d10 <error: Cannot access memory at address 0x7ffd4b9e0d10>, count=count@entry=2, pos=pos@entry=0xffffc900001d7f08) at fs/read_write.c:681
#6  0xffffffff81ca5d2b in do_syscall_64 (regs=0xffffc900001d7f58, nr=<optimized out>) at arch/x86/entry/common.c:83
#7  0xffffffff81e0012b in entry_SYSCALL_64 () at arch/x86/entry/entry_64.S:130
#8  0x0000000000000000 in ?? ()
0xffffffff82000140 <linux_banner>:	"$banner\n"
Detaching from program: /var/cache/bootproof/runs/x/vmlinux, Remote target
[Inferior 1 (Remote target) detached]
EOF
printf '%s\n#0  0x0 in ?? ()\n0x1 <linux_banner>:\t"Linux version \\"q\\" \\\\ \\t x\\n"\nwarning: x\n' "$banner" >"$C/gdbout/escapes"
# A real session (tests/data/gdb/) after the banner its console printed.
if [ -f tests/data/gdb/kgdb-6.12-x86_64-nodebuginfo.txt ]; then
	{ grep -a -m 1 -o 'Linux version.*' tests/data/boot/k612-kgdb.log | tr -d '\r'
	  cat tests/data/gdb/kgdb-6.12-x86_64-nodebuginfo.txt; } >"$C/gdbout/kgdb-6.12"
fi

# ---------------------------------------------------------------- bzimage
# The setup header region (first 16 KiB) of the distro kernel; the same
# cut short; a file that is not a kernel.
if [ -f /boot/vmlinuz-$KREL ]; then
	head -c 16384 /boot/vmlinuz-$KREL >"$C/bzimage/vmlinuz-$KREL-head"
	head -c 600 /boot/vmlinuz-$KREL >"$C/bzimage/vmlinuz-$KREL-short"
fi
head -c 1024 tests/data/kconfig/x86_64_defconfig >"$C/bzimage/not-a-kernel"

# ---------------------------------------------------------------- virtcaps
m=0
for f in tests/data/virtcaps/*.xml; do
	for v in 0 1; do
		prefixed $v "$f" "$C/virtcaps/$(basename "$f" .xml)-$v"
	done
done

# ---------------------------------------------------------------- modules
# The distro kernel's modules.dep / .builtin / .softdep / .alias, cut to
# the lines about what the agent loads and their neighbours, NUL-joined.
M=/lib/modules/$KREL
if [ -f $M/modules.dep ]; then
	pat='virtio|pvpanic|failover|crc32c|crc16|ext4|jbd2|mbcache'
	{
		grep -E "$pat" $M/modules.dep | head -n 40
		printf '\000'
		grep -E "$pat|binfmt" $M/modules.builtin | head -n 20
		printf '\000'
		grep -E "$pat|^#" $M/modules.softdep | head -n 20
		printf '\000'
		grep -E "$pat" $M/modules.alias | head -n 40
	} >"$C/modules/debian-$KREL"
	grep -E "$pat" $M/modules.dep | head -n 40 >"$C/modules/dep-only"
fi

# ---------------------------------------------------------------- elf
# Heads (ELF and program headers) of the static agents and busybox; byte
# 0: 0 checked as x86_64, 1 as i386.
for a in x86_64 i386; do
	f=$O/guest/$a/bootproof-agent
	[ -f "$f" ] || continue
	head -c 4096 "$f" >"$tmp/elf"
	prefixed 0 "$tmp/elf" "$C/elf/agent-$a-as-x86_64"
	prefixed 1 "$tmp/elf" "$C/elf/agent-$a-as-i386"
done
if [ -f /bin/busybox ]; then
	head -c 4096 /bin/busybox >"$tmp/elf"
	prefixed 0 "$tmp/elf" "$C/elf/busybox"
fi
head -c 4096 /bin/true >"$tmp/elf"
prefixed 0 "$tmp/elf" "$C/elf/dynamic-true"

# ---------------------------------------------------------------- plan
for f in tests/data/plan/*.plan plans/*.plan; do
	[ -f "$f" ] || continue
	cp "$f" "$C/plan/$(basename "$(dirname "$f")")-$(basename "$f")"
done

# ---------------------------------------------------------------- builderr
# Real failed-build logs; the long kernel one as its first and last 8 KiB.
for f in tests/data/build/*.log; do
	b=$(basename "$f" .log)
	if [ "$(wc -c <"$f")" -le 16384 ]; then
		cp "$f" "$C/builderr/$b"
	else
		head -c 8192 "$f" >"$C/builderr/$b-head"
		tail -c 8192 "$f" >"$C/builderr/$b-tail"
	fi
done

# ---------------------------------------------------------------- report
# Recorded and synthetic run.json files; those with a console log get
# its last 8 KiB after a NUL (what the page shows the end of).
for d in tests/data/runs/*/; do
	[ -f "$d/run.json" ] || continue
	b=$(basename "$d")
	cp "$d/run.json" "$C/report/$b"
	if [ -f "$d/console.log" ]; then
		{ cat "$d/run.json"; printf '\000'; tail -c 8192 "$d/console.log"; } \
			>"$C/report/$b-log"
	fi
done

echo "seed: $(find $C -type f | wc -l) files, $(du -sk $C | cut -f1) KiB in $C"
