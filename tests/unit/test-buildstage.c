// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * buildstage with make replaced by the dry-run hook of adapters/proc: the
 * steps it runs (olddefconfig, bzImage [modules], modules_install) with
 * their arguments, what it publishes in the artifact cache, reuse, and a
 * failed build.  The stand-in make writes what Kbuild would: the kernel
 * images and kernel.release in O=, the modules under INSTALL_MOD_PATH.
 * Real kernel builds are tests/matrix/ (make check-matrix).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/proc.h"
#include "engine/buildstage.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

#define RELEASE "6.12.118"

struct fake_make {
	struct strbuf calls;	/* one line per make: its targets and extras */
	int n;
	const char *fail_target; /* this target exits 2 with an error line */
};

static char dir[64];
static char *ksrc, *cache, *log_path;

static void put(const char *path, const char *text)
{
	_cleanup_free_ char *copy = strdup(path);
	char *slash = strrchr(copy, '/');

	*slash = '\0';
	assert_int_equal(mkdir_p(copy, 0755), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text), 0644), 0);
}

static bool exists(const char *d, const char *rel)
{
	_cleanup_free_ char *p = path_join(d, rel);
	struct stat st;

	return stat(p, &st) == 0;
}

static const char *arg_value(const struct proc_cmd *cmd, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; cmd->argv[i]; i++)
		if (!strncmp(cmd->argv[i], name, n) && cmd->argv[i][n] == '=')
			return cmd->argv[i] + n + 1;
	return NULL;
}

static int fake_make(const struct proc_cmd *cmd, struct proc_result *ret,
		     void *opaque)
{
	struct fake_make *fm = opaque;
	const char *obj = arg_value(cmd, "O");
	const char *mp = arg_value(cmd, "INSTALL_MOD_PATH");
	size_t first = 0;

	assert_string_equal(cmd->argv[0], "make");
	assert_non_null(obj);
	fm->n++;
	/* The targets: what follows -jN and any NAME=value. */
	for (size_t i = 0; cmd->argv[i]; i++)
		if (!strncmp(cmd->argv[i], "-j", 2))
			first = i + 1;
	for (size_t i = first; cmd->argv[i]; i++)
		if (!strchr(cmd->argv[i], '='))
			strbuf_addf(&fm->calls, "%s ", cmd->argv[i]);
	if (mp)
		strbuf_addstr(&fm->calls, "+INSTALL_MOD_PATH ");
	strbuf_trim(&fm->calls);
	strbuf_addch(&fm->calls, '\n');

	ret->exited = true;
	for (size_t i = first; cmd->argv[i]; i++) {
		const char *t = cmd->argv[i];
		char p[512];

		if (fm->fail_target && !strcmp(t, fm->fail_target)) {
			static const char e[] =
				"init/main.c:12:1: error: expected ';' before '}' token\n";
			cmd->on_output(cmd->ud, 2, e, sizeof(e) - 1);
			ret->exit_status = 2;
			return 0;
		}
		if (!strcmp(t, "bzImage")) {
			snprintf(p, sizeof(p), "%s/arch/x86/boot/bzImage", obj);
			put(p, "a bzImage\n");
			snprintf(p, sizeof(p), "%s/vmlinux", obj);
			put(p, "an ELF\n");
			snprintf(p, sizeof(p), "%s/System.map", obj);
			put(p, "ffffffff81000000 T _text\n");
			snprintf(p, sizeof(p), "%s/include/config/kernel.release", obj);
			put(p, RELEASE "\n");
		} else if (!strcmp(t, "modules_install")) {
			assert_non_null(mp);
			snprintf(p, sizeof(p), "%s/lib/modules/" RELEASE "/modules.dep",
				 mp);
			put(p, "kernel/drivers/virtio/virtio_mem.ko:\n");
		}
	}
	cmd->on_output(cmd->ud, 1, "  CC      init/main.o\n", 22);
	return 0;
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/bp-test-buildstage-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	ksrc = path_join(dir, "linux");
	cache = path_join(dir, "cache");
	log_path = path_join(dir, "build.log");
	return mkdir_p(ksrc, 0755) < 0 || mkdir_p(cache, 0755) < 0;
}

static int teardown(void **state)
{
	proc_set_dry_run(NULL, NULL);
	rm_rf(dir);
	free(ksrc);
	free(cache);
	free(log_path);
	return 0;
}

static struct buildstage_opts opts(const char *config)
{
	return (struct buildstage_opts){
		.ksrc = ksrc, .release = RELEASE, .arch = "x86_64",
		.config = config, .cache = cache, .log = log_path, .jobs = 2,
	};
}

/* A .config with modules: three makes, in order, each with its own
 * targets (the steps' target lists must outlive the statement that made
 * them: ASan in make check sees a use after scope), then the artifacts
 * and the modules are published; the same .config again is reused
 * without a make. */
static void test_modules(void **state)
{
	_cleanup_free_ char *cfg = path_join(dir, "mod.config");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake_make fm = { .calls = STRBUF_INIT };
	struct buildstage_opts o = opts(cfg);
	struct buildstage_result r;

	put(cfg, "CONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_VIRTIO_MEM=m\n");
	proc_set_dry_run(fake_make, &fm);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	assert_false(r.reused);
	assert_string_equal(fm.calls.buf, "olddefconfig\n"
					  "bzImage modules\n"
					  "modules_install +INSTALL_MOD_PATH\n");
	assert_string_equal(r.kernelrelease, RELEASE);
	assert_non_null(r.modules);
	assert_non_null(strstr(r.modules, "/modules/lib/modules/" RELEASE));
	assert_true(exists(r.modules, "modules.dep"));
	for (const char *const *f = (const char *const[]){ "bzImage", "vmlinux",
		"System.map", "config", "build.log", "build.json", NULL }; *f; f++)
		assert_true(exists(r.dir, *f));
	buildstage_result_done(&r);

	strbuf_reset(&fm.calls);
	fm.n = 0;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	assert_int_equal(fm.n, 0);
	assert_non_null(r.modules);
	buildstage_result_done(&r);
	strbuf_release(&fm.calls);
}

/* Without CONFIG_MODULES: two makes, no modules. */
static void test_no_modules(void **state)
{
	_cleanup_free_ char *cfg = path_join(dir, "nomod.config");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake_make fm = { .calls = STRBUF_INIT };
	struct buildstage_opts o = opts(cfg);
	struct buildstage_result r;

	put(cfg, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\n");
	proc_set_dry_run(fake_make, &fm);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	assert_string_equal(fm.calls.buf, "olddefconfig\nbzImage\n");
	assert_null(r.modules);
	assert_true(exists(r.dir, "bzImage"));
	buildstage_result_done(&r);
	strbuf_release(&fm.calls);
}

/* A user's tree (src_state set): its build is reused only from the same
 * state; after an edit the same .config is built again (make runs, and
 * Kbuild recompiles what changed; the tree's .config is left alone, so no
 * olddefconfig) and its record replaced, so the next run of the edited
 * tree reuses the new kernel, not the old one. */
static void test_src_state(void **state)
{
	_cleanup_free_ char *cfg = path_join(dir, "src.config");
	_cleanup_free_ char *meta = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake_make fm = { .calls = STRBUF_INIT };
	struct buildstage_opts o = opts(cfg);
	struct buildstage_result r;
	json_object *j;

	put(cfg, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\n# src\n");
	proc_set_dry_run(fake_make, &fm);
	o.src_state = "1111";
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	buildstage_result_done(&r);

	fm.n = 0;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	assert_int_equal(fm.n, 0);
	buildstage_result_done(&r);

	o.src_state = "2222";			/* a file was edited */
	strbuf_reset(&fm.calls);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	assert_false(r.reused);
	/* The O= tree holds this .config: make alone, no olddefconfig. */
	assert_int_equal(fm.n, 1);
	assert_string_equal(fm.calls.buf, "bzImage\n");
	meta = path_join(r.dir, "build.json");
	buildstage_result_done(&r);
	assert_non_null(j = json_object_from_file(meta));
	assert_string_equal(jsonx_str(j, "source_state"), "2222");
	json_object_put(j);

	fm.n = 0;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	assert_int_equal(fm.n, 0);
	buildstage_result_done(&r);

	/* bootproof's own tree (no state): the .config alone decides. */
	o.src_state = NULL;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	buildstage_result_done(&r);
	strbuf_release(&fm.calls);
}

/* What each make got: "CC=... -jN NAME=value..." (its environment). */
struct env_make {
	struct fake_make fm;
	struct strbuf seen;
};

static int env_make(const struct proc_cmd *cmd, struct proc_result *ret,
		    void *opaque)
{
	struct env_make *em = opaque;

	for (size_t i = 0; cmd->argv[i]; i++)
		if (!strncmp(cmd->argv[i], "-j", 2) ||
		    !strncmp(cmd->argv[i], "CC=", 3))
			strbuf_addf(&em->seen, "%s ", cmd->argv[i]);
	for (size_t i = 0; cmd->env && cmd->env[i]; i++)
		if (strncmp(cmd->env[i], "CCACHE_DIR=", 11) &&
		    strncmp(cmd->env[i], "CCACHE_STATSLOG=", 16))
			strbuf_addf(&em->seen, "%s ", cmd->env[i]);
	strbuf_addch(&em->seen, '\n');
	return fake_make(cmd, ret, &em->fm);
}

/* On a distcc farm: make -j the farm's slots, ccache's misses through
 * distcc (CCACHE_PREFIX) on the farm's hosts, distcc's state in the
 * cache; the log, build.json and the result name the farm; reused, the
 * result still says which farm built it.  Without a farm none of it. */
static void test_distcc(void **state)
{
	_cleanup_free_ char *cfg = path_join(dir, "farm.config");
	_cleanup_free_ char *ccache = NULL, *want = NULL, *ddir = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, logtext = STRBUF_INIT;
	struct env_make em = { { .calls = STRBUF_INIT }, STRBUF_INIT };
	struct buildstage_opts o = opts(cfg);
	struct buildstage_result r;
	const char *cc = proc_find_program("ccache", &ccache) == 0 ? "ccache gcc"
								    : "distcc gcc";

	o.jobs = 0;
	o.distcc_hosts = "10.253.1.2/2 10.253.2.2/3";
	o.distcc_slots = 5;
	ddir = path_join(cache, "distcc");
	assert_true(asprintf(&want, "CC=%s -j5 DISTCC_HOSTS=10.253.1.2/2 "
			     "10.253.2.2/3 DISTCC_DIR=%s CCACHE_PREFIX=distcc \n",
			     cc, ddir) > 0);
	put(cfg, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\n# farm\n");
	proc_set_dry_run(env_make, &em);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	/* (the arguments come first, then the environment) */
	{
		const char *nl = strchr(em.seen.buf, '\n');

		assert_non_null(nl);
		assert_memory_equal(em.seen.buf, want, (size_t)(nl - em.seen.buf) + 1);
	}
	assert_true(exists(cache, "distcc"));
	/* what the shards' split reads: the build's measured seconds */
	{
		double secs = -1;
		_cleanup_free_ char *other = path_join(dir, "never-built.config");

		assert_int_equal(buildstage_measured(cache, ksrc, RELEASE, cfg,
						     &secs), 0);
		assert_true(secs >= 0 && secs == r.seconds);
		put(other, "CONFIG_NEVER=y\n");
		assert_int_equal(buildstage_measured(cache, ksrc, RELEASE, other,
						     &secs), -ENOENT);
	}
	assert_string_equal(r.distcc, "10.253.1.2/2 10.253.2.2/3");
	assert_true(strbuf_read_file(&logtext, log_path, 1 << 20) > 0);
	assert_non_null(strstr(logtext.buf, "bootproof: compiling on the distcc "
				       "farm 10.253.1.2/2 10.253.2.2/3 (make -j5"));
	buildstage_result_done(&r);
	/* --jobs wins over the farm's slots */
	o.jobs = 7;
	o.rebuild = true;
	strbuf_reset(&em.seen);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_non_null(strstr(em.seen.buf, " -j7 DISTCC_HOSTS="));
	buildstage_result_done(&r);
	/* reused: the farm that built it */
	o.rebuild = false;
	o.distcc_hosts = NULL;
	strbuf_reset(&em.seen);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	assert_string_equal(em.seen.buf, "");
	assert_string_equal(r.distcc, "10.253.1.2/2 10.253.2.2/3");
	buildstage_result_done(&r);
	/* here: nothing of distcc */
	put(cfg, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\n# here\n");
	o.jobs = 2;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_null(strstr(em.seen.buf, "DISTCC"));
	assert_null(strstr(em.seen.buf, "distcc"));
	assert_null(r.distcc);
	buildstage_result_done(&r);
	strbuf_release(&em.fm.calls);
	strbuf_release(&em.seen);
}

/* The compiler fails: FAIL with its error line, kept as a failure that
 * the next request finds without building. */
static void test_fail(void **state)
{
	_cleanup_free_ char *cfg = path_join(dir, "broken.config");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake_make fm = { .calls = STRBUF_INIT, .fail_target = "bzImage" };
	struct buildstage_opts o = opts(cfg);
	struct buildstage_result r;

	put(cfg, "CONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_WERROR=y\n");
	proc_set_dry_run(fake_make, &fm);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_FAIL);
	assert_string_equal(fm.calls.buf, "olddefconfig\nbzImage modules\n");
	assert_non_null(r.error.text);
	assert_non_null(strstr(r.error.text, "expected ';'"));
	assert_string_equal(r.error.file, "init/main.c");
	assert_null(r.bzimage);
	buildstage_result_done(&r);

	fm.n = 0;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_FAIL);
	assert_true(r.reused);
	assert_int_equal(fm.n, 0);
	buildstage_result_done(&r);
	strbuf_release(&fm.calls);
}

/* The measure's previous_config, "" when null. */
static const char *previous(const struct buildstage_result *r)
{
	json_object *m = r->measure, *v = NULL;

	assert_non_null(m);
	json_object_object_get_ex(m, "previous_config", &v);
	return v ? json_object_get_string(v) : "";
}

/* opts.after: an "each" candidate's build starts from its base.  The O=
 * tree holding the base already: one build; holding another: the base is
 * built first (not published), then the candidate; the measure names the
 * base as the tree's previous configuration either way. */
static void test_after(void **state)
{
	_cleanup_free_ char *a = path_join(dir, "base.config");
	_cleanup_free_ char *b = path_join(dir, "g1.config");
	_cleanup_free_ char *c = path_join(dir, "g2.config");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake_make fm = { .calls = STRBUF_INIT };
	struct buildstage_opts o = opts(a);
	struct buildstage_result r, base;

	put(a, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\nCONFIG_BASE=y\n");
	put(b, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\nCONFIG_BPF=y\n");
	put(c, "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\nCONFIG_UFFD=y\n");
	proc_set_dry_run(fake_make, &fm);
	assert_int_equal(buildstage_run(&o, &base, &err), 0);
	assert_int_equal(base.status, BUILDSTAGE_PASS);
	assert_non_null(base.measure);

	o.config = b;
	o.after = a;
	strbuf_reset(&fm.calls);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	assert_string_equal(fm.calls.buf, "olddefconfig\nbzImage\n");
	assert_string_equal(previous(&r), base.hash);
	buildstage_result_done(&r);

	o.config = c;
	strbuf_reset(&fm.calls);
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_PASS);
	assert_string_equal(fm.calls.buf, "olddefconfig\nbzImage\n"
					  "olddefconfig\nbzImage\n");
	assert_string_equal(previous(&r), base.hash);
	/* the measure is kept with the artifacts and found again */
	buildstage_result_done(&r);
	fm.n = 0;
	assert_int_equal(buildstage_run(&o, &r, &err), 0);
	assert_int_equal(r.status, BUILDSTAGE_REUSED);
	assert_int_equal(fm.n, 0);
	assert_string_equal(previous(&r), base.hash);
	buildstage_result_done(&r);
	buildstage_result_done(&base);
	strbuf_release(&fm.calls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_no_modules),
		cmocka_unit_test(test_src_state),
		cmocka_unit_test(test_distcc),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_after),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
