/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildmeasure: what one kernel build cost and made, measured in its O=
 * tree and its artifacts (engine/buildstage calls it around a build; the
 * numbers go into build.json and the build record's "measure", see
 * docs/results.md).
 *
 *	buildmeasure_before(obj, &m)	   before make: was the tree clean,
 *					   which .config did it hold
 *	... make, with CCACHE_STATSLOG=buildmeasure_ccache_log(obj) ...
 *	buildmeasure_after(obj, &m, ...)   objects, objects compiled, ccache
 *	buildmeasure_sizes(&m, ...)	   bzImage, vmlinux text/data/bss,
 *					   modules
 *	buildmeasure_json(&m)
 *
 * Objects are counted the kernel's way (core/kbuild.h): the members of
 * vmlinux.a and the lib.a archives, and the objects of every module of
 * modules.order; "compiled" are those of them whose file is newer than
 * the build's start (written by this build: compiled, or copied from
 * ccache on a hit, which the ccache counts tell apart).
 */
#ifndef BP_BUILDMEASURE_H
#define BP_BUILDMEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <json-c/json.h>

#include "core/elfsize.h"
#include "core/kbuild.h"

/* The file in the O= tree naming the .config built there last. */
#define BUILDMEASURE_LAST_CONFIG ".bootproof-last-config"

struct buildmeasure {
	struct timespec started;	/* wall clock, before make */
	bool from_clean;	/* the tree had no object before the build */
	char previous[65];	/* sha256 of the .config the tree held; ""
				 * when none or unknown */
	long objects;		/* -1: unknown (no vmlinux.a) */
	long objects_compiled;	/* -1: unknown */
	double cpu_seconds;	/* user + system of make's process tree */
	double restore_cpu_seconds;	/* of the starting point built
					 * first (buildstage opts->after) */
	bool have_ccache;	/* ccache ran with a statistics log */
	struct kbuild_ccache ccache;
	int64_t bzimage_bytes;	/* -1: unknown */
	bool have_vmlinux;
	struct elfsize vmlinux;
	long modules;		/* .ko files; 0 without modules */
	int64_t modules_bytes;
};

/* Start a measure: the time, whether obj holds any object, and what
 * BUILDMEASURE_LAST_CONFIG says.  Never fails (unknown stays unknown). */
void buildmeasure_before(const char *obj, struct buildmeasure *m);

/* The statistics log to give ccache for this build (malloc'd; the old
 * one removed), or NULL when out of memory. */
char *buildmeasure_ccache_log(const char *obj);

/* After make: objects and objects compiled in obj, the ccache log read,
 * cpu_seconds set, hash written to BUILDMEASURE_LAST_CONFIG. */
void buildmeasure_after(const char *obj, const char *hash, double cpu_seconds,
			struct buildmeasure *m);

/* After a make that did not pass (failed, cancelled, could not run):
 * only BUILDMEASURE_LAST_CONFIG is written (the tree holds part of it). */
void buildmeasure_mark(const char *obj, const char *hash);

/* Sizes of the artifacts; modules may be NULL (no modules). */
void buildmeasure_sizes(const char *bzimage, const char *vmlinux,
			const char *modules, struct buildmeasure *m);

/* The "measure" member (docs/results.md): a new object. */
json_object *buildmeasure_json(const struct buildmeasure *m);

#endif
