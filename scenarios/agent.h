/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootproof-agent: the program that runs as init (PID 1) in every guest.
 *
 * The agent mounts what the scenarios need, runs each requested scenario in
 * its own forked child with a time limit, and prints KTAP v1 on the console:
 * one top-level test per scenario, its checks as nested subtests (4-space
 * indentation, "# Subtest: <scenario>"), then saves dmesg and powers off.
 * docs/scenarios.md describes the contract with the host side.
 *
 * A scenario is a fixed list of checks, so its plan is known before it
 * runs; the runner in the parent prints the lines of any check a crashed or
 * timed-out child could not print, keeping the KTAP well formed.
 *
 * Every KTAP line is written with a single write() so that kernel messages
 * interleave only between lines.
 */
#ifndef BP_AGENT_H
#define BP_AGENT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../harness/util/cleanup.h"
#include "cmdline.h"
#include "contract.h"
#include "ktapfmt.h"

/* Indentation of a scenario's nested lines. */
#define SUB KTAPFMT_INDENT

enum check_result {
	CHECK_PASS,
	CHECK_FAIL,
	CHECK_SKIP,
};

/* What a check is given; lives in the scenario child. */
struct tctx {
	const char *scenario;
	const char *name;
	unsigned num;
	char skip_reason[KTAPFMT_REASON_MAX];
};

struct check {
	const char *name;
	enum check_result (*run)(struct tctx *t);
};

/* A check whose name is the suffix of its function check_<id>. */
#define CHECK(id) { #id, check_##id }

enum scenario_flags {
	/* Changes global kernel state: refused unless running as PID 1. */
	SC_GUEST_ONLY = 1 << 0,
	/* Runs without a time limit (the "hang" scenario). */
	SC_NO_LIMIT = 1 << 1,
};

struct scenario {
	const char *name;
	const char *summary;
	unsigned flags;
	/*
	 * Optional: decide before any check runs whether the whole scenario
	 * is skipped.  Returns true and fills reason (e.g. "CONFIG_KGDB not
	 * set") when the kernel lacks the feature.
	 */
	bool (*missing)(char *reason, size_t n);
	/* Extra seconds on top of bootproof.timeout (kgdb: the wait). */
	unsigned (*extra_time)(const struct agent_params *p);
	const struct check *checks;
	size_t n_checks;
};

/*
 * Define scenario_<id>, named "<id>", with the checks of <id>_checks and
 * the other fields given (.summary, .flags, ...).  Every name of the
 * contract's scenario list (contract.h) needs one (the table in runner.c
 * does not link without it); a scenario missing from the list never runs.
 */
#define SCENARIO_DEFINE(id, ...)                                          \
	const struct scenario scenario_##id = {                           \
		.name = #id,                                              \
		.checks = id##_checks,                                    \
		.n_checks = ELEMENTSOF(id##_checks),                      \
		__VA_ARGS__                                               \
	}

#define SCENARIO_DECLARE(id) extern const struct scenario scenario_##id;
BP_SCENARIOS(SCENARIO_DECLARE)

/* ------------------------------------------------------------ agent state */

/* The parsed command line; set once by main before any scenario runs. */
extern const struct agent_params *agent_params;
/* True when running as init in a guest (PID 1). */
extern bool agent_is_pid1;

/* ------------------------------------------------------------ output (out.c) */

/* Where KTAP goes: /dev/console as PID 1, stdout otherwise. */
extern int agent_out_fd;

/* One line at the given indentation, newline added, a single write(). */
void out_line(unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "# bootproof-agent: ..." at top level. */
void out_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A diagnostic of the current check: "    # <check>: ...". */
void diag(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print the reason as a diagnostic and return CHECK_FAIL. */
enum check_result fail(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Keep the reason for the "# SKIP reason" directive; return CHECK_SKIP. */
enum check_result skip(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ sys.c */

/* "ENOSYS" for ENOSYS, "E123" when unknown. */
const char *errname(int err);
/* Copy a string, truncated to fit n (n > 0), always NUL-terminated. */
void copy_str(char *dst, size_t n, const char *src);
/* Monotonic seconds. */
double now_s(void);
void sleep_ms(unsigned ms);

/*
 * Read a whole (small) file into buf, NUL-terminated, truncated to n-1.
 * Returns the number of bytes stored or -errno.
 */
long read_file(const char *path, char *buf, size_t n);
/* Read a file and strip trailing whitespace. */
long read_line(const char *path, char *buf, size_t n);
/* Read one decimal or 0x-hex number from a file.  0 or -errno. */
int read_long(const char *path, long *ret);
/* Write the string to a file (open, one write, close).  0 or -errno. */
int write_file(const char *path, const char *s);
/* Value of "key" in a "key value" or "key: value kB" file (blanks before
 * the key allowed, as in /proc/lockdep_stats).  0/-errno. */
int read_keyed(const char *path, const char *key, long *ret);
bool path_exists(const char *path);
/* The virtio-serial port named name ("vport0p2"): /sys/class/virtio-ports
 * has it.  Ports appear asynchronously after the driver binds. */
bool virtio_port_find(const char *name, char *port, size_t n);
/* Write all of buf to fd; on a non-blocking fd, wait at most timeout_ms
 * each time it is full.  0, -ETIMEDOUT or -errno. */
int write_fd_all(int fd, const void *buf, size_t len, unsigned timeout_ms);
/* statfs magic of the file system at path; 0 when it cannot be read. */
unsigned long fs_magic(const char *path);
/* Basename of the target of a symlink ("virtio_blk" for a driver link). */
int link_basename(const char *path, char *buf, size_t n);

/*
 * Run argv (absolute path, no shell), stdin /dev/null, stdout captured into
 * out (NUL-terminated, truncated) when out != NULL, stderr to the console.
 * Killed after timeout_s.  Returns the exit status (0..255), 128+signal,
 * or -errno when it could not be run.
 */
int run_argv(char *const argv[], char *out, size_t n, unsigned timeout_s);

/* Fork a child running fn(arg); its exit status is fn's return value. */
pid_t fork_fn(int (*fn)(void *arg), void *arg);
/* waitpid with a time limit: 0 and *status, -ETIMEDOUT or -errno. */
int wait_timeout(pid_t pid, int *status, unsigned timeout_ms);
/* Describe a wait status: "exit 3", "killed by SIGKILL". */
const char *status_str(int status, char *buf, size_t n);

/* ------------------------------------------------------------ debug state */

/* After the scenarios, as init: kmemleak's scan and lockdep's state as
 * notes (contract.h), when the kernel has them (debugstate.c). */
void debug_state_report(void);

/* ------------------------------------------------------------ kernel log */

/*
 * A window during which a check provokes kernel messages on purpose (the
 * memcg OOM report): the console log level is lowered to show only
 * errors and worse, so that the host's console parser does not mistake the
 * expected report for a kernel problem; at the end the level is restored
 * and every message logged during the window is read back from /dev/kmsg,
 * and the lines that look like a real kernel problem (WARNING, BUG, Oops,
 * lockups, ...) are printed as diagnostics of the check.  Nothing is lost:
 * the whole log goes to the host as the boot's dmesg.txt (save_dmesg).
 */
struct kmsg_window {
	int fd;			/* /dev/kmsg positioned at the window start */
	long saved_level;	/* console_loglevel to restore, or -1 */
};

void kmsg_quiet_begin(struct kmsg_window *w, int console_level);
/* Restore the level; returns how many problem lines the window held. */
unsigned kmsg_quiet_end(struct kmsg_window *w, struct tctx *t);

/* ------------------------------------------------------------ kernel config */

enum kcfg {
	KCFG_UNKNOWN,	/* no kernel config available */
	KCFG_UNSET,	/* "# CONFIG_X is not set" or absent from the config */
	KCFG_SET,	/* =y, =m or a value */
};

/*
 * Load the running kernel's configuration (/proc/config.gz through
 * /bin/busybox zcat, else /boot/config-<release>).  Called once by main
 * before scenarios fork.  Returns 0 or -errno when none is available.
 */
int kconfig_load(void);
/* Where the config came from, or NULL. */
const char *kconfig_source(void);
/* State of CONFIG_<sym> (sym given without the prefix); value in val. */
enum kcfg kcfg_state(const char *sym, char *val, size_t n);
/* 1 when the symbol is in /proc/kallsyms, 0 when not, -errno. */
int ksym_present(const char *sym);

/*
 * Decide whether a feature is missing from the kernel, and why, for a SKIP:
 *   - the config says CONFIG_<cfg> is not set: "CONFIG_<cfg> not set";
 *   - no config, and ksym (when given) is absent from /proc/kallsyms:
 *     "CONFIG_<cfg> not set (no <ksym> in /proc/kallsyms)";
 *   - no config and no kallsyms answer, and err is ENOSYS, EINVAL, ENOENT,
 *     ENODEV or EOPNOTSUPP: "<call>: <ERRNAME> (CONFIG_<cfg> not set?)".
 * Returns false when the kernel has the feature (so a failure is real).
 */
bool feature_missing(const char *cfg, const char *ksym, int err,
		     const char *call, char *reason, size_t n);
/*
 * The same for a probe call that returns an fd (errno set when < 0): an fd
 * means the feature is there (it is closed); else feature_missing() with
 * the call's errno.
 */
bool probe_missing(int fd, const char *cfg, const char *ksym,
		   const char *call, char *reason, size_t n);

/* ------------------------------------------------------------ modules.c */

/*
 * Load the modules the scenarios need (virtio_pci, virtio_net, ...) from
 * /lib/modules/<release>/ when the kernel is modular, printing one note.
 */
void modules_load_needed(void);
/* "loaded", "built-in", "not found ..." as recorded by modules_load_needed. */
const char *module_status(const char *name);
/*
 * Load the modules list names (paths below dir, one a line, at most 64), in
 * any order: what fails is tried again while anything else loads.  Returns
 * how many loaded (or were loaded already); report (size n) names each
 * that did not, with its error ("" when all did).
 */
unsigned modules_load_list(const char *dir, const char *list, char *report,
			   size_t n);

/* ---------------------------------------------------------- initramfs.c */

/*
 * The agent as BP_INITRAMFS_INIT of bootproof's initramfs: load its
 * modules, mount root= (ext4, read-write) and execute init= there as PID 1
 * with argv.  Returns only on failure, having printed why on the console
 * (the caller exits: the kernel's "Attempted to kill init" then ends the
 * boot with the reason just before it).
 */
void initramfs_switch_root(char **argv);

/* ------------------------------------------------------------ runner.c */

/*
 * Run one scenario as top-level test number num and print its KTAP.
 * Returns the top-level result (CHECK_PASS/FAIL/SKIP).
 */
enum check_result scenario_run(const struct scenario *sc, unsigned num,
			       const struct agent_params *p);
/* Print the result of a scenario name that is not known. */
enum check_result scenario_unknown(const char *name, unsigned num);
/* The scenario table, NULL-terminated, in the contract's order. */
extern const struct scenario *const scenarios[];
const struct scenario *scenario_find(const char *name);
/* A test-only scenario (BP_TEST_SCENARIOS): not part of "all". */
bool scenario_test_only(const struct scenario *sc);

/* ------------------------------------------------------------ net helpers */

/* Set IFF_UP on an interface.  0 or -errno. */
int netif_up(const char *ifname);

#endif
