// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/archjobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/recjson.h"

int archjobs_parse(const char *s, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "auto")) {
		*ret = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 1 || v > ARCHJOBS_MAX)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

unsigned archjobs_decide(unsigned asked, const struct archjobs_host *h,
			 struct strbuf *why)
{
	size_t arches = h->n_arches ? h->n_arches : 1;
	unsigned cpus = h->cpus ? h->cpus : 1, n;
	unsigned long fit;

	if (asked) {
		n = asked < arches ? asked : (unsigned)arches;
		if (why)
			strbuf_addf(why, "asked for (--parallel %u)%s", asked,
				    n < asked ? ": one worker per arch at most"
					      : "");
		return n;
	}
	if (arches == 1) {
		if (why)
			strbuf_addstr(why, "one arch to build");
		return 1;
	}
	if (cpus < ARCHJOBS_MIN_CPUS) {
		if (why)
			strbuf_addf(why,
				    "%u CPU%s: make -j%u fills %s, a "
				    "second build would only take turns",
				    cpus, cpus == 1 ? "" : "s", cpus,
				    cpus == 1 ? "it" : "them");
		return 1;
	}
	if (h->distcc_slots) {
		if (why)
			strbuf_addstr(why, "a distcc farm compiles: make's -j "
					   "already fills it");
		return 1;
	}
	n = arches < ARCHJOBS_MAX ? (unsigned)arches : ARCHJOBS_MAX;
	fit = h->mem_mb ? h->mem_mb / ARCHJOBS_WORKER_MB : n;
	if (fit < n) {
		n = fit ? (unsigned)fit : 1;
		if (why)
			strbuf_addf(why,
				    "%lu MiB of memory holds %u worker%s "
				    "(%u MiB each)",
				    h->mem_mb, n, n == 1 ? "" : "s",
				    ARCHJOBS_WORKER_MB);
		return n;
	}
	if (why)
		strbuf_addf(why,
			    "%zu arches on %u CPUs: each arch's build "
			    "fills the CPUs the other's leaves idle",
			    arches, cpus);
	return n;
}

void archjobs_assign(size_t n, unsigned workers, unsigned *ret)
{
	for (size_t i = 0; i < n; i++)
		ret[i] = workers ? (unsigned)(i % workers) : 0;
}

json_object *archjobs_record(unsigned asked, unsigned workers,
			     const struct archjobs_host *h, const char *reason)
{
	json_object *j = json_object_new_object();

	if (asked)
		json_object_object_add(j, "asked",
				       json_object_new_int((int)asked));
	else
		recjson_add_str(j, "asked", "auto");
	json_object_object_add(j, "workers", json_object_new_int((int)workers));
	recjson_add_str(j, "reason", reason);
	json_object_object_add(j, "cpus", json_object_new_int((int)h->cpus));
	return j;
}
