// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/progress.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

static void fmt_elapsed(char *buf, size_t n, double s)
{
	unsigned v = s < 0 ? 0 : (unsigned)s;

	if (v >= 3600)
		snprintf(buf, n, "%u:%02u:%02u", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, n, "%u:%02u", v / 60, v % 60);
}

/* Caller holds mu. */
static void draw(struct progress *p)
{
	struct winsize ws = { 0 };
	char el[32], line[512];
	int cols = 80;

	if (!p->active)
		return;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		cols = ws.ws_col;
	fmt_elapsed(el, sizeof(el), clock_mono_s() - p->t0);
	snprintf(line, sizeof(line), "  %-32s %7s  %s", p->what, el, p->detail);
	if ((int)strlen(line) >= cols)
		line[cols - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

static void *thread_main(void *ud)
{
	struct progress *p = ud;

	while (!p->stop) {
		struct timespec ts = { 0, 250 * 1000000L };

		pthread_mutex_lock(&p->mu);
		draw(p);
		pthread_mutex_unlock(&p->mu);
		for (int i = 0; i < 4 && !p->stop; i++)
			nanosleep(&ts, NULL);
	}
	return NULL;
}

void progress_init_lines(struct progress *p, bool quiet)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->mu, NULL);
	p->quiet = quiet;
}

void progress_init(struct progress *p, bool quiet)
{
	progress_init_lines(p, quiet);
	p->tty = !quiet && isatty(STDERR_FILENO) && getenv("TERM") &&
		 strcmp(getenv("TERM"), "dumb");
	if (p->tty) {
		sigset_t all, old;

		/* Signals are for the main thread (its proc_run and boot
		 * loops notice them). */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		p->have_thr = pthread_create(&p->thr, NULL, thread_main, p) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}

void progress_done(struct progress *p)
{
	p->stop = true;
	if (p->have_thr)
		pthread_join(p->thr, NULL);
	pthread_mutex_destroy(&p->mu);
}

void progress_start(struct progress *p, const char *cand, const char *stage)
{
	if (p->quiet)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->what, sizeof(p->what), "%s %s", cand, stage);
	p->detail[0] = '\0';
	p->t0 = clock_mono_s();
	p->active = true;
	if (p->tty)
		draw(p);
	else
		fprintf(stderr, "bootproof: %s: %s ...\n", cand, stage);
	pthread_mutex_unlock(&p->mu);
}

void progress_detail(struct progress *p, const char *detail)
{
	if (p->quiet || !p->tty)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->detail, sizeof(p->detail), "%s", detail);
	pthread_mutex_unlock(&p->mu);
}

void progress_end(struct progress *p, const char *fmt, ...)
{
	char msg[512], el[32];
	va_list ap;

	if (p->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&p->mu);
	fmt_elapsed(el, sizeof(el), clock_mono_s() - p->t0);
	if (p->tty)
		fprintf(stderr, "\r\033[K  %-32s %7s  %s\n", p->what, el, msg);
	else
		fprintf(stderr, "bootproof: %s: %s (%.1f s)\n", p->what, msg,
			clock_mono_s() - p->t0);
	p->active = false;
	fflush(stderr);
	pthread_mutex_unlock(&p->mu);
}

void progress_clear(struct progress *p)
{
	if (!p->tty)
		return;
	pthread_mutex_lock(&p->mu);
	fputs("\r\033[K", stderr);
	pthread_mutex_unlock(&p->mu);
}

void progress_note(struct progress *p, const char *cand, const char *msg)
{
	if (p->quiet)
		return;
	fprintf(stderr, "  %-32s %7s  %s\n", cand, "", msg);
}
