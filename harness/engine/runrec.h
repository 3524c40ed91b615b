/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: a run's directory and its run.json (docs/results.md).
 *
 * run_open() picks a fresh run id (UTC time + random suffix; the directory
 * is created with mkdir, so two runs sharing a results directory never
 * share a run directory), creates <base>/<id>/ and writes a first run.json
 * marked "complete": false.  run_save() rewrites it atomically (temporary
 * file + rename: a reader, or a crash at any moment, sees the previous
 * complete file or the new one).  run_close() writes the final run.json
 * and junit.xml.  Until then the record says "complete": false, which is
 * how an interrupted or killed run is recognised.
 */
#ifndef BP_RUNREC_H
#define BP_RUNREC_H

#include <stdbool.h>

#include <json-c/json.h>

#define RUNREC_SCHEMA "bootproof-run/1"

struct run {
	char *id;		/* "20261203-101500-x86_64-4f2a9c" */
	char *dir;		/* <base>/<id> */
	json_object *doc;	/* the run.json document (owned) */
	json_object *boots;	/* its "boots" array (borrowed from doc) */
};

/*
 * base: the results directory (created if missing); tag: a short word put
 * in the id (arch, plan name) or NULL; verb and argv go into the record.
 * Returns 0 or -errno (the directory could not be made or written).
 */
int run_open(const char *base, const char *tag, const char *verb, int argc,
	     char **argv, struct run **ret);

/* Write run.json now.  0 or -errno (e.g. -ENOSPC: the previous run.json
 * stays). */
int run_save(struct run *r);

/* Replace boot record i (or append when i == count).  Takes ownership. */
void run_set_boot(struct run *r, size_t i, json_object *boot);

/*
 * Final record: "finished", "exit_code", "complete" (false when the run
 * was interrupted), then run.json and junit.xml.  0 or -errno.
 */
int run_close(struct run *r, int exit_code, bool complete);

/* Free (does not write).  Accepts NULL. */
void run_free(struct run *r);

/* Path of a file in the run directory; caller frees. */
char *run_path(const struct run *r, const char *name);

#endif
