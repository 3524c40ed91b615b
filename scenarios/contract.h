/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contract: what the host (harness/) and the in-guest agent (scenarios/)
 * must agree on, in the one header both compile: the scenario names, the
 * kernel command-line parameters the host writes and the agent parses,
 * and the lines the host watches for on the console and the channel.
 *
 * No includes and no code: the static guest build and the harness include
 * it as it is (the harness as "../scenarios/contract.h" through -Iharness).
 * tests/unit/test-cmdline.c feeds the command line the host builds to the
 * agent's parser.  docs/scenarios.md describes the contract in prose.
 */
#ifndef BP_CONTRACT_H
#define BP_CONTRACT_H

#include <stdint.h>

/* -------------------------------------------------------------- scenarios */

/*
 * The scenarios, in the agent's order, as X-macro lists: X(name) for each.
 * The agent defines `const struct scenario scenario_<name>` for every name
 * (SCENARIO_DEFINE in scenarios/agent.h); the host accepts the feature
 * scenarios in groups, plans and `boot --scenarios`, and the test-only
 * ones in `boot --scenarios` alone.
 */
#define BP_FEATURE_SCENARIOS(X) \
	X(boot) X(bpf) X(cgroups) X(userfaultfd) X(kgdb) X(mm)
/* Not part of "all": they exist to test the harness and the runner. */
#define BP_TEST_SCENARIOS(X) \
	X(crash) X(hang) X(timeout) X(segv)
#define BP_SCENARIOS(X) BP_FEATURE_SCENARIOS(X) BP_TEST_SCENARIOS(X)

/* For a NULL-terminated list of names: { BP_SCENARIOS(BP_SCENARIO_NAME)
 * NULL }. */
#define BP_SCENARIO_NAME(name) #name,

/* bootproof.scenarios=all: every feature scenario, in order. */
#define BP_SCENARIOS_ALL "all"

/* ---------------------------------------------------- kernel command line */

/*
 * Parameters, "name=value" words of the kernel command line (the agent
 * reads /proc/cmdline: the kernel does not pass dotted parameters to
 * init).  '-' and '_' are equal in names, as for the kernel; a value may
 * be double-quoted; a later word wins.
 */
#define BP_PARAM_PREFIX "bootproof."
/* a,b,c: scenario names (or BP_SCENARIOS_ALL), run in that order */
#define BP_PARAM_SCENARIOS BP_PARAM_PREFIX "scenarios"
/* S: the time limit of each scenario, 1..86400 seconds */
#define BP_PARAM_TIMEOUT BP_PARAM_PREFIX "timeout"
/* TTY: the tty kgdboc uses (BP_KGDB_TTY); absent: no host debugger */
#define BP_PARAM_KGDB BP_PARAM_PREFIX "kgdb"
/* S: how long the guest waits for the host debugger, 0..86400 */
#define BP_PARAM_KGDB_WAIT BP_PARAM_PREFIX "kgdb_wait"
/* N: the CPUs the guest was given, 1..8192 */
#define BP_PARAM_CPUS BP_PARAM_PREFIX "cpus"
/* M: the memory the guest was given, MiB */
#define BP_PARAM_MEM_MIB BP_PARAM_PREFIX "mem_mib"
/* 1/0 (y/n; the bare name is 1): a shell on the console at the end */
#define BP_PARAM_SHELL BP_PARAM_PREFIX "shell"

/* --------------------------------------------------------- the root image */

/* The root disk (virtio-blk) and the agent on it, the kernel's "root=" and
 * "init=". */
#define BP_ROOT_DEV "/dev/vda"
#define BP_AGENT_PATH "/bootproof/agent"

/*
 * bootproof's own initramfs (for a modular kernel: harness/engine/image.c
 * writes it, scenarios/initramfs.c runs it): the agent is its /init; it
 * loads the modules BP_INITRAMFS_MODULES lists (paths below
 * /lib/modules/<release>/, one a line), mounts "root=" read-write and
 * executes "init=" there.
 */
#define BP_INITRAMFS_INIT "/init"
#define BP_INITRAMFS_MODULES "/bootproof/initramfs.modules"
/* What it prints on the console, each line starting so. */
#define BP_INITRAMFS_NOTE "bootproof-initramfs: "

/* The guest's second serial port: the host serves it as kgdb's socket. */
#define BP_KGDB_TTY "ttyS1"

/* ------------------------------------------------- what the host watches */

/* Every note of the agent on the console starts so (top level KTAP
 * diagnostics). */
#define BP_AGENT_NOTE "# bootproof-agent: "
/* The note the agent prints last, before it powers off. */
#define BP_AGENT_DONE "done"
#define BP_AGENT_DONE_LINE BP_AGENT_NOTE BP_AGENT_DONE
/* The note the agent prints after BP_AGENT_DONE when the kernel cannot
 * power off (no ACPI) and it ends the guest by a reboot instead, which
 * the host's domain turns into its end (on_reboot=destroy): the host
 * then takes "reboot: Restarting system" for a clean end. */
#define BP_AGENT_REBOOT "ending the guest by a reboot (no ACPI)"
#define BP_AGENT_REBOOT_LINE BP_AGENT_NOTE BP_AGENT_REBOOT
/*
 * What the agent found of the kernel's own debug checkers after the
 * scenarios (notes, after BP_AGENT_NOTE):
 *   "kmemleak: leaks N"        it asked kmemleak for a scan (with
 *                              kmemleak's verbose on, so the kernel prints
 *                              each leak on the console): N new suspects;
 *   "kmemleak: no scan: WHY"   the kernel has kmemleak but the scan failed;
 *   "lockdep: on" / "lockdep: off"  /proc/lockdep_stats' debug_locks:
 *                              off means lockdep turned itself off (after
 *                              its first report), so later silence about
 *                              locking is not clean.
 * Neither note is printed when the kernel lacks the checker.
 */
#define BP_AGENT_KMEMLEAK_LEAKS "kmemleak: leaks "
#define BP_AGENT_KMEMLEAK_NO_SCAN "kmemleak: no scan: "
#define BP_AGENT_LOCKDEP_ON "lockdep: on"
#define BP_AGENT_LOCKDEP_OFF "lockdep: off"
/*
 * The agent's first look at memory, before any scenario ran (a note,
 * after BP_AGENT_NOTE): "memavailable: N kB", /proc/meminfo's
 * MemAvailable.  What an option group costs in memory (docs/cost.md)
 * compares it between kernels booted with the same memory.
 */
#define BP_AGENT_MEMAVAILABLE "memavailable: "
/* The kgdb scenario's handshake: the line starts so, then " port=TTY
 * wait=S"; the host answers with a byte on the kgdb port. */
#define BP_KGDB_READY "# kgdb: ready"
/*
 * What the kernel prints when sysrq-g stopped it for a debugger, and the
 * host may attach gdb: kgdb's own words, or kdb's when CONFIG_KGDB_KDB
 * makes kdb the front end ("Entering kdb (current=..., pid N) ..."; kdb
 * hands over to gdb when gdb's first packet arrives on the port), or
 * kgdbwait's.  Both sides look for these in the kernel's log.
 */
#define BP_KGDB_ENTERED_MARKS                                                  \
	{ "Entering KGDB", "KGDB or $3#33", "Entering kdb",                    \
	  "Waiting for connection from remote gdb" }
/* The virtio-serial channel the host attaches, and the line the boot
 * scenario writes to it (then the kernel release). */
#define BP_CHANNEL_NAME "org.bootproof.agent.0"
#define BP_CHANNEL_LINE "bootproof-agent: channel ok "
/*
 * After the scenarios the agent sends the kernel's log (as dmesg(1)
 * prints it) over the same channel: this header at the start of a line,
 * the log's size in bytes and a newline, then the log itself.  The host
 * keeps it as the boot's dmesg.txt (core/agentchan).  Without a connected
 * channel (no host side, a LAVA boot) the agent writes the log to
 * BP_DMESG_FILE on the root file system instead.
 */
#define BP_CHANNEL_DMESG "bootproof-agent: dmesg bytes "
#define BP_DMESG_FILE "/bootproof/dmesg.txt"

/*
 * The file every root image carries for the boot scenario's virtio_blk
 * check: core/image_spec writes it, the agent reads it back with O_DIRECT
 * and compares every byte with the pattern.
 */
#define BP_MARKER_PATH "/bootproof/marker.bin"
#define BP_MARKER_SIZE (1024u * 1024u)
static inline uint8_t bp_marker_byte(uint64_t i)
{
	return (uint8_t)(((uint32_t)i * 2654435761u) >> 24);
}

#endif
