/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config_refresh: `bootproof config --refresh NEW`, called by verb_config
 * once it has parsed the options and found the tree (docs/config.md).
 */
#ifndef BP_VERBS_CONFIG_REFRESH_H
#define BP_VERBS_CONFIG_REFRESH_H

#include <stdbool.h>

struct config_refresh_args {
	const char *arch;
	const char *old, *new;	/* --base and --refresh, as given */
	const char *ksrc;	/* the tree, absolute */
	const char *odir;	/* absolute: old/ and new/ go in it */
	const char *cache, *datadir;
	bool json;
};

/* Run the audit and print it.  Returns the exit code: 0 the final .config
 * is the same, 1 it differs, 2 bad input, 3 infrastructure. */
int config_refresh(const struct config_refresh_args *a);

#endif
