// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/lavaread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bootlog.h"
#include "core/bootrec.h"
#include "core/groupverdict.h"
#include "core/lavalog.h"
#include "core/matrixrec.h"
#include "core/recjson.h"
#include "core/yamljson.h"
#include "engine/report.h"
#include "engine/runrec.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/xalloc.h"

/* Largest file read: a job log of a debug kernel is a few MiB. */
#define READ_MAX (256u << 20)

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object *, json_object_put)

struct job {
	json_object *def;	/* the job definition, or NULL */
	json_object *server;	/* the server's job JSON, or NULL */
};

static const char *meta(const struct job *j, const char *key)
{
	return jsonx_str(jsonx_get(j->def, "metadata"), key);
}

/* The job definition: bootproof's YAML, or the server's JSON around it. */
static int read_job(const char *path, struct job *j, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	const char *p;
	long n = strbuf_read_file(&sb, path, READ_MAX);

	if (n < 0)
		return strbuf_fail(err, (int)n, "%s: %s", path, strerror((int)-n));
	p = sb.buf + strspn(sb.buf, " \t\r\n");
	if (*p == '{' && (j->server = json_tokener_parse(sb.buf)) &&
	    jsonx_str(j->server, "definition")) {
		const char *d = jsonx_str(j->server, "definition");

		if (yamljson_parse(d, strlen(d), &j->def, &why) < 0)
			return strbuf_fail(err, -EINVAL, "%s: its \"definition\" is "
					   "not YAML: %s", path, why.buf);
		return 0;
	}
	json_object_put(j->server);
	j->server = NULL;
	if (yamljson_parse(sb.buf, sb.len, &j->def, &why) < 0 ||
	    !json_object_is_type(j->def, json_type_object) ||
	    !jsonx_str(j->def, "job_name"))
		return strbuf_fail(err, -EINVAL, "%s: not a LAVA job definition "
				   "(YAML with a job_name) nor a LAVA server's "
				   "job JSON%s%s", path, why.len ? ": " : "",
				   why.buf);
	return 0;
}

/* The index of the record the job is for. */
static int pick(json_object *doc, const struct lavaread_opts *o,
		const struct job *j, size_t *ret, struct strbuf *err)
{
	json_object *boots = jsonx_get(doc, "boots");
	const char *want = o->candidate ? o->candidate : meta(j, "bootproof.candidate");
	const char *rec = meta(j, "bootproof.record");
	const char *run = meta(j, "bootproof.run");
	size_t n = boots ? json_object_array_length(boots) : 0;

	if (run && jsonx_str(doc, "run_id") && strcmp(run, jsonx_str(doc, "run_id")))
		return strbuf_fail(err, -EINVAL, "the job is run %s's, not %s's "
				   "(its bootproof.run metadata)", run,
				   jsonx_str(doc, "run_id"));
	for (size_t i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		const char *id = jsonx_str(jsonx_get(b, "candidate"), "id");

		if ((want && id && !strcmp(want, id)) ||
		    (!want && rec && jsonx_str(b, "name") &&
		     !strcmp(rec, jsonx_str(b, "name")))) {
			*ret = i;
			return 0;
		}
	}
	if (want)
		return strbuf_fail(err, -ENOENT, "the run has no candidate %s", want);
	if (n == 1) {
		*ret = 0;
		return 0;
	}
	return strbuf_fail(err, -EINVAL, "the run has %zu records: say which with "
			   "--candidate, or give the job definition (--job)", n);
}

static void iso(double t, char *buf, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char **str_list(json_object *a, size_t *n)
{
	const char **v;

	*n = a && json_object_is_type(a, json_type_array)
		     ? json_object_array_length(a)
		     : 0;
	v = xrealloc(NULL, (*n + 1) * sizeof(*v));
	for (size_t i = 0; i < *n; i++)
		v[i] = json_object_get_string(json_object_array_get_idx(a, i));
	v[*n] = NULL;
	return v;
}

/* LAVA's own test cases (its "lava" definition left out), for the
 * record: what the lab's UI shows. */
static json_object *lava_tests(const struct lavalog *l)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < json_object_array_length(l->cases); i++) {
		json_object *c = json_object_array_get_idx(l->cases, i), *t;
		const char *def = jsonx_str(c, "definition");

		if (!def || !strcmp(def, "lava"))
			continue;
		t = json_object_new_object();
		recjson_add_str(t, "suite", def);
		recjson_add_str(t, "case", jsonx_str(c, "case"));
		recjson_add_str(t, "result", jsonx_str(c, "result"));
		json_object_array_add(a, t);
	}
	return a;
}

/* The server's test cases: its jobs/<id>/tests/ JSON (paginated, or the
 * list alone). */
static int server_tests(const char *path, json_object **ret, struct strbuf *err)
{
	_cleanup_(json_object_putp) json_object *t = json_object_from_file(path);
	json_object *list = t, *a;

	if (t && json_object_is_type(t, json_type_object))
		list = jsonx_get(t, "results");
	if (!list || !json_object_is_type(list, json_type_array))
		return strbuf_fail(err, -EINVAL, "%s: not a LAVA server's test "
				   "list (jobs/<id>/tests/ JSON)", path);
	a = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *c = json_object_array_get_idx(list, i), *o;

		o = json_object_new_object();
		recjson_add_str(o, "suite", jsonx_str(c, "suite")
						    ? jsonx_str(c, "suite")
						    : json_object_get_string(jsonx_get(c, "suite")));
		recjson_add_str(o, "case", jsonx_str(c, "name"));
		recjson_add_str(o, "result", jsonx_str(c, "result"));
		json_object_array_add(a, o);
	}
	*ret = a;
	return 0;
}

static unsigned timeout_of(json_object *lava)
{
	double t = 0;

	return jsonx_num(lava, "timeout_s", &t) && t > 0 ? (unsigned)t : 0;
}

/* The record LAVA's log makes, with lava (the pending record's member,
 * updated) and the matrix members carried over from old. */
static json_object *make_record(json_object *old, const struct lavalog *l,
				struct bootlog *bl, const char *prefix,
				size_t *ret_failed, enum boot_verdict *ret_v)
{
	json_object *lava = jsonx_get(old, "lava");
	json_object *a = jsonx_get(jsonx_get(old, "build"), "artifacts");
	json_object *k = jsonx_get(old, "kernel");
	json_object *sc_names = jsonx_get(lava, "scenarios"), *sc, *files, *rec;
	const char **scen, **allowed;
	size_t n_scen, n_allowed, failed = 0;
	char why[512], started[32] = "", name[256];
	enum boot_end end;
	struct verdict v;
	double t0 = l->t_qemu >= 0 ? l->t_qemu : l->t_first;

	scen = str_list(sc_names, &n_scen);
	allowed = str_list(jsonx_get(lava, "allowed"), &n_allowed);
	bootlog_finish(bl);
	lavalog_end(l, bl, &end, why, sizeof(why));
	{
		struct bootlog_context ctx = {
			.end = end,
			.end_reason = why,
			.expect_agent = jsonx_str(old, "image") != NULL,
			/* A recorded log: LAVA's words are the end's reason. */
			.timeout_s = 0,
			.allowed = (const char *const *)allowed,
			.n_allowed = n_allowed,
		};
		bootlog_decide(bl, &ctx, &v);
	}
	sc = json_object_new_array();
	for (size_t i = 0; i < n_scen; i++) {
		struct bootrec_scenario s;
		json_object *one;

		bootrec_scenario_of(bl, scen[i], true, &s);
		if (bootrec_scenario_json(scen[i], &s, NULL, &one))
			failed++;
		json_object_array_add(sc, one);
	}
	files = json_object_new_object();
	snprintf(name, sizeof(name), "%sconsole.log", prefix);
	recjson_add_str(files, "console", name);
	snprintf(name, sizeof(name), "%slava-log.yaml", prefix);
	recjson_add_str(files, "lava_log", name);
	if (t0 >= 0)
		iso(t0, started, sizeof(started));
	{
		char machine[32];
		struct bootrec br = {
			.name = jsonx_str(old, "name"),
			.arch = jsonx_str(old, "arch"),
			.accel = lavalog_kvm(l) ? "kvm" : "tcg",
			.accel_reason = lavalog_kvm(l)
						? "LAVA's device ran QEMU with -enable-kvm"
						: "LAVA's device ran QEMU without -enable-kvm",
			/* QEMU's default for x86 when the job names none. */
			.machine = lavalog_machine(l, machine, sizeof(machine)) ?: "pc",
			.kernel = a ? jsonx_str(a, "bzImage") : jsonx_str(k, "path"),
			.initrd = a ? NULL : jsonx_str(k, "initrd"),
			.vmlinux = a ? jsonx_str(a, "vmlinux") : jsonx_str(k, "vmlinux"),
			.config = a ? jsonx_str(a, "config") : jsonx_str(k, "config"),
			.image = jsonx_str(old, "image"),
			.cmdline = jsonx_str(lava, "cmdline"),
			.timeout_s = timeout_of(lava),
			.started = started[0] ? started : NULL,
			.host_load = -1,	/* the lab's: not in its log */
			.elapsed_s = t0 >= 0 && l->t_last >= t0 ? l->t_last - t0 : -1,
			.time_to_init_s = t0 >= 0 && l->t_init >= 0 ? l->t_init - t0 : -1,
			.time_to_agent_end_s =
				t0 >= 0 && l->t_done >= 0 ? l->t_done - t0 : -1,
			.verdict = &v,
			.end = end,
			.end_reason = why,
			.allowed = (const char *const *)allowed,
			.n_allowed = n_allowed,
			.scenarios = sc,
			.files = files,
		};
		rec = bootrec_build(bl, &br);
	}
	{
		static const char *const keep[] = { "candidate", "config", "build",
						    "image_bytes" };

		for (size_t i = 0; i < ELEMENTSOF(keep); i++)
			if (jsonx_get(old, keep[i]))
				json_object_object_add(rec, keep[i],
						       json_object_get(jsonx_get(old, keep[i])));
	}
	free(scen);
	free(allowed);
	*ret_failed = failed;
	*ret_v = v.verdict;
	return rec;
}

/* The "lava" member after the job: what was sent, and what LAVA said. */
static json_object *lava_member(json_object *sent, const struct lavalog *l,
				const struct job *j, json_object *stests,
				const char *log_name)
{
	json_object *o = json_object_new_object();
	const char *want = jsonx_str(jsonx_get(jsonx_get(sent, "files"), "kernel"),
				     "sha256");
	const char *got = lavalog_download_sha256(l, "kernel");

	json_object_object_foreach(sent, key, val)
		json_object_object_add(o, key, json_object_get(val));
	recjson_add_str(o, "log", log_name);
	recjson_add_str(o, "result", l->job_result);
	recjson_add_str(o, "error_type", l->error_type);
	recjson_add_str(o, "error_msg", l->error_msg);
	recjson_add_str(o, "dispatcher", l->dispatcher);
	recjson_add_str(o, "qemu_command", l->qemu_command);
	/* LAVA checked its download against the sha256 the job gave. */
	json_object_object_add(o, "kernel_sha256_matches",
			       want && got ? json_object_new_boolean(!strcmp(want, got))
					   : NULL);
	if (j->server) {
		json_object_object_add(o, "job_id",
				       json_object_get(jsonx_get(j->server, "id")));
		recjson_add_str(o, "health", jsonx_str(j->server, "health"));
		recjson_add_str(o, "failure_comment",
				jsonx_str(j->server, "failure_comment"));
		recjson_add_str(o, "device", jsonx_str(j->server, "actual_device"));
	}
	json_object_object_add(o, "tests", lava_tests(l));
	if (stests)
		json_object_object_add(o, "server_tests", stests);
	return o;
}

/* A matrix run's exit code from its records and groups, as the matrix
 * decides it at its end; a boot run's from its one record. */
static int run_exit(json_object *doc, size_t failed, enum boot_verdict v)
{
	json_object *boots = jsonx_get(doc, "boots");
	json_object *groups = jsonx_get(doc, "groups");
	bool infra = false, fail = false;

	if (!jsonx_get(doc, "plan"))
		return bootrec_exit_code(v, failed);
	for (size_t i = 0; i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		const char *bv = jsonx_str(b, "verdict");

		if (bv && !strcmp(bv, "INFRA"))
			infra = true;
		if (jsonx_str(jsonx_get(b, "candidate"), "kind") &&
		    !strcmp(jsonx_str(jsonx_get(b, "candidate"), "kind"), "base") &&
		    matrixrec_failed(b))
			fail = true;
	}
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++) {
		enum groupverdict g;

		if (groupverdict_of(json_object_array_get_idx(groups, i), &g) == 0 &&
		    g == GROUPVERDICT_FAIL)
			fail = true;
	}
	return infra ? BP_EXIT_INFRA : fail ? BP_EXIT_FAIL : BP_EXIT_OK;
}

/* Every record that was sent to LAVA has come back. */
static bool all_back(json_object *doc)
{
	json_object *boots = jsonx_get(doc, "boots");

	for (size_t i = 0; i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);

		if (jsonx_get(b, "lava") && !jsonx_str(b, "verdict"))
			return false;
	}
	return true;
}

static int write_files(const char *dir, const char *prefix,
		       const struct lavalog *l, const char *log,
		       struct strbuf *err)
{
	_cleanup_free_ char *con = NULL, *copy = NULL, *sub = NULL;
	int r;

	if (asprintf(&con, "%s/%sconsole.log", dir, prefix) < 0 ||
	    asprintf(&copy, "%s/%slava-log.yaml", dir, prefix) < 0 ||
	    asprintf(&sub, "%s/%s", dir, prefix) < 0)
		abort();
	if (*prefix && (r = mkdir_p(sub, 0755)) < 0)
		return strbuf_fail(err, r, "%s: %s", sub, strerror(-r));
	r = write_file_atomic(con, l->console.buf, l->console.len, 0644);
	if (r == 0)
		r = copy_file_atomic(log, copy, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "cannot write into %s: %s", dir,
				   strerror(-r));
	return 0;
}

int lavaread_run(const struct lavaread_opts *o, json_object **ret_doc,
		 json_object **ret_record, int *ret_exit, struct strbuf *err)
{
	_cleanup_free_ char *dir = NULL, *prefix = NULL, *log_name = NULL;
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	_cleanup_bootlog_ struct bootlog *bl = NULL;
	json_object *doc = NULL, *old, *rec, *stests = NULL, *groups;
	struct job j = { 0 };
	struct lavalog l = { 0 };
	enum boot_verdict v;
	size_t idx = 0, failed = 0;
	struct run run;
	long n;
	int r;

	r = report_load_run(o->run, &dir, &doc);
	if (r < 0)
		return strbuf_fail(err, r == -ENOENT ? -ENOENT : -EINVAL,
				   "%s: not a run directory", o->run);
	if (o->job && (r = read_job(o->job, &j, err)) < 0)
		goto out;
	if ((r = pick(doc, o, &j, &idx, err)) < 0)
		goto out;
	old = json_object_array_get_idx(jsonx_get(doc, "boots"), idx);
	if (!jsonx_get(old, "lava")) {
		r = strbuf_fail(err, -EINVAL, "record %s was not sent to LAVA (no "
				"\"lava\" member: run it with --lava-out)",
				jsonx_str(old, "name"));
		goto out;
	}
	if (o->tests && (r = server_tests(o->tests, &stests, err)) < 0)
		goto out;
	n = strbuf_read_file(&buf, o->log, READ_MAX);
	if (n < 0) {
		r = strbuf_fail(err, n == -ENOENT ? -ENOENT : (int)n, "%s: %s",
				o->log, strerror((int)-n));
		goto out;
	}
	bl = bootlog_new(NULL, NULL);
	if (!bl) {
		r = -ENOMEM;
		goto out;
	}
	{
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		r = lavalog_read(&l, buf.buf, buf.len, bl, &why);
		if (r < 0) {
			r = strbuf_fail(err, r, "%s: %s", o->log, why.buf);
			goto out;
		}
	}
	{
		const char *id = jsonx_str(jsonx_get(old, "candidate"), "id");

		if (asprintf(&prefix, "%s%s", id ? id : "", id ? "/" : "") < 0 ||
		    asprintf(&log_name, "%slava-log.yaml", prefix) < 0)
			abort();
	}
	r = write_files(dir, prefix, &l, o->log, err);
	if (r < 0)
		goto out;
	rec = make_record(old, &l, bl, prefix, &failed, &v);
	json_object_object_add(rec, "lava", lava_member(jsonx_get(old, "lava"), &l,
							&j, stests, log_name));
	stests = NULL;
	json_object_array_put_idx(jsonx_get(doc, "boots"), idx, rec);
	groups = matrixrec_regroup(doc);
	if (groups)
		json_object_object_add(doc, "groups", groups);
	*ret_exit = run_exit(doc, failed, v);
	run = (struct run){
		.id = (char *)jsonx_str(doc, "run_id"),
		.dir = dir,
		.doc = doc,
		.boots = jsonx_get(doc, "boots"),
	};
	r = run_close(&run, *ret_exit, all_back(doc));
	if (r < 0) {
		strbuf_fail(err, r, "cannot write the results in %s: %s", dir,
			    strerror(-r));
		goto out;
	}
	report_write(dir, NULL);
	*ret_doc = TAKE_PTR(doc);
	*ret_record = rec;
	r = 0;
out:
	json_object_put(doc);
	json_object_put(stests);
	json_object_put(j.def);
	json_object_put(j.server);
	lavalog_done(&l);
	return r;
}
