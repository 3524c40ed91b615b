/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * archjobs: how many arches `bootproof run` builds and boots at once
 * (`--parallel auto|N`, docs/run.md#parallel), and which worker takes
 * which arch.  Pure: what the host has in, a number and its reason out.
 *
 * Every arch of a run has its own kept O= tree and root image, so the
 * candidates of two arches share nothing but the CPUs: a worker process
 * per arch builds and boots that arch's candidates in their build order
 * while another does the next arch.  A kernel build at make -jN leaves
 * CPUs idle while it configures, builds its host tools and links; a
 * second arch's build fills them.
 *
 * The rule of auto:
 *  - one arch to run: 1;
 *  - fewer than ARCHJOBS_MIN_CPUS CPUs: 1.  Measured on a 2-CPU machine
 *    (the demo, both arches, from clean): one after the other 893 s,
 *    at once 918 s at make -j2 each (each build's CPU time rose from
 *    about 580 s to 750 s) and no faster at -j1 each: two CPUs are
 *    already full (docs/run.md#parallel);
 *  - a distcc farm compiles: 1 (make -j already fills the farm);
 *  - else as many workers as arches, at most ARCHJOBS_MAX, and no more
 *    than the host's memory holds at ARCHJOBS_WORKER_MB each (make -jN's
 *    compilers and a guest).
 * A number asked for is what runs, but never more workers than arches.
 */
#ifndef BP_ARCHJOBS_H
#define BP_ARCHJOBS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

#define ARCHJOBS_MAX 4
#define ARCHJOBS_MIN_CPUS 4
#define ARCHJOBS_WORKER_MB 3072u

struct archjobs_host {
	unsigned cpus;	       /* CPUs this process may run on */
	unsigned long mem_mb;  /* the host's memory; 0: unknown */
	unsigned distcc_slots; /* > 0: a distcc farm compiles */
	size_t n_arches;       /* arches with candidates this run builds */
};

/* "auto" (0) or a number 1..ARCHJOBS_MAX into *ret: 0, or -EINVAL
 * (*ret untouched). */
int archjobs_parse(const char *s, unsigned *ret);

/* How many workers run (>= 1); asked 0 is auto.  One sentence saying
 * why is appended to why (when not NULL). */
unsigned archjobs_decide(unsigned asked, const struct archjobs_host *h,
			 struct strbuf *why);

/* The worker (0..workers) of each of n arches: the arch i goes to worker
 * i % workers, so each worker's arches keep the run's order. */
void archjobs_assign(size_t n, unsigned workers, unsigned *ret);

/* run.json's "parallel": {"asked", "workers", "reason", "cpus"}. */
json_object *archjobs_record(unsigned asked, unsigned workers,
			     const struct archjobs_host *h, const char *reason);

#endif
