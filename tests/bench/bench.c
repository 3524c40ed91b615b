// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: speed and memory of the parsers that sit on a guest's
 * console, as ratios measured in this one run (never absolute targets in
 * unit tests).
 *
 *  - console+KTAP throughput against a baseline that only splits the same
 *    bytes into lines (memchr): how much the parsing costs over reading;
 *  - the same with the bytes fed one at a time (serial consoles deliver
 *    tiny chunks): chunking must not change the cost much;
 *  - kconfig: parsing a real final .config against splitting it in lines;
 *  - memory: peak RSS growth while a flood of the given size goes through
 *    console+KTAP, against the documented bound;
 *  - doctor on this host (real checks, libvirt, probe guests, a libguestfs
 *    launch): when its KVM verdict is known and when it is done, against
 *    the 20 s target of docs/doctor.md.  BENCH_DOCTOR=0 leaves it out.
 *
 * Inputs are the golden logs of tests/data/console/ repeated up to
 * BENCH_MB (default 64) MiB.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/console.h"
#include "core/kconfig.h"
#include "core/ktap.h"
#include "engine/doctor.h"
#include "util/strbuf.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static double loadavg(void)
{
	double l = -1;

	if (getloadavg(&l, 1) != 1)
		return -1;
	return l;
}

static volatile size_t sink;

static double baseline_lines(const char *b, size_t n)
{
	double t = now();
	size_t lines = 0;
	const char *p = b, *end = b + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		lines++;
		p = nl ? nl + 1 : end;
	}
	sink = lines;
	return now() - t;
}

static void feed_ktap(const struct console_line *l, void *ud)
{
	ktap_feed_line(ud, l->text, l->len);
}

static double parse_console(const char *b, size_t n, size_t chunk)
{
	struct ktap *k = ktap_new(NULL, NULL, NULL);
	struct console_ops ops = { .on_line = feed_ktap };
	struct console *c = console_new(&ops, k);
	double t = now();

	for (size_t off = 0; off < n; off += chunk)
		console_feed(c, b + off, off + chunk > n ? n - off : chunk);
	console_finish(c);
	ktap_finish(k);
	t = now() - t;
	sink = console_n_problems(c);
	console_free(c);
	ktap_free(k);
	return t;
}

struct doctor_times {
	double t0, early;
};

static void doctor_early(const struct check_list *done, const char *accel,
			 void *ud)
{
	struct doctor_times *t = ud;

	t->early = now() - t->t0;
}

static void bench_doctor(void)
{
	const double target = 20.0;
	struct doctor_times t = { 0 };
	struct doctor_opts o = { .early = doctor_early, .early_ud = &t };
	struct check_list checks = CHECK_LIST_INIT;
	const char *accel = NULL;
	double whole, gfs = 0;

	t.t0 = now();
	if (doctor_run(&hostcheck_real_ops, &o, &checks, &accel) < 0) {
		puts("doctor: could not run");
		return;
	}
	whole = now() - t.t0;
	for (size_t i = 0; i < checks.n; i++) {
		const char *d = checks.v[i].detail, *p;

		if (strcmp(checks.v[i].name, "libguestfs") == 0 && d &&
		    (p = strstr(d, "launched in ")) &&
		    sscanf(p, "launched in %lf", &gfs) == 1 && gfs > 0)
			printf("doctor: whole doctor / its libguestfs launch "
			       "alone: %.2fx (the other checks run beside it)\n",
			       whole / gfs);
	}
	printf("doctor: KVM verdict after %.1f s, whole doctor %.1f s "
	       "(accelerator %s, bootable %s); %.2fx the %.0f s target "
	       "(load %.2f)\n", t.early, whole, accel ? accel : "none",
	       check_list_bootable(&checks) ? "yes" : "no", whole / target,
	       target, loadavg());
	check_list_release(&checks);
}

int main(void)
{
	const char *mb = getenv("BENCH_MB");
	size_t want = (size_t)(mb ? atoi(mb) : 64) << 20;
	struct strbuf logs = STRBUF_INIT, big = STRBUF_INIT, cfg = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	double tb, tc, tc1, tk, tkb;
	long rss0, rss1;
	size_t small = 4 << 20;

	d = opendir(TEST_DATA "/console");
	if (!d) {
		perror(TEST_DATA "/console");
		return 1;
	}
	while ((de = readdir(d))) {
		char p[1024];
		if (!strstr(de->d_name, ".log"))
			continue;
		snprintf(p, sizeof(p), "%s/console/%s", TEST_DATA, de->d_name);
		strbuf_read_file(&logs, p, 0);
	}
	closedir(d);
	if (!logs.len) {
		fputs("bench: no golden logs\n", stderr);
		return 1;
	}
	while (big.len < want)
		strbuf_add(&big, logs.buf, logs.len);

	printf("bench: %zu MiB of real console logs (%zu KiB of golden logs "
	       "repeated)\n", big.len >> 20, logs.len >> 10);
	tb = baseline_lines(big.buf, big.len);
	rss0 = rss_kb();
	tc = parse_console(big.buf, big.len, 65536);
	rss1 = rss_kb();
	printf("console+ktap, 64 KiB chunks: %.0f MiB/s; %.1fx the time of "
	       "splitting lines alone (%.0f MiB/s)\n",
	       (big.len >> 20) / tc, tc / tb, (big.len >> 20) / tb);
	if (small > big.len)
		small = big.len;
	tc1 = parse_console(big.buf, small, 1);
	tc = parse_console(big.buf, small, 65536);
	printf("console+ktap, 1-byte chunks vs 64 KiB chunks: %.2fx\n",
	       tc1 / tc);
	printf("memory: peak RSS grew %ld KiB while %zu MiB went through "
	       "(input buffer excluded; bound in docs/reliability.md)\n",
	       rss1 - rss0, big.len >> 20);

	if (strbuf_read_file(&cfg, TEST_DATA "/kconfig/x86_64_defconfig.final.config",
			     0) > 0) {
		int reps = 50;
		double t = now();
		for (int i = 0; i < reps; i++) {
			struct kconfig *kc = NULL;
			struct kconfig_error err;
			if (kconfig_new(&kc) == 0) {
				kconfig_parse(kc, "bench.config", cfg.buf, cfg.len, &err);
				kconfig_free(kc);
			}
		}
		tk = now() - t;
		t = now();
		for (int i = 0; i < reps; i++)
			baseline_lines(cfg.buf, cfg.len);
		tkb = now() - t;
		printf("kconfig: a real x86_64 .config (%zu lines) parsed in "
		       "%.2f ms; %.1fx the time of splitting its lines\n",
		       (size_t)sink, tk / reps * 1000, tk / tkb);
	}
	strbuf_release(&logs);
	strbuf_release(&big);
	strbuf_release(&cfg);

	if (!getenv("BENCH_DOCTOR") || strcmp(getenv("BENCH_DOCTOR"), "0"))
		bench_doctor();
	return 0;
}
