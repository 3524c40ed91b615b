// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/groups.h"
#include "util/strbuf.h"

#define GROUPS_DIR TEST_DATA "/../../scenarios/groups"

static int parse(const char *file, const char *text, unsigned flags,
		 struct group **g, struct strbuf *err)
{
	return group_parse(file, text, strlen(text), flags, g, err);
}

static void test_strict_header(void **state)
{
	static const char text[] =
		"# group: bpf\n"
		"# arch: x86_64\n"
		"# scenarios: bpf, boot\n"
		"# from: 006-patch.patch\n"
		"# summary: first part,\n"
		"# summary:   second part\n"
		"# just a comment: with a colon\n"
		"\n"
		"CONFIG_BPF_SYSCALL=y\r\n"
		"# CONFIG_BPF_JIT is not set\n"
		"CONFIG_LOG_BUF_SHIFT=18\n";
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_group_ struct group *g = NULL;
	const struct kconfig_option *o;

	assert_int_equal(parse("g/bpf.config", text, GROUP_PARSE_STRICT, &g,
			       &err),
			 0);
	assert_string_equal(g->name, "bpf");
	assert_string_equal(g->arch, "x86_64");
	assert_int_equal(g->n_scenarios, 2);
	assert_string_equal(g->scenarios[0], "bpf");
	assert_string_equal(g->scenarios[1], "boot");
	assert_string_equal(g->from, "006-patch.patch");
	assert_string_equal(g->summary, "first part, second part");
	assert_string_equal(g->file, "g/bpf.config");
	assert_true(g->has_header);
	assert_int_equal(kconfig_count(g->options), 3);
	o = kconfig_find(g->options, "BPF_JIT");
	assert_non_null(o);
	assert_int_equal(o->kind, KCONFIG_NO);
	assert_string_equal(o->file, "g/bpf.config");
	assert_int_equal(o->line, 10);
	assert_true(group_for_arch(g, "x86_64"));
	assert_false(group_for_arch(g, "i386"));
	assert_true(group_has_scenario(g, "boot"));
	assert_false(group_has_scenario(g, "kgdb"));
}

static void test_lenient_without_header(void **state)
{
	/* The shape of the kernel's own kernel/configs/kvm_guest.config. */
	static const char text[] = "# Help: Bootable as a KVM guest\n"
				   "CONFIG_NET=y\n"
				   "CONFIG_VIRTIO=y\n";
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_group_ struct group *g = NULL;

	assert_int_equal(parse("/x/kvm_guest.config", text, 0, &g, &err), 0);
	assert_string_equal(g->name, "kvm_guest");
	assert_null(g->arch);
	assert_false(g->has_header);
	assert_true(group_for_arch(g, "i386"));
	assert_int_equal(g->n_scenarios, 1);
	assert_string_equal(g->scenarios[0], "boot");
	assert_null(g->from);
	assert_int_equal(kconfig_count(g->options), 2);
	group_free(g);
	g = NULL;
	/* The same file is not a group of scenarios/groups/. */
	assert_int_equal(parse("/x/kvm_guest.config", text, GROUP_PARSE_STRICT,
			       &g, &err),
			 -EINVAL);
	assert_null(g);
	assert_string_equal(err.buf, "/x/kvm_guest.config: missing header "
				     "line '# group: ...'");
}

static void test_lenient_partial_header(void **state)
{
	static const char text[] = "# scenarios: kgdb\nCONFIG_KGDB=y\n";
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_group_ struct group *g = NULL;

	assert_int_equal(parse("mine.config", text, 0, &g, &err), 0);
	assert_string_equal(g->name, "mine");
	assert_int_equal(g->n_scenarios, 1);
	assert_string_equal(g->scenarios[0], "kgdb");
}

struct bad_case {
	const char *text;
	unsigned flags;
	const char *msg;
};

static void test_errors_name_the_line(void **state)
{
	static const struct bad_case cases[] = {
		{ "# group: a\n# arch: x86_64\n# scenarios: boot,bfp\n"
		  "# from: x\nCONFIG_A=y\n",
		  0,
		  "f.config:3: unknown scenario 'bfp' (known: boot, bpf, "
		  "cgroups, userfaultfd, kgdb, mm)" },
		{ "# group: a\nCONFIG_A=y\n# arch: i386\n", 0,
		  "f.config:3: header line '# arch:' after the first option "
		  "(header comments come first)" },
		{ "# group: a\n# group: b\nCONFIG_A=y\n", 0,
		  "f.config:2: '# group:' given twice" },
		{ "# group: A b\nCONFIG_A=y\n", 0,
		  "f.config:1: invalid group name 'A b' (expected "
		  "[a-z0-9][a-z0-9_.-]*)" },
		{ "# arch: arm64\nCONFIG_A=y\n", 0,
		  "f.config:1: unknown arch 'arm64' (expected x86_64 or i386)" },
		{ "# scenarios:\nCONFIG_A=y\n", 0,
		  "f.config:1: empty '# scenarios:'" },
		{ "# scenarios: boot boot\nCONFIG_A=y\n", 0,
		  "f.config:1: scenario 'boot' named twice" },
		{ "# group: a\n# arch: i386\n# scenarios: boot\nCONFIG_A=y\n",
		  GROUP_PARSE_STRICT,
		  "f.config: missing header line '# from: ...'" },
		{ "# group: a\n# just comments\n", 0,
		  "f.config: no options (expected CONFIG_NAME=value or "
		  "'# CONFIG_NAME is not set' lines)" },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		struct group *g = NULL;

		assert_int_equal(parse("f.config", cases[i].text,
				       cases[i].flags, &g, &err),
				 -EINVAL);
		assert_null(g);
		assert_string_equal(err.buf, cases[i].msg);
	}
}

static void test_malformed_option_line(void **state)
{
	static const char text[] = "# group: a\n"
				   "CONFIG_A=y\n"
				   "CONFIG_B y\n";
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct group *g = NULL;

	assert_int_equal(parse("f.config", text, 0, &g, &err), -EINVAL);
	assert_null(g);
	/* kconfig_parse()'s message, with file:line. */
	assert_true(!strncmp(err.buf, "f.config:3: ", 12));
}

static void test_name_valid(void **state)
{
	assert_true(group_name_valid("sched-cgroups-ns"));
	assert_true(group_name_valid("demo_base.2"));
	assert_true(group_name_valid("9p"));
	assert_false(group_name_valid(""));
	assert_false(group_name_valid("-x"));
	assert_false(group_name_valid("Bpf"));
	assert_false(group_name_valid("a/b"));
	assert_false(group_name_valid("a b"));
	assert_false(group_name_valid(
		"a23456789012345678901234567890123456789012345678901234567890"
		"12345"));
}

static char *read_all(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 0) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static size_t load_dir(const char *arch, struct group **out, size_t max)
{
	char dir[4096];
	struct dirent **names;
	size_t n = 0;
	int count;

	snprintf(dir, sizeof(dir), "%s/%s", GROUPS_DIR, arch);
	count = scandir(dir, &names, NULL, alphasort);
	assert_true(count > 0);
	for (int i = 0; i < count; i++) {
		const char *d = names[i]->d_name;
		size_t len = strlen(d);
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		char path[4096 + 256];
		char *text;

		if (len > 7 && !strcmp(d + len - 7, ".config")) {
			snprintf(path, sizeof(path), "%s/%s", dir, d);
			text = read_all(path);
			assert_non_null(text);
			assert_true(n < max);
			if (group_parse(path, text, strlen(text),
					GROUP_PARSE_STRICT, &out[n], &err)) {
				print_error("%s\n", err.buf);
				fail();
			}
			free(text);
			/* The header's name is the file's. */
			assert_int_equal(strlen(out[n]->name), len - 7);
			assert_memory_equal(out[n]->name, d, len - 7);
			assert_string_equal(out[n]->arch, arch);
			n++;
		}
		free(names[i]);
	}
	free(names);
	return n;
}

static struct group *find(struct group **v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i]->name, name))
			return v[i];
	return NULL;
}

static void free_all(struct group **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		group_free(v[i]);
}

static void test_committed_groups(void **state)
{
	static const char *const seed64[] = {
		"kvm-host", "virt-guests", "bpf", "mm", "debug",
		"sched-cgroups-ns", "generic",
	};
	static const char *const demo[] = {
		"demo-base", "demo-bpf", "demo-cgroups", "demo-userfaultfd",
		"demo-kgdb",
	};
	static const char *const arches[] = { "x86_64", "i386" };
	struct group *v[64];

	for (size_t a = 0; a < ELEMENTSOF(arches); a++) {
		size_t n = load_dir(arches[a], v, ELEMENTSOF(v));

		for (size_t i = 0; i < ELEMENTSOF(demo); i++)
			assert_non_null(find(v, n, demo[i]));
		if (!strcmp(arches[a], "x86_64"))
			for (size_t i = 0; i < ELEMENTSOF(seed64); i++)
				assert_non_null(find(v, n, seed64[i]));
		/* Every group is proved by a scenario that boots it. */
		for (size_t i = 0; i < n; i++)
			assert_true(group_has_scenario(v[i], "boot"));
		free_all(v, n);
	}
}

/*
 * The seed groups are exactly what their patch adds: every "+CONFIG_X=v"
 * and "+# CONFIG_X is not set" line, in order, and nothing the patch only
 * removes.  The i386 groups together are the x86-32 sync patch.  Needs the
 * seed series ($BP_SEEDS, default /work/shared/seeds): skipped without it.
 */
static size_t patch_options(const char *patch, struct strbuf *lines)
{
	char *text = read_all(patch);
	size_t n = 0;

	assert_non_null(text);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		if (!strncmp(l, "+CONFIG_", 8) ||
		    (!strncmp(l, "+# CONFIG_", 10) && strstr(l, " is not set"))) {
			strbuf_addstr(lines, l + 1);
			strbuf_addch(lines, '\n');
			n++;
		}
	}
	free(text);
	return n;
}

static void group_lines(const struct group *g, struct strbuf *sb)
{
	for (size_t i = 0; i < kconfig_count(g->options); i++)
		kconfig_format_option(sb, kconfig_at(g->options, i));
}

static const char *seeds_dir(void)
{
	const char *e = getenv("BP_SEEDS");

	return e && *e ? e : "/work/shared/seeds";
}

static void test_seed_groups_match_patches(void **state)
{
	static const char *const map[][2] = {
		{ "kvm-host", "004-" }, { "virt-guests", "005-" },
		{ "bpf", "006-" },	{ "mm", "007-" },
		{ "debug", "008-" },	{ "sched-cgroups-ns", "009-" },
		{ "generic", "010-" },
	};
	struct group *v[64];
	DIR *d = opendir(seeds_dir());
	struct dirent *de;
	char patch[ELEMENTSOF(map) + 1][512] = { { 0 } };
	size_t n;

	if (!d) {
		skip();
		return;
	}
	while ((de = readdir(d)))
		for (size_t i = 0; i <= ELEMENTSOF(map); i++)
			if (!strncmp(de->d_name,
				     i < ELEMENTSOF(map) ? map[i][1] : "011-",
				     4))
				snprintf(patch[i], sizeof(patch[i]), "%s/%s",
					 seeds_dir(), de->d_name);
	closedir(d);

	n = load_dir("x86_64", v, ELEMENTSOF(v));
	for (size_t i = 0; i < ELEMENTSOF(map); i++) {
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf have = STRBUF_INIT;
		struct group *g = find(v, n, map[i][0]);
		const char *slash;

		assert_non_null(g);
		assert_true(patch[i][0]);
		assert_true(patch_options(patch[i], &want) > 0);
		group_lines(g, &have);
		assert_string_equal(have.buf, want.buf);
		slash = strrchr(patch[i], '/');
		assert_string_equal(g->from, slash + 1);
	}
	free_all(v, n);

	/* i386: the non-demo groups, in the patch's order, make up 011. */
	{
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf have = STRBUF_INIT;
		const char *p = patch[ELEMENTSOF(map)];
		size_t total = 0, nwant;
		char *copy;

		assert_true(p[0]);
		nwant = patch_options(p, &want);
		n = load_dir("i386", v, ELEMENTSOF(v));
		for (size_t i = 0; i < n; i++) {
			if (!strncmp(v[i]->name, "demo-", 5))
				continue;
			assert_string_equal(v[i]->from, strrchr(p, '/') + 1);
			total += kconfig_count(v[i]->options);
			/* each of its lines is a line of the patch */
			strbuf_reset(&have);
			group_lines(v[i], &have);
			copy = strdup(have.buf);
			for (char *l = strtok(copy, "\n"); l;
			     l = strtok(NULL, "\n")) {
				char needle[256];

				snprintf(needle, sizeof(needle), "%s\n", l);
				if (!strstr(want.buf, needle)) {
					print_error("%s: '%s' not in %s\n",
						    v[i]->name, l, p);
					fail();
				}
			}
			free(copy);
		}
		/* ... and together they cover all of it, once. */
		assert_int_equal(total, nwant);
		free_all(v, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict_header),
		cmocka_unit_test(test_lenient_without_header),
		cmocka_unit_test(test_lenient_partial_header),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_malformed_option_line),
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_committed_groups),
		cmocka_unit_test(test_seed_groups_match_patches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
