/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gdb: drive real gdb in batch mode against a kernel stopped in kgdb.
 */
#ifndef BP_GDB_H
#define BP_GDB_H

#include "core/gdbout.h"
#include "util/strbuf.h"

/*
 * Connect gdb (with vmlinux for symbols) to the kgdb serial port at
 * 127.0.0.1:port, take a backtrace, read linux_banner, detach (which
 * resumes the guest).  The transcript is appended to transcript (may be
 * NULL) and parsed into *ret.  Returns 0 when gdb ran (whatever it found),
 * -ENOENT when gdb is not installed, -ETIMEDOUT when it did not finish in
 * timeout_ms, other -errno when it could not be started.
 */
int gdb_kgdb_session(const char *vmlinux, int port, unsigned timeout_ms,
		     struct strbuf *transcript, struct gdbout *ret);

#endif
