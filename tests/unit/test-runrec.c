// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runrec: a run directory and its run.json.  rename(2) and write(2) are
 * wrapped (-Wl,--wrap, tests/unit/tests.mk) to look at both files at the
 * moment run.json is replaced (the new one whole in its temporary file,
 * the old one still whole in place), and to cut a write short as a full
 * disk would: what survives is the previous complete run.json, and no
 * temporary file is left behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/runrec.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

int __real_rename(const char *old, const char *new);
int __wrap_rename(const char *old, const char *new);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static struct {
	bool look;		/* check the files at each rename */
	int renames;
	struct strbuf order;	/* base names renamed to, in order */
	int fail_rename;	/* errno for the next rename, or 0 */
	bool cut_write;		/* the next write: half of it, then ENOSPC */
	/* What the files held at the last rename into run.json. */
	json_object *tmp_doc, *old_doc;
	bool old_existed;
} w;

static json_object *read_json(const char *path)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 16u << 20) < 0)
		return NULL;
	return json_tokener_parse(sb.buf);
}

int __wrap_rename(const char *old, const char *new)
{
	const char *base = strrchr(new, '/') ? strrchr(new, '/') + 1 : new;

	w.renames++;
	strbuf_addf(&w.order, "%s ", base);
	if (w.look && !strcmp(base, "run.json")) {
		json_object_put(w.tmp_doc);
		json_object_put(w.old_doc);
		w.tmp_doc = read_json(old);
		w.old_existed = access(new, F_OK) == 0;
		w.old_doc = read_json(new);
	}
	if (w.fail_rename) {
		errno = w.fail_rename;
		w.fail_rename = 0;
		return -1;
	}
	return __real_rename(old, new);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (w.cut_write && n > 1) {
		w.cut_write = false;
		if (__real_write(fd, buf, n / 2) < 0)
			return -1;
		errno = ENOSPC;
		return -1;
	}
	return __real_write(fd, buf, n);
}

static char tmp[64];
static char *base;

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-runrec-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	base = path_join(tmp, "results");
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	free(base);
	json_object_put(w.tmp_doc);
	json_object_put(w.old_doc);
	strbuf_release(&w.order);
	return 0;
}

static int reset(void **state)
{
	json_object_put(w.tmp_doc);
	json_object_put(w.old_doc);
	strbuf_release(&w.order);
	memset(&w, 0, sizeof(w));
	w.order = (struct strbuf)STRBUF_INIT;
	return 0;
}

static struct run *open_run(void)
{
	char *argv[] = { "bootproof", "boot", "--scenarios", "boot", NULL };
	struct run *r = NULL;

	assert_int_equal(run_open(base, "x86_64", "boot", 4, argv, &r), 0);
	return r;
}

static json_object *on_disk(const struct run *r)
{
	_cleanup_free_ char *p = run_path(r, "run.json");

	return read_json(p);
}

static void slurp(const struct run *r, struct strbuf *sb)
{
	_cleanup_free_ char *p = run_path(r, "run.json");

	strbuf_reset(sb);
	assert_true(strbuf_read_file(sb, p, 16u << 20) > 0);
}

/* Only run.json (and junit.xml once closed): no temporary file left. */
static void only_results(const struct run *r)
{
	DIR *d = opendir(r->dir);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "run.json") &&
		    strcmp(de->d_name, "junit.xml"))
			fail_msg("left in the run directory: %s", de->d_name);
	closedir(d);
}

static json_object *boot_named(const char *name)
{
	json_object *b = json_object_new_object();

	json_object_object_add(b, "name", jsonx_new_str(name));
	json_object_object_add(b, "verdict", jsonx_new_str("BOOTED"));
	json_object_object_add(b, "scenarios", json_object_new_array());
	return b;
}

static void test_open(void **state)
{
	struct run *r = open_run(), *r2 = open_run();
	json_object *doc = on_disk(r);
	regex_t re;

	assert_int_equal(regcomp(&re, "^[0-9]{8}-[0-9]{6}-x86_64-[0-9a-f]{6}$",
				 REG_EXTENDED | REG_NOSUB), 0);
	assert_int_equal(regexec(&re, r->id, 0, NULL, 0), 0);
	regfree(&re);
	/* Two runs in the same second never share a directory. */
	assert_string_not_equal(r->dir, r2->dir);
	assert_non_null(doc);
	assert_string_equal(jsonx_str(doc, "schema"), RUNREC_SCHEMA);
	assert_string_equal(jsonx_str(doc, "run_id"), r->id);
	assert_string_equal(jsonx_str(doc, "command"), "boot");
	assert_int_equal(json_object_array_length(jsonx_get(doc, "argv")), 4);
	/* Until closed the record says it is not complete. */
	assert_false(json_object_get_boolean(jsonx_get(doc, "complete")));
	assert_null(jsonx_get(doc, "exit_code"));
	assert_null(jsonx_get(doc, "finished"));
	assert_int_equal(json_object_array_length(jsonx_get(doc, "boots")), 0);
	json_object_put(doc);
	only_results(r);
	run_free(r);
	run_free(r2);
}

/* At the moment of the rename the new record is whole in its temporary
 * file and the previous one whole in place. */
static void test_save_via_rename(void **state)
{
	struct run *r = open_run();
	json_object *doc;

	run_set_boot(r, 0, boot_named("a"));
	w.look = true;
	w.renames = 0;
	assert_int_equal(run_save(r), 0);
	assert_int_equal(w.renames, 1);
	assert_non_null(w.tmp_doc);
	assert_int_equal(json_object_array_length(jsonx_get(w.tmp_doc, "boots")), 1);
	assert_true(w.old_existed);
	assert_non_null(w.old_doc);
	assert_int_equal(json_object_array_length(jsonx_get(w.old_doc, "boots")), 0);
	doc = on_disk(r);
	assert_int_equal(json_object_array_length(jsonx_get(doc, "boots")), 1);
	json_object_put(doc);
	only_results(r);
	run_free(r);
}

/* A write cut short (disk full): -ENOSPC, the previous run.json byte for
 * byte, no temporary file. */
static void test_save_cut_short(void **state)
{
	struct run *r = open_run();
	_cleanup_strbuf_ struct strbuf before = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf after = STRBUF_INIT;

	run_set_boot(r, 0, boot_named("a"));
	assert_int_equal(run_save(r), 0);
	slurp(r, &before);
	run_set_boot(r, 1, boot_named("b"));
	w.cut_write = true;
	w.renames = 0;
	assert_int_equal(run_save(r), -ENOSPC);
	assert_false(w.cut_write);
	assert_int_equal(w.renames, 0);	/* never renamed into place */
	slurp(r, &after);
	assert_string_equal(after.buf, before.buf);
	only_results(r);
	/* The next save writes everything. */
	assert_int_equal(run_save(r), 0);
	slurp(r, &after);
	assert_non_null(strstr(after.buf, "\"b\""));
	run_free(r);
}

/* The rename itself failing (as if killed just before it). */
static void test_save_rename_fails(void **state)
{
	struct run *r = open_run();
	_cleanup_strbuf_ struct strbuf before = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf after = STRBUF_INIT;

	slurp(r, &before);
	run_set_boot(r, 0, boot_named("a"));
	w.fail_rename = EIO;
	assert_int_equal(run_save(r), -EIO);
	slurp(r, &after);
	assert_string_equal(after.buf, before.buf);
	only_results(r);
	run_free(r);
}

static void test_set_boot(void **state)
{
	struct run *r = open_run();

	run_set_boot(r, 0, boot_named("a"));
	run_set_boot(r, 1, boot_named("b"));
	run_set_boot(r, 0, boot_named("c"));	/* replaces */
	assert_int_equal(json_object_array_length(r->boots), 2);
	assert_string_equal(jsonx_str(json_object_array_get_idx(r->boots, 0),
				      "name"), "c");
	assert_string_equal(jsonx_str(json_object_array_get_idx(r->boots, 1),
				      "name"), "b");
	run_free(r);
}

/* Closing: junit.xml, then run.json last (the summary) with "complete",
 * "exit_code" and "finished". */
static void test_close(void **state)
{
	struct run *r = open_run();
	json_object *doc;

	run_set_boot(r, 0, boot_named("a"));
	strbuf_reset(&w.order);
	assert_int_equal(run_close(r, 1, true), 0);
	assert_string_equal(w.order.buf, "junit.xml run.json ");
	doc = on_disk(r);
	assert_true(json_object_get_boolean(jsonx_get(doc, "complete")));
	assert_int_equal(json_object_get_int(jsonx_get(doc, "exit_code")), 1);
	assert_non_null(jsonx_str(doc, "finished"));
	json_object_put(doc);
	only_results(r);
	run_free(r);

	/* An interrupted run closes incomplete. */
	r = open_run();
	assert_int_equal(run_close(r, 130, false), 0);
	doc = on_disk(r);
	assert_false(json_object_get_boolean(jsonx_get(doc, "complete")));
	assert_int_equal(json_object_get_int(jsonx_get(doc, "exit_code")), 130);
	json_object_put(doc);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open, reset),
		cmocka_unit_test_setup(test_save_via_rename, reset),
		cmocka_unit_test_setup(test_save_cut_short, reset),
		cmocka_unit_test_setup(test_save_rename_fails, reset),
		cmocka_unit_test_setup(test_set_boot, reset),
		cmocka_unit_test_setup(test_close, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
