/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * configcache: config stages are cached like builds, by a key of
 * everything the result depends on: the tree (path and release), the arch,
 * the base (its name, and its bytes when it is a file), each group's name,
 * file name and bytes, the compiler and linker Kconfig asks about, and the
 * explain helper's source, and for a tree the user names the state of
 * the files Kconfig reads (engine/ksrc).  What does not change the key: where the run
 * directory is, the plan's name, the scenarios, anything outside those
 * inputs (docs/run.md, "Stages").
 *
 * A cached stage is <cache>/build/<release>-<tree>/<arch>/configs/<key>/
 * holding config and stage.json, renamed into place whole: a reader never
 * sees half of one.
 */
#ifndef BP_CONFIGCACHE_H
#define BP_CONFIGCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/groups.h"
#include "util/sha256.h"

/* Bump when the JSON written for a stage changes. */
#define CONFIG_CACHE_VERSION "bootproof-config-cache/1"

struct configcache_key {
	const char *ksrc;	/* the tree */
	const char *release;
	const char *arch;
	const char *base;	/* in-tree targets, or a path (has a '/') */
	const char *toolchain;	/* configcache_toolchain() */
	const char *helper;	/* the explain helper's source file */
	/* A user's tree: ksrc_state's kconfig hash (what Kconfig reads);
	 * NULL for bootproof's unpack, which never changes. */
	const char *src_state;
	struct group *const *groups;	/* base groups, then the candidate's */
	size_t n_groups;
};

/* The key, SHA256_HEX_LEN hex digits + NUL in ret.  0, or -errno when a
 * file it hashes cannot be read. */
int configcache_key(const struct configcache_key *k, char *ret);

/* The first line of `gcc --version` and of `ld --version` (a line
 * "<prog>: ?" for one that does not run), run through adapters/proc.
 * Malloc'd. */
char *configcache_toolchain(void);

/* <cache>/build/<release>-<tree>/<arch>/configs/<key>; malloc'd or NULL. */
char *configcache_dir(const char *cache, const char *ksrc,
		      const char *release, const char *arch, const char *key);

/*
 * A cached stage in dir: its stage.json (new object, the caller's) with
 * "final_config" set to final_rel and "reused": true, "seconds" and
 * "cpu_seconds" 0 (their stored values moved to "first_seconds" and
 * "first_cpu_seconds"), its config copied to dst.  NULL when there is
 * none (or it cannot be copied).
 */
json_object *configcache_load(const char *dir, const char *dst,
			      const char *final_rel);

/*
 * Keep the stage j (written as stage.json) and the .config at config in
 * dir.  replace: a stage already there is replaced (a rebuild), else the
 * first one stays.  0 or -errno (nothing is left half written).
 */
int configcache_store(const char *dir, const char *config, json_object *j,
		      bool replace);

#endif
