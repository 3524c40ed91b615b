// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/configstage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/proc.h"
#include "core/arch.h"
#include "engine/buildstage.h"
#include "engine/ksrc.h"
#include "util/fileio.h"
#include "util/lockfile.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define MIN_MS (60u * 1000u)
#define HELPER_SRC "harness/kconfig-explain/kconfig-explain.c"
#define HELPER_NAME "bp-kconfig-explain"

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ------------------------------------------------------------ commands */

/* The last max_lines lines of s, for an error message. */
static void add_tail(struct strbuf *sb, const struct strbuf *s,
		     int max_lines)
{
	size_t end = s->len, start;
	int lines = 0;

	while (end && (s->buf[end - 1] == '\n' || s->buf[end - 1] == ' '))
		end--;
	start = end;
	while (start && lines < max_lines) {
		start--;
		if (s->buf[start] == '\n')
			lines++;
	}
	if (s->buf[start] == '\n')
		start++;
	if (end > start) {
		strbuf_addstr(sb, "\n");
		strbuf_add(sb, s->buf + start, end - start);
	}
}

static void add_argv(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
}

/*
 * Run cmd (its output kept up to 16 MiB), stopped when o->cancel is set
 * (-EINTR); a command that cannot start or does not succeed is an error
 * naming the command, how it ended and the tail of what it said.
 */
static int run(const struct configstage_opts *o, const struct proc_cmd *c,
	       struct proc_result *res, struct strbuf *err)
{
	struct proc_cmd cmd = *c;
	const char *const *argv = c->argv;
	unsigned timeout_ms = c->timeout_ms;
	int r;

	cmd.out_max = 16u << 20;
	cmd.cancel = o->cancel;
	r = proc_run(&cmd, res);
	if (r < 0) {
		if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "cannot run %s: %s", argv[0],
				    strerror(-r));
		}
		return r;
	}
	if (res->cancelled)
		return strbuf_fail(err, -EINTR, "%s: interrupted", argv[0]);
	if (proc_result_ok(res))
		return 0;
	if (err) {
		strbuf_reset(err);
		add_argv(err, argv);
		strbuf_addstr(err, ": ");
		proc_result_describe(res, timeout_ms, err);
		add_tail(err, res->err.len ? &res->err : &res->out, 15);
	}
	return -EIO;
}

static int run_make(const struct configstage_opts *o, const char *target1,
		    const char *target2, unsigned timeout_ms,
		    struct strbuf *err)
{
	_cleanup_(proc_result_release) struct proc_result res =
		PROC_RESULT_INIT;
	_cleanup_free_ char *odir = NULL, *arch = NULL;
	const char *argv[] = { "make", "-s", "-C", o->ksrc, NULL, NULL,
			       target1, target2, NULL };

	if (asprintf(&odir, "O=%s", o->odir) < 0 ||
	    asprintf(&arch, "ARCH=%s", o->arch) < 0)
		return -ENOMEM;
	argv[4] = odir;
	argv[5] = arch;
	return run(o, &(struct proc_cmd){ .argv = argv, .timeout_ms = timeout_ms },
		   &res, err);
}

/* ------------------------------------------------------------ the base */

struct base_plan {
	char **targets;	/* in-tree make targets, in order */
	size_t n_targets;
	char *file;	/* or one config file (absolute) */
	char **files;	/* the config files the base reads, in order */
	size_t n_files;
};

static void base_plan_done(struct base_plan *b)
{
	for (size_t i = 0; i < b->n_targets; i++)
		free(b->targets[i]);
	free(b->targets);
	free(b->file);
	for (size_t i = 0; i < b->n_files; i++)
		free(b->files[i]);
	free(b->files);
}

static void add_file(struct base_plan *b, const char *ksrc, const char *rel)
{
	char *p = path_join(ksrc, rel);

	if (!is_file(p)) {
		free(p);
		return;
	}
	b->files = xrealloc(b->files, (b->n_files + 1) * sizeof(char *));
	b->files[b->n_files++] = p;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

static int unknown_base(struct strbuf *err, const char *what)
{
	return strbuf_fail(err, -EINVAL,
		    "unknown base '%s': expected an in-tree target (defconfig, "
		    "tinyconfig, allnoconfig, allyesconfig, allmodconfig, "
		    "alldefconfig, <name>_defconfig of arch/x86/configs/, "
		    "then optionally '+<name>.config' fragments of "
		    "kernel/configs/ or arch/x86/configs/) or a path to a "
		    "config file (with a '/', e.g. ./my.config)",
		    what);
}

static int base_resolve(const struct configstage_opts *o, struct base_plan *b,
			struct strbuf *err)
{
	static const char *const whole[] = {
		"allnoconfig", "allyesconfig", "allmodconfig", "alldefconfig",
	};
	_cleanup_free_ char *copy = NULL;
	char *save = NULL;

	if (!o->base || !*o->base)
		return unknown_base(err, "");
	if (strchr(o->base, '/')) {
		char buf[4096];

		if (!realpath(o->base, buf))
			return strbuf_fail(err, -EINVAL, "base %s: %s", o->base,
				    strerror(errno));
		if (!is_file(buf))
			return strbuf_fail(err, -EINVAL, "base %s: not a regular file",
				    o->base);
		b->file = xstrdup(buf);
		b->files = xrealloc(NULL, sizeof(char *));
		b->files[b->n_files++] = xstrdup(buf);
		return 0;
	}
	copy = xstrdup(o->base);
	for (char *t = strtok_r(copy, "+", &save); t;
	     t = strtok_r(NULL, "+", &save)) {
		bool first = b->n_targets == 0;
		bool ok = false;
		char rel[512];

		if (!group_name_valid(t))
			return unknown_base(err, t);
		if (!strcmp(t, "defconfig")) {
			snprintf(rel, sizeof(rel), "arch/x86/configs/%s_defconfig",
				 o->arch);
			add_file(b, o->ksrc, rel);
			ok = true;
		} else if (!strcmp(t, "tinyconfig")) {
			add_file(b, o->ksrc, "kernel/configs/tiny-base.config");
			add_file(b, o->ksrc, "kernel/configs/tiny.config");
			add_file(b, o->ksrc, "arch/x86/configs/tiny.config");
			ok = true;
		} else if (has_suffix(t, "_defconfig")) {
			snprintf(rel, sizeof(rel), "arch/x86/configs/%s", t);
			_cleanup_free_ char *p = path_join(o->ksrc, rel);

			if (!is_file(p))
				return strbuf_fail(err, -EINVAL,
					    "unknown base '%s': no %s in %s", t,
					    rel, o->ksrc);
			add_file(b, o->ksrc, rel);
			ok = true;
		} else if (has_suffix(t, ".config")) {
			size_t before = b->n_files;

			if (first)
				return strbuf_fail(err, -EINVAL,
					    "base '%s': a fragment cannot come "
					    "first; start with a whole config "
					    "such as tinyconfig+%s",
					    o->base, t);
			snprintf(rel, sizeof(rel), "kernel/configs/%s", t);
			add_file(b, o->ksrc, rel);
			snprintf(rel, sizeof(rel), "arch/x86/configs/%s", t);
			add_file(b, o->ksrc, rel);
			if (b->n_files == before)
				return strbuf_fail(err, -EINVAL,
					    "unknown base fragment '%s': not in "
					    "kernel/configs/ nor "
					    "arch/x86/configs/ of %s",
					    t, o->ksrc);
			ok = true;
		} else {
			for (size_t i = 0; i < ELEMENTSOF(whole); i++)
				if (!strcmp(t, whole[i]))
					ok = true;
		}
		if (!ok)
			return unknown_base(err, t);
		if (!first && !has_suffix(t, ".config"))
			return strbuf_fail(err, -EINVAL,
				    "base '%s': only <name>.config fragments "
				    "may follow the first target",
				    o->base);
		b->targets = xrealloc(b->targets,
				      (b->n_targets + 1) * sizeof(char *));
		b->targets[b->n_targets++] = xstrdup(t);
	}
	if (!b->n_targets)
		return unknown_base(err, o->base);
	return 0;
}

/* ------------------------------------------------------------ the helper */

/* A kconfig input: its path (the key says which file) and its bytes. */
static int hash_input(struct sha256 *h, const char *path)
{
	sha256_add_str(h, path);
	return sha256_add_file(h, path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kconfig objects every front end links (not the front ends'). */
static bool common_object(const char *name)
{
	static const char *const ui[] = {
		"conf.o", "mconf.o", "nconf.o", "nconf.gui.o",
		"mnconf-common.o", "gconf.o", "qconf.o", "qconf-moc.o",
		"images.o",
	};

	if (!has_suffix(name, ".o"))
		return false;
	for (size_t i = 0; i < ELEMENTSOF(ui); i++)
		if (!strcmp(name, ui[i]))
			return false;
	return true;
}

struct objlist {
	char **v;
	size_t n;
};

static void objlist_done(struct objlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int list_objects(const char *dir, struct objlist *l)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!common_object(de->d_name))
			continue;
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(char *));
		l->v[l->n++] = path_join(dir, de->d_name);
	}
	qsort(l->v, l->n, sizeof(char *), cmp_str);
	return l->n ? 0 : -ENOENT;
}

/*
 * The helper for this tree's kconfig objects: reused from the cache when
 * the same source and objects were compiled before.
 */
static int helper_get(const struct configstage_opts *o, char **ret,
		      struct strbuf *err)
{
	_cleanup_free_ char *src = path_join(o->datadir, HELPER_SRC);
	_cleanup_free_ char *objdir = path_join(o->odir, "scripts/kconfig");
	_cleanup_free_ char *base = path_join(o->cache, "kconfig-explain");
	_cleanup_free_ char *dir = NULL, *bin = NULL, *csrc = NULL;
	_cleanup_free_ char *tmp = NULL, *inc1 = NULL, *inc2 = NULL;
	_cleanup_(objlist_done) struct objlist objs = { NULL, 0 };
	_cleanup_(proc_result_release) struct proc_result res =
		PROC_RESULT_INIT;
	_cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
	char hex[SHA256_HEX_LEN + 1];
	const char **argv;
	size_t n = 0;
	int r;

	if (!is_file(src))
		return strbuf_fail(err, -ENOENT, "helper source %s is missing", src);
	r = list_objects(objdir, &objs);
	if (r < 0)
		return strbuf_fail(err, r, "no kconfig objects in %s: %s", objdir,
			    strerror(-r));

	r = sha256_begin(&h);
	if (!r)
		r = hash_input(&h, src);
	sha256_add_str(&h, o->ksrc);
	for (size_t i = 0; !r && i < objs.n; i++)
		r = hash_input(&h, objs.v[i]);
	if (!r)
		r = sha256_end_hex(&h, hex);
	if (r < 0)
		return strbuf_fail(err, r, "hashing the helper's inputs: %s",
			    strerror(-r));
	hex[16] = '\0';

	dir = path_join(base, hex);
	bin = path_join(dir, HELPER_NAME);
	if (access(bin, X_OK) == 0) {
		*ret = TAKE_PTR(bin);
		return 0;
	}
	r = mkdir_p(dir, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", dir, strerror(-r));
	csrc = path_join(dir, "kconfig-explain.c");
	r = copy_file_atomic(src, csrc, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "copy %s: %s", src, strerror(-r));
	if (asprintf(&tmp, "%s.tmp.%d", bin, (int)getpid()) < 0 ||
	    asprintf(&inc1, "-I%s/scripts/kconfig", o->ksrc) < 0 ||
	    asprintf(&inc2, "-I%s/scripts/include", o->ksrc) < 0)
		return -ENOMEM;
	argv = xrealloc(NULL, (objs.n + 10) * sizeof(char *));
	argv[n++] = "cc";
	argv[n++] = "-O1";
	argv[n++] = inc1;
	argv[n++] = inc2;
	argv[n++] = "-o";
	argv[n++] = tmp;
	argv[n++] = csrc;
	for (size_t i = 0; i < objs.n; i++)
		argv[n++] = objs.v[i];
	argv[n] = NULL;
	r = run(o, &(struct proc_cmd){ .argv = argv, .cwd = dir,
				     .timeout_ms = 5 * MIN_MS },
		&res, err);
	free(argv);
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	if (rename(tmp, bin) < 0) {
		r = -errno;
		unlink(tmp);
		return strbuf_fail(err, r, "rename %s: %s", tmp, strerror(-r));
	}
	*ret = TAKE_PTR(bin);
	return 0;
}

/* Run the helper on the queries; parse its answer into *ret. */
static int helper_run(const struct configstage_opts *o, const char *queries,
		      size_t qlen, struct explain_result **ret,
		      struct strbuf *err)
{
	_cleanup_free_ char *bin = NULL, *cmdfile = NULL, *kconfig = NULL;
	_cleanup_free_ char *dotconfig = NULL, *srctree = NULL;
	_cleanup_free_ const char **env = NULL;
	_cleanup_strbuf_ struct strbuf cmd = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf envs = STRBUF_INIT;
	_cleanup_(proc_result_release) struct proc_result res =
		PROC_RESULT_INIT;
	const char *argv[4];
	bool have_srctree = false;
	size_t n = 0;
	int r, count;

	r = helper_get(o, &bin, err);
	if (r < 0)
		return r;
	cmdfile = path_join(o->odir, "include/config/auto.conf.cmd");
	r = (int)strbuf_read_file(&cmd, cmdfile, 16u << 20);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", cmdfile, strerror(-r));
	count = explain_parse_env(cmd.buf, cmd.len, &envs);
	if (count < 0)
		return strbuf_fail(err, count, "%s: unexpected 'ifneq' line", cmdfile);
	env = xrealloc(NULL, ((size_t)count + 2) * sizeof(char *));
	for (size_t off = 0; off < envs.len; off += strlen(envs.buf + off) + 1) {
		env[n++] = envs.buf + off;
		if (!strncmp(envs.buf + off, "srctree=", 8))
			have_srctree = true;
	}
	if (!have_srctree) {
		if (asprintf(&srctree, "srctree=%s", o->ksrc) < 0)
			return -ENOMEM;
		env[n++] = srctree;
	}
	env[n] = NULL;

	kconfig = path_join(o->ksrc, "Kconfig");
	dotconfig = path_join(o->odir, ".config");
	argv[0] = bin;
	argv[1] = kconfig;
	argv[2] = dotconfig;
	argv[3] = NULL;
	r = run(o, &(struct proc_cmd){ .argv = argv,
				     .cwd = o->odir,
				     .env = env,
				     .stdin_data = queries,
				     .stdin_len = qlen,
				     .timeout_ms = 10 * MIN_MS },
		&res, err);
	if (r < 0)
		return r;
	r = explain_parse(res.out.buf, res.out.len, ret, err);
	if (r < 0) {
		_cleanup_strbuf_ struct strbuf m = STRBUF_INIT;

		strbuf_addf(&m, "%s output: %s", HELPER_NAME,
			    err ? err->buf : "malformed");
		return strbuf_fail(err, r, "%s", m.buf);
	}
	return 0;
}

int configstage_explain(const struct configstage_opts *o, const char *queries,
			size_t len, size_t n_queries,
			struct explain_result **ret, struct strbuf *err)
{
	_cleanup_explain_result_ struct explain_result *res = NULL;
	_cleanup_lockfile_ int lock = -1;
	_cleanup_free_ char *lockpath = path_join(o->odir,
						  ".bootproof-config.lock");
	int r;

	lock = lockfile_take(lockpath, 0, NULL);
	if (lock < 0)
		return strbuf_fail(err, lock, "%s: %s", lockpath,
				   strerror(-lock));
	r = helper_run(o, queries, len, &res, err);
	if (r < 0)
		return r;
	if (res->n_syms != n_queries)
		return strbuf_fail(err, -EPROTO, "%s answered %zu of %zu queries",
				   HELPER_NAME, res->n_syms, n_queries);
	*ret = TAKE_PTR(res);
	return 0;
}

/* ------------------------------------------------------------ checks */

struct pending {
	size_t opt;		/* index into the options */
	bool why_not_y;		/* base "n" line absent from the final */
};

struct stage {
	const struct configstage_opts *o;
	struct configstage_result *res;
	size_t alloc;
	struct pending *pend;
	size_t n_pend;
	struct strbuf queries;
};

static size_t add_opt(struct stage *s, const struct group *g,
		      const struct kconfig_check *c)
{
	struct configstage_result *res = s->res;
	struct configstage_option *op;

	if (res->n_opts == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		res->opts = xrealloc(res->opts, s->alloc * sizeof(*res->opts));
	}
	op = &res->opts[res->n_opts];
	memset(op, 0, sizeof(*op));
	op->group = g;
	op->requested = c->requested;
	op->final = c->final;
	op->verdict = c->verdict;
	op->kept = c->verdict == KCONFIG_KEPT;
	return res->n_opts++;
}

static void add_query(struct stage *s, size_t opt, const char *value,
		      bool why_not_y)
{
	const struct kconfig_option *req = s->res->opts[opt].requested;

	s->pend = xrealloc(s->pend, (s->n_pend + 1) * sizeof(*s->pend));
	s->pend[s->n_pend].opt = opt;
	s->pend[s->n_pend].why_not_y = why_not_y;
	s->n_pend++;
	explain_query_value(&s->queries, req->name, value);
}

static void drop(struct configstage_option *op, enum explain_kind kind,
		 enum explain_kind cause, const char *text)
{
	op->kept = false;
	op->kind = kind;
	op->cause = cause;
	free(op->reason);
	op->reason = xstrdup(text);
}

/* Every check of requested against the final .config, given to fn. */
static int each_check(struct stage *s, const struct kconfig *requested,
		      const struct group *g,
		      void (*fn)(struct stage *, const struct group *,
				 const struct kconfig_check *))
{
	_cleanup_kconfig_report_ struct kconfig_report *rep = NULL;
	int r = kconfig_verify(requested, s->res->final, &rep);

	if (r < 0)
		return r;
	for (size_t i = 0; i < rep->n_checks; i++)
		fn(s, g, &rep->checks[i]);
	return 0;
}

/* A group option: kept, overridden by a later fragment, or to explain. */
static void check_option(struct stage *s, const struct group *g,
			 const struct kconfig_check *c)
{
	struct configstage_result *res = s->res;
	const struct kconfig_option *req = c->requested;
	const struct kconfig_option *last = kconfig_find(res->merged, req->name);
	size_t k = add_opt(s, g, c);

	if (c->verdict == KCONFIG_KEPT) {
		/* "n" holds for a symbol the tree lacks too: ask whether it
		 * exists. */
		if (req->kind == KCONFIG_NO && !c->final)
			add_query(s, k, "n", false);
		return;
	}
	if (last && (strcmp(last->file, req->file) || last->line != req->line) &&
	    !kconfig_value_equal(last, req)) {
		_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
		struct configstage_option *op = &res->opts[k];

		strbuf_addf(&t, "overridden by a later fragment: %s:%u: ",
			    last->file, last->line);
		kconfig_format_option(&t, last);
		strbuf_rtrim(&t);
		op->overridden_by = last;
		drop(op, EXPLAIN_OVERRIDDEN, EXPLAIN_OVERRIDDEN, t.buf);
		return;
	}
	add_query(s, k, req->value, false);
}

static int check_groups(struct stage *s)
{
	for (size_t gi = 0; gi < s->o->n_groups; gi++) {
		const struct group *g = s->o->groups[gi];
		int r = each_check(s, g->options, g, check_option);

		if (r < 0)
			return r;
	}
	return 0;
}

/* A base line: a group redefining it decides; else it must hold. */
static void check_base_line(struct stage *s, const struct group *g,
			    const struct kconfig_check *c)
{
	size_t k;

	if (kconfig_find(s->res->merged, c->requested->name))
		return;
	if (c->verdict == KCONFIG_KEPT &&
	    (c->final || c->requested->kind != KCONFIG_NO))
		return;
	k = add_opt(s, NULL, c);
	if (c->verdict == KCONFIG_KEPT)
		/* "# CONFIG_X is not set" for a symbol never written: the
		 * line can have no effect; ask why y could not be had
		 * either. */
		add_query(s, k, "y", true);
	else
		add_query(s, k, c->requested->value, false);
}

static int check_base(struct stage *s)
{
	return each_check(s, s->res->base, NULL, check_base_line);
}

static void set_explained(struct configstage_option *op,
			  const struct explain_symbol *sym, bool why_not_y)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
	enum explain_kind cause;

	op->detail = sym;
	if (!sym->n_reasons) {
		/* Kept, or a base "n" line that could matter after all. */
		if (op->kept)
			return;
		cause = EXPLAIN_OTHER;
		strbuf_addstr(&t, "Kconfig gave no reason");
	} else {
		cause = sym->reasons[0].kind;
		/* A group's "n" for a symbol the tree has: it holds. */
		if (op->kept && op->group && cause != EXPLAIN_UNKNOWN)
			return;
		explain_format_symbol(&t, sym);
	}
	if (op->group) {
		drop(op, cause, cause, t.buf);
		return;
	}
	{
		_cleanup_strbuf_ struct strbuf b = STRBUF_INIT;

		strbuf_addstr(&b, "stale base option: ");
		if (why_not_y && cause != EXPLAIN_UNKNOWN)
			strbuf_addstr(&b, "the line has no effect: ");
		strbuf_addstr(&b, t.buf);
		drop(op, EXPLAIN_STALE_BASE, cause, b.buf);
	}
}

static void set_unexplained(struct configstage_option *op, bool why_not_y,
			    const char *why)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

	if (op->kept || (!op->group && why_not_y))
		return;
	strbuf_addf(&t, "%snot explained: %s",
		    op->group ? "" : "stale base option: ", why);
	drop(op, op->group ? EXPLAIN_UNEXPLAINED : EXPLAIN_STALE_BASE,
	     EXPLAIN_UNEXPLAINED, t.buf);
}

static void explain_all(struct stage *s)
{
	struct configstage_result *res = s->res;
	_cleanup_strbuf_ struct strbuf herr = STRBUF_INIT;
	int r = 0;

	if (s->n_pend)
		r = helper_run(s->o, s->queries.buf, s->queries.len,
			       &res->explain, &herr);
	if (!r && s->n_pend && res->explain->n_syms != s->n_pend) {
		strbuf_reset(&herr);
		strbuf_addf(&herr, "%s answered %zu of %zu queries",
			    HELPER_NAME, res->explain->n_syms, s->n_pend);
		r = -EPROTO;
	}
	if (r < 0) {
		res->explain_error = strbuf_detach(&herr, NULL);
		for (size_t i = 0; i < s->n_pend; i++)
			set_unexplained(&res->opts[s->pend[i].opt],
					s->pend[i].why_not_y,
					res->explain_error);
		return;
	}
	for (size_t i = 0; i < s->n_pend; i++)
		set_explained(&res->opts[s->pend[i].opt],
			      &res->explain->syms[i], s->pend[i].why_not_y);
}

/* Drop the base entries that turned out to hold, count the rest. */
static void finish(struct configstage_result *res)
{
	size_t w = 0;

	for (size_t i = 0; i < res->n_opts; i++) {
		struct configstage_option *op = &res->opts[i];

		if (!op->group && op->kept)
			continue;
		if (!op->kept) {
			if (op->group)
				res->n_dropped++;
			else
				res->n_stale++;
		}
		res->opts[w++] = *op;
	}
	res->n_opts = w;
}

/* ------------------------------------------------------------ the stage */

static bool has_space(const char *s)
{
	return s && strpbrk(s, " \t\n");
}

static int parse_file_into(struct kconfig *kc, const char *path,
			   struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_kconfig_error_ struct kconfig_error kerr = KCONFIG_ERROR_INIT;
	long n = strbuf_read_file(&sb, path, 64u << 20);
	int r;

	if (n < 0)
		return strbuf_fail(err, (int)n, "%s: %s", path, strerror((int)-n));
	r = kconfig_parse(kc, path, sb.buf, sb.len, &kerr);
	if (r == -EINVAL)
		return strbuf_fail(err, r, "%s", kerr.msg.buf);
	return r < 0 ? r : 0;
}

int configstage_run(const struct configstage_opts *o,
		    struct configstage_result **ret, struct strbuf *err)
{
	_cleanup_(base_plan_done) struct base_plan base = { 0 };
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_lockfile_ int lock = -1;
	_cleanup_free_ char *lockpath = NULL, *merge = NULL;
	struct stage s = { .o = o, .queries = STRBUF_INIT };
	int r;

	if (bp_arch_from_name(o->arch, NULL) < 0)
		return strbuf_fail(err, -EINVAL, "unknown arch '%s' (x86_64 or i386)",
			    o->arch);
	for (size_t i = 0; i < o->n_groups; i++) {
		const struct group *g = o->groups[i];

		if (!group_for_arch(g, o->arch))
			return strbuf_fail(err, -EINVAL,
				    "%s: group %s is for %s, not %s", g->file,
				    g->name, g->arch, o->arch);
		if (has_space(g->file))
			return strbuf_fail(err, -EINVAL,
				    "%s: merge_config.sh cannot take a path "
				    "with white space",
				    g->file);
	}
	if (o->odir[0] != '/' || o->ksrc[0] != '/')
		return strbuf_fail(err, -EINVAL, "O= directory %s and tree %s must be "
			    "absolute paths", o->odir, o->ksrc);
	if (has_space(o->odir) || has_space(o->ksrc) || has_space(o->base))
		return strbuf_fail(err, -EINVAL,
			    "merge_config.sh cannot take paths with white "
			    "space (%s, %s)",
			    o->odir, o->ksrc);
	r = base_resolve(o, &base, err);
	if (r < 0)
		return r;

	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	s.res = res;
	if ((r = kconfig_new(&res->final)) < 0 ||
	    (r = kconfig_new(&res->base)) < 0 ||
	    (r = kconfig_new(&res->merged)) < 0)
		return r;
	for (size_t i = 0; i < base.n_files; i++) {
		r = parse_file_into(res->base, base.files[i], err);
		if (r < 0)
			return r == -EINVAL || r == -ENOENT ? -EINVAL : r;
	}
	res->base_files = TAKE_PTR(base.files);
	res->n_base_files = base.n_files;
	base.n_files = 0;
	for (size_t i = 0; i < o->n_groups; i++) {
		r = kconfig_merge(res->merged, o->groups[i]->options);
		if (r < 0)
			return r;
	}
	r = ksrc_release(o->ksrc, &res->release);
	if (r < 0)
		return strbuf_fail(err, r, "%s/Makefile: no kernel release", o->ksrc);

	r = mkdir_p(o->odir, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", o->odir, strerror(-r));
	lockpath = path_join(o->odir, ".bootproof-config.lock");
	lock = lockfile_take(lockpath, 0, NULL);
	if (lock < 0)
		return strbuf_fail(err, lock, "%s: %s", lockpath, strerror(-lock));

	/* 1. the base */
	for (size_t i = 0; i < base.n_targets; i++) {
		r = run_make(o, base.targets[i], NULL, 20 * MIN_MS, err);
		if (r < 0)
			return r;
	}
	/* 2. the groups (and a base file), merged by the kernel's script */
	res->final_config = path_join(o->odir, ".config");
	if (base.file || o->n_groups) {
		_cleanup_(proc_result_release) struct proc_result pr =
			PROC_RESULT_INIT;
		_cleanup_free_ const char **argv = NULL;
		size_t n = 0;

		merge = path_join(o->ksrc, "scripts/kconfig/merge_config.sh");
		argv = xrealloc(NULL, (o->n_groups + 8) * sizeof(char *));
		argv[n++] = "sh";
		argv[n++] = merge;
		argv[n++] = "-m";
		argv[n++] = "-O";
		argv[n++] = o->odir;
		argv[n++] = base.file ? base.file : res->final_config;
		for (size_t i = 0; i < o->n_groups; i++)
			argv[n++] = o->groups[i]->file;
		argv[n] = NULL;
		r = run(o, &(struct proc_cmd){ .argv = argv, .cwd = o->odir,
					     .timeout_ms = 5 * MIN_MS },
			&pr, err);
		if (r < 0)
			return r;
	}
	/* 3. resolve with Kconfig; syncconfig records the environment
	 * Kconfig saw, which the helper needs */
	r = run_make(o, "olddefconfig", "syncconfig", 20 * MIN_MS, err);
	if (r < 0)
		return r;

	/* 4. what survived */
	r = parse_file_into(res->final, res->final_config, err);
	if (r < 0)
		return r == -EINVAL ? -EIO : r;
	if (o->make_only) {
		*ret = TAKE_PTR(res);
		return 0;
	}
	r = check_groups(&s);
	if (r >= 0)
		r = check_base(&s);
	if (r < 0) {
		strbuf_release(&s.queries);
		free(s.pend);
		return r;
	}
	/* 5. why not */
	explain_all(&s);
	strbuf_release(&s.queries);
	free(s.pend);
	finish(res);
	*ret = TAKE_PTR(res);
	return 0;
}

void configstage_result_free(struct configstage_result *r)
{
	if (!r)
		return;
	free(r->final_config);
	free(r->release);
	for (size_t i = 0; i < r->n_base_files; i++)
		free(r->base_files[i]);
	free(r->base_files);
	for (size_t i = 0; i < r->n_opts; i++)
		free(r->opts[i].reason);
	free(r->opts);
	free(r->explain_error);
	kconfig_free(r->final);
	kconfig_free(r->base);
	kconfig_free(r->merged);
	explain_result_free(r->explain);
	free(r);
}

char *configstage_default_odir(const char *cache, const char *ksrc,
			       const char *release, const char *arch)
{
	char key[160], rel[200];

	if (buildstage_tree_key(ksrc, release, key, sizeof(key)) < 0)
		return NULL;
	snprintf(rel, sizeof(rel), "config/%s/%s", key, arch);
	return path_join(cache, rel);
}

/* ------------------------------------------------------------ groups */

static int load_file(const char *path, unsigned flags, struct group **ret,
		     struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char abs[4096];
	long n;
	int r;

	if (!realpath(path, abs))
		return strbuf_fail(err, -errno, "%s: %s", path, strerror(errno));
	if (!is_file(abs))
		return strbuf_fail(err, -EINVAL, "%s: not a regular file", path);
	n = strbuf_read_file(&sb, abs, 16u << 20);
	if (n < 0)
		return strbuf_fail(err, (int)n, "%s: %s", path, strerror((int)-n));
	r = group_parse(abs, sb.buf, sb.len, flags, ret, err);
	if (r == -ENOMEM)
		return strbuf_fail(err, r, "out of memory");
	return r;
}

static char *groups_dir(const char *datadir, const char *arch)
{
	_cleanup_free_ char *g = path_join(datadir, "scenarios/groups");

	return path_join(g, arch);
}

int configstage_list_groups(const char *datadir, const char *arch,
			    struct group ***ret, struct strbuf *err)
{
	_cleanup_free_ char *dir = groups_dir(datadir, arch);
	struct dirent **names = NULL;
	struct group **v = NULL;
	size_t n = 0;
	int count, r = 0;

	count = scandir(dir, &names, NULL, alphasort);
	if (count < 0)
		return strbuf_fail(err, -errno, "%s: %s", dir, strerror(errno));
	for (int i = 0; i < count; i++) {
		_cleanup_free_ char *p = NULL;
		struct group *g = NULL;

		if (!r && has_suffix(names[i]->d_name, ".config") &&
		    names[i]->d_name[0] != '.') {
			p = path_join(dir, names[i]->d_name);
			r = load_file(p, GROUP_PARSE_STRICT, &g, err);
			if (!r && (!g->arch || strcmp(g->arch, arch)))
				r = strbuf_fail(err, -EINVAL,
					 "%s: '# arch: %s' in the directory "
					 "for %s",
					 p, g->arch ? g->arch : "", arch);
			if (!r) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = g;
			} else
				group_free(g);
		}
		free(names[i]);
	}
	free(names);
	if (r < 0) {
		configstage_groups_free(v, n);
		return r;
	}
	*ret = v;
	return (int)n;
}

void configstage_groups_free(struct group **g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		group_free(g[i]);
	free(g);
}

int configstage_load_group(const char *datadir, const char *arch,
			   const char *arg, struct group **ret,
			   struct strbuf *err)
{
	_cleanup_free_ char *dir = NULL, *file = NULL, *p = NULL;
	struct group **all = NULL;
	int n;

	if (strchr(arg, '/') || has_suffix(arg, ".config"))
		return load_file(arg, 0, ret, err);
	if (!group_name_valid(arg))
		return strbuf_fail(err, -ENOENT, "'%s' is not a group name", arg);
	if (!datadir)
		return strbuf_fail(err, -ENOENT,
			    "unknown group '%s': no data directory with "
			    "scenarios/groups/ (set BOOTPROOF_DATADIR)",
			    arg);
	dir = groups_dir(datadir, arch);
	if (asprintf(&file, "%s.config", arg) < 0)
		return -ENOMEM;
	p = path_join(dir, file);
	if (is_file(p)) {
		int r = load_file(p, GROUP_PARSE_STRICT, ret, err);

		if (!r && strcmp((*ret)->name, arg)) {
			r = strbuf_fail(err, -EINVAL,
				 "%s: '# group: %s' does not match the file "
				 "name",
				 p, (*ret)->name);
			group_free(*ret);
			*ret = NULL;
		}
		return r;
	}
	n = configstage_list_groups(datadir, arch, &all, NULL);
	{
		_cleanup_strbuf_ struct strbuf known = STRBUF_INIT;

		for (int i = 0; i < n; i++)
			strbuf_addf(&known, "%s%s", i ? ", " : "",
				    all[i]->name);
		if (n > 0)
			configstage_groups_free(all, (size_t)n);
		return strbuf_fail(err, -ENOENT,
			    "unknown group '%s' for %s (known: %s; or give "
			    "a path to a fragment file)",
			    arg, arch, known.len ? known.buf : "none");
	}
}
