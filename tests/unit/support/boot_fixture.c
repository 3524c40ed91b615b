// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>

#include "boot_fixture.h"
#include "fake_domain.h"
#include "util/fileio.h"
#include "util/paths.h"

int boot_fixture_setup(struct boot_fixture *f, const char *name)
{
	char stage[80];

	snprintf(f->dir, sizeof(f->dir), "/tmp/bp-test-%s-XXXXXX", name);
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(stage, sizeof(stage), "stage/bootproof-%s", name);
	f->run_dir = path_join(f->dir, "run");
	f->stage_dir = path_join(f->dir, stage);
	f->kernel = path_join(f->dir, "bzImage");
	f->updates = 0;
	if (mkdir_p(f->run_dir, 0755) < 0)
		return -1;
	return write_file_atomic(f->kernel, "not really a kernel", 19, 0644) < 0
		       ? -1
		       : 0;
}

void boot_fixture_teardown(struct boot_fixture *f)
{
	rm_rf(f->dir);
	free(f->run_dir);
	free(f->stage_dir);
	free(f->kernel);
}

struct boot_request boot_test_req(const char *name, const char *run_dir,
				  const char *stage_dir, const char *kernel)
{
	struct boot_request r = {
		.name = name,
		.arch = BP_ARCH_X86_64,
		.accel = BP_ACCEL_TCG,
		.uri = "fake:///",
		.kernel = kernel,
		.run_dir = run_dir,
		.prefix = "",
		.stage_dir = stage_dir,
		.ops = &fake_domain_ops,
		.quiet = true,
		.timeout_s = 30,
	};
	return r;
}

static void count_update(void *ud, json_object *rec)
{
	((struct boot_fixture *)ud)->updates++;
}

struct boot_request boot_fixture_req(struct boot_fixture *f, const char *name)
{
	struct boot_request r =
		boot_test_req(name, f->run_dir, f->stage_dir, f->kernel);

	r.on_update = count_update;
	r.ud = f;
	f->updates = 0;
	return r;
}
