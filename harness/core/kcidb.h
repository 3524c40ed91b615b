/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcidb: a run record (run.json, validated by runread) as a KernelCI KCIDB
 * I/O document, schema version 5.3 (pure: json-c in, json-c out).
 *
 * One checkout for the run, one build per boot record (per candidate in a
 * matrix run) and, for each build that booted, the tests:
 *
 *   path "boot"                  the boot verdict
 *   path "bootproof.<scenario>"  each scenario the agent ran
 *   path "bootproof.<scenario>.<check>"  each KTAP check of it
 *
 * Statuses, faithfully:
 *   build   config stage "fail" or build "fail"       FAIL
 *           build "skip" for an infrastructure reason ERROR
 *           build "skip" otherwise (never attempted)  MISS
 *           build "pass" / "reused"                   PASS
 *   boot    BOOTED                                    PASS
 *           PANIC PROBLEMS HUNG CRASHED               FAIL (a kernel failure)
 *           INFRA with console output                 ERROR
 *           INFRA without any, INCOMPLETE, RUNNING    MISS
 *   tests   pass PASS, fail FAIL, skip SKIP, error ERROR, pending MISS;
 *           a KTAP xfail is PASS (the expected outcome; misc.ktap_status
 *           says xfail)
 *
 * What a dashboard shows beside the status goes into the fields it reads:
 * the requested options the config stage dropped (build misc.dropped, with
 * the reason), the kernel problems (boot misc.problems, the first report
 * as log_excerpt), a failed check's diagnostics (its log_excerpt), the
 * group verdicts (checkout misc.groups).
 *
 * Ids are "<origin>:<checkout id>" for the checkout, then ":<record key>"
 * (runread_boot_key) for a build and ":<path>" for its tests: stable across
 * exports of the same run.
 */
#ifndef BP_KCIDB_H
#define BP_KCIDB_H

#include <json-c/json.h>

#include "util/strbuf.h"

struct kcidb_opts {
	const char *origin;	 /* [a-z0-9_]+; NULL: "bootproof" */
	const char *checkout_id; /* after "<origin>:"; NULL: the run id */
	/* Base URL the run directory is published under ("https://x/r/"):
	 * logs get log_url/output_files from it.  NULL: no URLs. */
	const char *base_url;
};

/*
 * The KCIDB document of run (a validated run.json; not modified).  *ret is
 * a new object the caller owns.  Returns 0, or -EINVAL with err naming the
 * option that is not usable (an origin outside [a-z0-9_]+, an empty
 * checkout id).
 */
int kcidb_from_run(json_object *run, const struct kcidb_opts *o,
		   json_object **ret, struct strbuf *err);

/* The KCIDB status of a scenario result or KTAP status ("pass"...): a
 * static string, "MISS" for anything unknown. */
const char *kcidb_test_status(const char *result);

#endif
