/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the boot engine's unit tests share: a temporary directory with a
 * run directory, a staging path and a stand-in kernel file, and a boot
 * request through the fake domain ops (fake_domain.h).
 */
#ifndef BP_BOOT_FIXTURE_H
#define BP_BOOT_FIXTURE_H

#include "engine/boot.h"

struct boot_fixture {
	char dir[64];	/* /tmp/bp-test-<name>-XXXXXX, removed by teardown */
	char *run_dir;	/* dir/run, created */
	char *stage_dir; /* dir/stage/bootproof-<name>, not created */
	char *kernel;	/* dir/bzImage: a file, not a kernel */
	int updates;	/* on_update calls since the last boot_fixture_req */
};

/* 0, or -1 when the directory or the kernel file cannot be made. */
int boot_fixture_setup(struct boot_fixture *f, const char *name);
void boot_fixture_teardown(struct boot_fixture *f);

/* A quiet x86_64 TCG boot of kernel through fake_domain_ops, 30 s. */
struct boot_request boot_test_req(const char *name, const char *run_dir,
				  const char *stage_dir, const char *kernel);

/* The same in f's directories, counting record updates in f->updates
 * (reset to 0). */
struct boot_request boot_fixture_req(struct boot_fixture *f,
				     const char *name);

#endif
