// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config stage's cache (engine/configcache): what changes its key and
 * what does not (base, fragments' content and names, tree, release, arch,
 * compiler, the explain helper), the compiler probe (gcc/ld through the
 * dry-run hook of adapters/proc), a stage stored and found again, and the
 * tree part of the stage's directories.  The stage itself runs the kernel's
 * tooling: tests/integration/config.sh and tests/matrix/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/proc.h"
#include "core/groups.h"
#include "engine/buildstage.h"
#include "engine/configcache.h"
#include "engine/configstage.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/strbuf.h"

static char tmp[64];

static char *at(const char *rel)
{
	return path_join(tmp, rel);
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = at(rel);

	assert_int_equal(write_file_atomic(p, text, strlen(text), 0644), 0);
}

static struct group *group_of(const char *rel, const char *name)
{
	_cleanup_free_ char *p = at(rel);
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_free_ char *text = NULL;
	struct group *g = NULL;

	assert_true(strbuf_read_file(&sb, p, 1 << 20) >= 0);
	assert_true(asprintf(&text, "# group: %s\n%s", name, sb.buf) > 0);
	assert_int_equal(group_parse(p, text, strlen(text), 0, &g, NULL), 0);
	return g;
}

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-configstage-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	put("helper.c", "int main(void) { return 0; }\n");
	put("base.config", "CONFIG_A=y\n");
	put("g1.config", "CONFIG_B=y\n");
	put("g2.config", "CONFIG_C=y\n");
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	return 0;
}

/* The key of: an in-tree or file base, the groups g1 and g2. */
struct inputs {
	struct configcache_key k;
	struct group *g[2];
	char *helper, *base_file;
};

static void inputs_init(struct inputs *in)
{
	memset(in, 0, sizeof(*in));
	in->helper = at("helper.c");
	in->base_file = at("base.config");
	in->g[0] = group_of("g1.config", "g1");
	in->g[1] = group_of("g2.config", "g2");
	in->k = (struct configcache_key){
		.ksrc = "/usr/src/linux",
		.release = "6.12.118",
		.arch = "x86_64",
		.base = "tinyconfig",
		.toolchain = "gcc (Debian 14.2.0-19) 14.2.0\nGNU ld 2.44\n",
		.helper = in->helper,
		.groups = in->g,
		.n_groups = 2,
	};
}

static void inputs_done(struct inputs *in)
{
	group_free(in->g[0]);
	group_free(in->g[1]);
	free(in->helper);
	free(in->base_file);
}

static void key_of(const struct inputs *in, char *ret)
{
	assert_int_equal(configcache_key(&in->k, ret), 0);
	assert_int_equal(strlen(ret), SHA256_HEX_LEN);
}

/* Other bytes in the file rel change the key; the old ones give k0 back. */
static void file_changes_key(const struct inputs *in, const char *rel,
			     const char *other, const char *orig,
			     const char *k0)
{
	char k[SHA256_HEX_LEN + 1];

	put(rel, other);
	key_of(in, k);
	assert_string_not_equal(k, k0);
	put(rel, orig);
	key_of(in, k);
	assert_string_equal(k, k0);
}

static void test_key_stable(void **state)
{
	struct inputs in;
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];

	inputs_init(&in);
	key_of(&in, a);
	key_of(&in, b);
	assert_string_equal(a, b);
	/* The same bytes written again (a new mtime, a new inode): same. */
	put("g1.config", "CONFIG_B=y\n");
	put("helper.c", "int main(void) { return 0; }\n");
	key_of(&in, b);
	assert_string_equal(a, b);
	inputs_done(&in);
}

/* Each input on its own changes the key. */
static void test_key_changes(void **state)
{
	struct inputs in;
	char k0[SHA256_HEX_LEN + 1], k[SHA256_HEX_LEN + 1];

	inputs_init(&in);
	key_of(&in, k0);

#define CHANGED(field, value)                                                  \
	do {                                                                   \
		struct configcache_key save = in.k;                            \
		in.k.field = value;                                            \
		key_of(&in, k);                                                \
		assert_string_not_equal(k, k0);                                \
		in.k = save;                                                   \
	} while (0)
	CHANGED(ksrc, "/home/me/linux");
	CHANGED(release, "6.12.119");
	CHANGED(arch, "i386");
	CHANGED(base, "defconfig");
	CHANGED(base, "tinyconfig+kvm_guest.config");
	CHANGED(toolchain, "gcc (Debian 15.1.0-1) 15.1.0\nGNU ld 2.44\n");
	CHANGED(n_groups, 1);
	/* A user's tree whose Kconfig files changed. */
	CHANGED(src_state, "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
#undef CHANGED
	/* The groups' order. */
	{
		struct group *t = in.g[0];

		in.g[0] = in.g[1];
		in.g[1] = t;
		key_of(&in, k);
		assert_string_not_equal(k, k0);
		in.g[1] = in.g[0];
		in.g[0] = t;
	}
	/* A fragment's content, the helper's source. */
	file_changes_key(&in, "g2.config", "CONFIG_C=m\n", "CONFIG_C=y\n", k0);
	file_changes_key(&in, "helper.c", "int main(void) { return 1; }\n",
			 "int main(void) { return 0; }\n", k0);
	inputs_done(&in);
}

/* A fragment with the same bytes under another name is another key: its
 * name is in the stage's "source" lines. */
static void test_key_fragment_name(void **state)
{
	struct inputs in;
	char k0[SHA256_HEX_LEN + 1], k[SHA256_HEX_LEN + 1];

	inputs_init(&in);
	key_of(&in, k0);
	put("g3.config", "CONFIG_C=y\n");
	group_free(in.g[1]);
	in.g[1] = group_of("g3.config", "g2");
	key_of(&in, k);
	assert_string_not_equal(k, k0);
	inputs_done(&in);
}

/* A base that is a file: its bytes are in the key, not only its name. */
static void test_key_base_file(void **state)
{
	struct inputs in;
	char k0[SHA256_HEX_LEN + 1];

	inputs_init(&in);
	in.k.base = in.base_file;
	key_of(&in, k0);
	file_changes_key(&in, "base.config", "CONFIG_A=m\n", "CONFIG_A=y\n", k0);
	inputs_done(&in);
}

static void test_key_missing_file(void **state)
{
	struct inputs in;
	char k[SHA256_HEX_LEN + 1];
	_cleanup_free_ char *gone = at("gone.config");

	inputs_init(&in);
	free(in.g[1]->file);
	in.g[1]->file = strdup(gone);
	assert_int_equal(configcache_key(&in.k, k), -ENOENT);
	inputs_done(&in);
}

static int fake_version(const struct proc_cmd *cmd, struct proc_result *ret,
			void *opaque)
{
	int *n = opaque;

	(*n)++;
	assert_string_equal(cmd->argv[1], "--version");
	if (!strcmp(cmd->argv[0], "ld")) {
		ret->exited = true;
		ret->exit_status = 127;
		return 0;
	}
	ret->exited = true;
	strbuf_addstr(&ret->out, "gcc (Debian 14.2.0-19) 14.2.0\nCopyright\n");
	return 0;
}

static void test_toolchain(void **state)
{
	int n = 0;
	_cleanup_free_ char *t = NULL;

	proc_set_dry_run(fake_version, &n);
	t = configcache_toolchain();
	proc_set_dry_run(NULL, NULL);
	assert_int_equal(n, 2);
	assert_string_equal(t, "gcc (Debian 14.2.0-19) 14.2.0\nld: ?\n");
}

static void test_store_load(void **state)
{
	_cleanup_free_ char *dir = configcache_dir(tmp, "/usr/src/linux",
						   "6.12.118", "x86_64",
						   "0123abcd");
	_cleanup_free_ char *src = at("final.config");
	_cleanup_free_ char *dst = at("cand.config");
	_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
	json_object *j = json_object_new_object(), *back;
	double secs;

	assert_non_null(strstr(dir, "/build/6.12.118-"));
	assert_non_null(strstr(dir, "/x86_64/configs/0123abcd"));
	/* Nothing yet. */
	assert_null(configcache_load(dir, dst, "x86_64-base/config"));

	put("final.config", "CONFIG_A=y\n");
	json_object_object_add(j, "result", jsonx_new_str("pass"));
	json_object_object_add(j, "seconds", json_object_new_double(14.6));
	json_object_object_add(j, "cpu_seconds", json_object_new_double(14.1));
	assert_int_equal(configcache_store(dir, src, j, false), 0);
	back = configcache_load(dir, dst, "x86_64-base/config");
	assert_non_null(back);
	assert_string_equal(jsonx_str(back, "result"), "pass");
	/* A reused stage took nothing; what it took when it ran is kept. */
	assert_true(jsonx_num(back, "seconds", &secs) && secs == 0);
	assert_true(jsonx_num(back, "cpu_seconds", &secs) && secs == 0);
	assert_true(jsonx_num(back, "first_seconds", &secs) && secs == 14.6);
	assert_true(jsonx_num(back, "first_cpu_seconds", &secs) && secs == 14.1);
	assert_string_equal(jsonx_str(back, "final_config"), "x86_64-base/config");
	assert_true(json_object_get_boolean(jsonx_get(back, "reused")));
	assert_true(strbuf_read_file(&got, dst, 4096) > 0);
	assert_string_equal(got.buf, "CONFIG_A=y\n");
	json_object_put(back);

	/* Without replace the first stays; with it the new one is kept. */
	json_object_object_add(j, "result", jsonx_new_str("partial"));
	assert_int_equal(configcache_store(dir, src, j, false), 0);
	back = configcache_load(dir, dst, "x");
	assert_string_equal(jsonx_str(back, "result"), "pass");
	json_object_put(back);
	assert_int_equal(configcache_store(dir, src, j, true), 0);
	back = configcache_load(dir, dst, "x");
	assert_string_equal(jsonx_str(back, "result"), "partial");
	json_object_put(back);
	json_object_put(j);
}

/* The tree part of the config and build directories: the release and the
 * first 8 hex digits of the sha256 of the tree's path. */
static void test_tree_dirs(void **state)
{
	char hex[SHA256_HEX_LEN + 1], key[64], want[128];
	_cleanup_free_ char *odir = NULL, *ws = NULL;

	assert_int_equal(sha256_hex("/usr/src/linux", 14, hex), 0);
	assert_int_equal(buildstage_tree_key("/usr/src/linux", "6.12.118", key,
					     sizeof(key)), 0);
	snprintf(want, sizeof(want), "6.12.118-%.8s", hex);
	assert_string_equal(key, want);
	odir = configstage_default_odir("/c", "/usr/src/linux", "6.12.118",
					"i386");
	snprintf(want, sizeof(want), "/c/config/6.12.118-%.8s/i386", hex);
	assert_string_equal(odir, want);
	ws = buildstage_workdir("/c", "/usr/src/linux", "6.12.118", "i386",
				NULL);
	snprintf(want, sizeof(want), "/c/build/6.12.118-%.8s/i386", hex);
	assert_string_equal(ws, want);
}

/* The dry-run make: ended as proc_run ends a cancelled child when the
 * stage handed it a flag that is set, else a success that leaves no
 * .config behind. */
static int fake_make(const struct proc_cmd *cmd, struct proc_result *ret,
		     void *opaque)
{
	int *n = opaque;

	(*n)++;
	if (cmd->cancel && *cmd->cancel) {
		ret->cancelled = true;
		ret->term_signal = SIGTERM;
		return 0;
	}
	ret->exited = true;
	return 0;
}

/* An interrupt stops the stage's running command: -EINTR, said so,
 * after one command (the first make), with nothing else run. */
static void test_cancel(void **state)
{
	volatile sig_atomic_t flag = SIGINT;
	_cleanup_free_ char *odir = at("odir"), *ksrc = at("tree");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct configstage_result *res = NULL;
	struct configstage_opts o = {
		.ksrc = ksrc, .arch = "x86_64", .base = "x86_64_defconfig",
		.odir = odir, .cache = tmp, .datadir = tmp, .cancel = &flag,
	};
	_cleanup_free_ char *cfgs = at("tree/arch/x86/configs");
	int n = 0, r;

	assert_int_equal(mkdir_p(cfgs, 0755), 0);
	put("tree/arch/x86/configs/x86_64_defconfig", "CONFIG_A=y\n");
	put("tree/Makefile", "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\n"
			     "EXTRAVERSION =\n");
	proc_set_dry_run(fake_make, &n);
	r = configstage_run(&o, &res, &err);
	assert_int_equal(r, -EINTR);
	assert_null(res);
	assert_int_equal(n, 1);
	assert_non_null(strstr(err.buf, "make: interrupted"));
	/* no flag set: the same stage goes past that make */
	flag = 0;
	n = 0;
	r = configstage_run(&o, &res, &err);
	proc_set_dry_run(NULL, NULL);
	assert_int_not_equal(r, -EINTR);
	assert_true(n > 1);
	configstage_result_free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_stable),
		cmocka_unit_test(test_key_changes),
		cmocka_unit_test(test_key_fragment_name),
		cmocka_unit_test(test_key_base_file),
		cmocka_unit_test(test_key_missing_file),
		cmocka_unit_test(test_toolchain),
		cmocka_unit_test(test_store_load),
		cmocka_unit_test(test_tree_dirs),
		cmocka_unit_test(test_cancel),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
