// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/bootsamples.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/costrec.h"
#include "core/plan.h"
#include "util/cleanup.h"

int bootsamples_run(const struct boot_request *req, unsigned n,
		    json_object *first)
{
	json_object *again[PLAN_MAX_BOOTS];
	size_t k = 0;
	int r = 0;

	if (n < 2)
		return 0;
	for (unsigned i = 2; i <= n && i - 1 <= PLAN_MAX_BOOTS; i++) {
		_cleanup_free_ char *name = NULL, *prefix = NULL, *stage = NULL;
		struct boot_request rq = *req;
		struct boot_outcome out = { 0 };

		if (req->interrupted && *req->interrupted)
			break;
		/* Each boot stages in a directory of its own, named after its
		 * domain (boot.c: the previous one may still be held by
		 * libvirt for a moment after its end). */
		if (asprintf(&name, "%s-%u", req->name, i) < 0 ||
		    asprintf(&prefix, "%sboot%u-", req->prefix ? req->prefix : "",
			     i) < 0 ||
		    asprintf(&stage, "%s-%u", req->stage_dir, i) < 0)
			return -ENOMEM;
		rq.name = name;
		rq.prefix = prefix;
		rq.stage_dir = stage;
		rq.on_update = NULL;	/* the candidate's record is the first */
		r = boot_run(&rq, &out);
		if (r < 0)
			break;
		again[k++] = out.record;
	}
	costrec_samples(first, again, k);
	for (size_t i = 0; i < k; i++)
		json_object_put(again[i]);
	return r;
}
