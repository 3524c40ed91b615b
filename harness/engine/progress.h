/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress: the stderr lines of a long run, one per candidate and stage.
 * On a terminal the line is redrawn every second (by a thread of its own)
 * with the stage's elapsed time and what it is doing (make's last line,
 * the boot's last milestone), then left with its result; else a plain line
 * when a stage starts and one when it ends.  Quiet: nothing at all.
 *
 * The struct is the caller's (embedded, not allocated); every function is
 * safe to call from the thread that called progress_init.
 */
#ifndef BP_PROGRESS_H
#define BP_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>

#include "util/cleanup.h"

struct progress {
	bool tty, quiet;
	pthread_mutex_t mu;
	pthread_t thr;
	bool have_thr;
	volatile bool stop;
	bool active;
	char what[160];
	char detail[240];
	double t0;
};

/* Start (the redraw thread only on a terminal, with every signal blocked:
 * signals stay for the caller's thread). */
void progress_init(struct progress *p, bool quiet);
/* The same, but plain lines even on a terminal (a process that shares
 * the terminal with another one drawing). */
void progress_init_lines(struct progress *p, bool quiet);
/* Stop the thread; p can be initialised again. */
void progress_done(struct progress *p);

/* A stage of cand begins ("x86_64-bpf build ..."). */
void progress_start(struct progress *p, const char *cand, const char *stage);
/* What it is doing now (shown on a terminal only). */
void progress_detail(struct progress *p, const char *detail);
/* It ended: its result, with the elapsed time. */
void progress_end(struct progress *p, const char *fmt, ...) _printf_(2, 3);
/* Clear the live line before another message goes to stderr. */
void progress_clear(struct progress *p);
/* A line about cand that is not a stage (what a resumed run reused). */
void progress_note(struct progress *p, const char *cand, const char *msg);

#endif
