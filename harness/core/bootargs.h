/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootargs: what `bootproof boot` can check of its arguments before it
 * starts a guest (pure).  Each check returns 0, or -EINVAL with a message
 * in err that names the option, the file and what is wrong: a typo in
 * --scenarios or --allow, or a file that is not what the option wants,
 * is bad input (exit 2), not a boot that runs and fails or silently
 * ignores it.
 */
#ifndef BP_BOOTARGS_H
#define BP_BOOTARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arch.h"
#include "util/strbuf.h"

/* Scenarios only the project's own tests ask for: the contract's test
 * scenarios (scenarios/contract.h), NULL-terminated. */
extern const char *const bootargs_test_scenarios[];

/* --scenarios: "none", or a comma-separated list of known scenarios
 * (group_known_scenarios, bootargs_test_scenarios), none repeated. */
int bootargs_check_scenarios(const char *list, struct strbuf *err);

/* --allow: a comma-separated list of console problem kinds (any case),
 * "warn" (WARNING) or "all".  PANIC cannot be allowed. */
int bootargs_check_allow(const char *list, struct strbuf *err);

/* --config PATH whose first bytes are buf: a kernel .config has lines
 * "CONFIG_X=..." or "# CONFIG_X is not set", and no NUL byte. */
int bootargs_check_config(const char *path, const char *buf, size_t len,
			  struct strbuf *err);

/* --vmlinux PATH whose first len bytes (at least 20 to judge) are hdr: an
 * ELF file of the guest architecture's class and machine. */
int bootargs_check_vmlinux(const char *path, const unsigned char *hdr,
			   size_t len, enum bp_arch arch, struct strbuf *err);

#endif
