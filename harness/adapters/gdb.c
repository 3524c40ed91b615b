// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/gdb.h"

#include <errno.h>
#include <stdio.h>

#include "adapters/proc.h"

int gdb_kgdb_session(const char *vmlinux, int port, unsigned timeout_ms,
		     struct strbuf *transcript, struct gdbout *ret)
{
	char target[64];
	const char *argv[] = {
		"gdb", "-batch", "-nx",
		"-ex", "set pagination off",
		"-ex", "set confirm off",
		"-ex", "set print elements 0",
		"-ex", "set remotetimeout 10",
		"-ex", target,
		"-ex", "bt 40",
		"-ex", "x/s &linux_banner",
		"-ex", "detach",
		vmlinux, NULL,
	};
	struct proc_cmd cmd = {
		.argv = argv,
		.timeout_ms = timeout_ms,
	};
	_cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT;
	int e;

	snprintf(target, sizeof(target), "target remote 127.0.0.1:%d", port);
	e = proc_run(&cmd, &r);
	if (e < 0)
		return e;
	if (transcript) {
		strbuf_add(transcript, r.out.buf, r.out.len);
		strbuf_add(transcript, r.err.buf, r.err.len);
	}
	{
		_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;
		strbuf_add(&all, r.out.buf, r.out.len);
		strbuf_addch(&all, '\n');
		strbuf_add(&all, r.err.buf, r.err.len);
		gdbout_parse(all.buf, all.len, ret);
	}
	return r.timed_out ? -ETIMEDOUT : 0;
}
