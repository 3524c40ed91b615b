// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof-fakestages: the bootproof program with fake config, build and
 * boot stages (no kernel tree, compiler or guest), for tests of what runs
 * around the matrix: `run --shard`, `merge`, `report`, `kcidb`, the CI
 * matrix of docs/ci/ (tests/integration/ci-matrix.sh).  Linked from
 * harness/main.c and the library with
 *
 *	-Wl,--wrap=matrix_run: the real matrix with these stages;
 *	-Wl,--wrap=ksrc_resolve,--wrap=ksrc_release,--wrap=ksrc_is_unpacked:
 *		the tree is FAKE_KSRC, Linux FAKE_RELEASE, never unpacked;
 *	-Wl,--wrap=guesthost_accel: TCG, without a probe guest.
 *
 * Stages: the config is one line per group of the candidate (so its hash
 * is a function of the candidate); the build "makes" files named after
 * that hash under $BOOTPROOF_CACHE/fake-kernels/; the boot passes every
 * scenario of the candidate but the one named by $BP_FAKE_FAIL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch.h"
#include "core/matrixrec.h"
#include "engine/guesthost.h"
#include "engine/matrix.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/strbuf.h"

#define FAKE_KSRC "/nonexistent/fake-linux-6.12"
#define FAKE_RELEASE "6.12.0-fake"

int __real_matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
		      struct strbuf *err);
int __wrap_matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
		      struct strbuf *err);
int __wrap_ksrc_resolve(const char *arg, const char *cache, char **ret,
			struct strbuf *err);
int __wrap_ksrc_release(const char *dir, char **ret);
bool __wrap_ksrc_is_unpacked(const char *tarball, const char *dir);
int __wrap_guesthost_accel(const char *mode,
			   const struct accel_probe_opts *probe,
			   enum bp_accel *ret, char *reason, size_t n);

static int put(const char *path, const char *text)
{
	return write_file_atomic(path, text, strlen(text), 0644);
}

static unsigned fake_config(void *ud, const struct matrix_stage *st,
			    json_object **ret)
{
	_cleanup_free_ char *p = path_join(st->dir, "config");
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, rel = STRBUF_INIT;
	json_object *j = json_object_new_object();

	strbuf_addf(&text, "# fake config of %s\nCONFIG_FAKE_ARCH=\"%s\"\n",
		    st->cand->id, st->cand->as->arch);
	for (size_t i = 0; i < st->cand->n_groups; i++)
		strbuf_addf(&text, "CONFIG_FAKE_GROUP_%zu=\"%s\"\n", i,
			    st->cand->groups[i]->name);
	if (put(p, text.buf) < 0)
		return MATRIX_STAGE_INFRA;
	strbuf_addf(&rel, "%s/config", st->cand->id);
	json_object_object_add(j, "result", jsonx_new_str("pass"));
	json_object_object_add(j, "error", NULL);
	json_object_object_add(j, "release", jsonx_new_str(FAKE_RELEASE));
	json_object_object_add(j, "final_config", jsonx_new_str(rel.buf));
	json_object_object_add(j, "dropped", json_object_new_int(0));
	json_object_object_add(j, "options", json_object_new_array());
	json_object_object_add(j, "stale_base", json_object_new_array());
	*ret = j;
	return 0;
}

static unsigned fake_build(void *ud, const struct matrix_stage *st,
			   json_object **ret)
{
	_cleanup_free_ char *cache = bp_cache_dir(), *conf = NULL, *kdir = NULL;
	_cleanup_free_ char *bz = NULL, *vm = NULL, *log = NULL;
	_cleanup_strbuf_ struct strbuf sub = STRBUF_INIT, rel = STRBUF_INIT;
	char hash[SHA256_HEX_LEN + 1];
	struct matrixrec_build b = { .status = "pass" };

	conf = path_join(st->dir, "config");
	log = path_join(st->dir, "build.log");
	if (!cache || sha256_file_hex(conf, hash) < 0)
		return MATRIX_STAGE_INFRA;
	strbuf_addf(&sub, "fake-kernels/%s", hash);
	kdir = path_join(cache, sub.buf);
	bz = path_join(kdir, "bzImage");
	vm = path_join(kdir, "vmlinux");
	if (mkdir_p(kdir, 0755) < 0 || put(bz, "fake bzImage\n") < 0 ||
	    put(vm, "fake vmlinux\n") < 0 || put(log, "fake build\n") < 0)
		return MATRIX_STAGE_INFRA;
	strbuf_addf(&rel, "%s/build.log", st->cand->id);
	b.log = rel.buf;
	b.hash = hash;
	b.bzimage = bz;
	b.vmlinux = vm;
	b.config = conf;
	b.dir = kdir;
	b.kernelrelease = FAKE_RELEASE;
	b.seconds = b.built_seconds = b.cpu_seconds = 1;
	*ret = matrixrec_build(&b, FAKE_KSRC);
	return 0;
}

static unsigned fake_boot(void *ud, const struct matrix_stage *st,
			  json_object **ret)
{
	const char *fail = getenv("BP_FAKE_FAIL");
	json_object *j = json_object_new_object(), *sc = json_object_new_array();
	_cleanup_free_ char *names = strdup(st->cand->scenarios);
	char *save = NULL;

	for (char *s = strtok_r(names, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		json_object *o = json_object_new_object();
		bool bad = fail && !strcmp(fail, s);

		json_object_object_add(o, "name", jsonx_new_str(s));
		json_object_object_add(o, "result",
				       jsonx_new_str(bad ? "fail" : "pass"));
		json_object_object_add(o, "reason",
				       jsonx_new_str(bad ? "BP_FAKE_FAIL" : NULL));
		json_object_array_add(sc, o);
	}
	json_object_object_add(j, "name", jsonx_new_str(st->cand->name));
	json_object_object_add(j, "arch", jsonx_new_str(st->cand->as->arch));
	json_object_object_add(j, "verdict", jsonx_new_str("BOOTED"));
	json_object_object_add(j, "reason", NULL);
	json_object_object_add(j, "scenarios", sc);
	json_object_object_add(j, "complete", json_object_new_boolean(1));
	*ret = j;
	return 0;
}

static const struct matrix_stage_ops fake_ops = {
	.config = fake_config,
	.build = fake_build,
	.boot = fake_boot,
};

int __wrap_matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
		      struct strbuf *err)
{
	struct matrix_opts f = *o;

	f.stages = &fake_ops;
	f.stages_ud = NULL;
	return __real_matrix_run(&f, ret, err);
}

int __wrap_ksrc_resolve(const char *arg, const char *cache, char **ret,
			struct strbuf *err)
{
	*ret = strdup(arg ? arg : FAKE_KSRC);
	return *ret ? 0 : -ENOMEM;
}

int __wrap_ksrc_release(const char *dir, char **ret)
{
	*ret = strdup(FAKE_RELEASE);
	return *ret ? 0 : -ENOMEM;
}

bool __wrap_ksrc_is_unpacked(const char *tarball, const char *dir)
{
	return true;
}

int __wrap_guesthost_accel(const char *mode,
			   const struct accel_probe_opts *probe,
			   enum bp_accel *ret, char *reason, size_t n)
{
	*ret = BP_ACCEL_TCG;
	snprintf(reason, n, "TCG (fake stages: no guest runs)");
	return 0;
}
