/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gdbout: read what a batch gdb session against kgdb printed (pure), and
 * judge the kgdb check from it.
 *
 * The session is `gdb -batch -nx -ex 'set print elements 0' -ex 'target
 * remote HOST:PORT' -ex bt -ex 'x/s &linux_banner' -ex detach VMLINUX`.
 */
#ifndef BP_GDBOUT_H
#define BP_GDBOUT_H

#include <stdbool.h>
#include <stddef.h>

#define GDBOUT_MAX_FRAMES 64

struct gdbout {
	size_t n_frames;
	char frames[GDBOUT_MAX_FRAMES][128];	/* function names, #0 first */
	bool have_banner;
	char banner[512];	/* linux_banner, unescaped, without "\n" */
	bool detached;		/* "Detaching from program" / "[Inferior 1 ... detached]" */
	bool connected;		/* "Remote debugging using", or frames or
				 * memory were read from the target */
};

/* Parse gdb's stdout+stderr.  Never fails; what is not found stays
 * empty. */
void gdbout_parse(const char *text, size_t len, struct gdbout *ret);

struct kgdb_check {
	bool connected, stop_in_kgdb, via_sysrq, banner_matches, detached;
	char reason[512];	/* first failure, "" when all passed */
};

/*
 * Judge one kgdb session: connected; the backtrace has the kgdb entry
 * (kgdb_breakpoint / kgdb_handle_exception) and the sysrq path
 * (__handle_sysrq / sysrq_handle_dbg / write_sysrq_trigger); linux_banner
 * read from memory equals the banner the console printed (console_banner:
 * the "Linux version ..." line, trailing whitespace ignored); detached.
 * Returns true when everything passed.
 */
bool kgdb_check_judge(const struct gdbout *g, const char *console_banner,
		      struct kgdb_check *ret);

#endif
