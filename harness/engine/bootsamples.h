/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootsamples: the same kernel booted again, for boot times with a median
 * and a spread (docs/cost.md).  The matrix boots a candidate once as
 * always; with more boots asked for (a plan's "boots N", run --boots N)
 * it calls this, which boots it N - 1 more times exactly as the first
 * (files <prefix>boot<k>-console.log ..., domain <name>-<k>) and adds
 * "samples" (core/costrec_samples) to the first boot's record.  The
 * candidate's verdict and scenarios stay the first boot's; each boot's
 * verdict is in samples.verdicts, which the group verdict reads (a later
 * boot that fails fails the group: core/groupverdict) and the cost too
 * (only boots that ran to their end are samples of boot times:
 * core/costrec).
 */
#ifndef BP_BOOTSAMPLES_H
#define BP_BOOTSAMPLES_H

#include <json-c/json.h>

#include "engine/boot.h"

/*
 * Boot req's kernel n - 1 more times (nothing when n < 2); first is the
 * record of the first boot, which gets "samples".  Stops early when
 * *req->interrupted is set (samples then holds the boots done).  Returns
 * 0, or -errno when a boot could not run at all.
 */
int bootsamples_run(const struct boot_request *req, unsigned n,
		    json_object *first);

#endif
