// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/refreshstage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arch.h"
#include "engine/configstage.h"
#include "engine/ksrc.h"
#include "util/fileio.h"
#include "util/lockfile.h"
#include "util/paths.h"
#include "util/xalloc.h"

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

/*
 * One side's argument: the defconfig file it names (*ret_file) and what
 * the config stage takes as its base (*ret_base: the in-tree target, or the
 * file).  -EINVAL with err naming the argument when it is neither.
 */
static int resolve_side(const struct refreshstage_opts *o, const char *what,
			const char *arg, char **ret_file, char **ret_base,
			struct strbuf *err)
{
	_cleanup_free_ char *rel = NULL, *path = NULL;
	char buf[4096];

	if (strchr(arg, '/')) {
		if (!realpath(arg, buf))
			return strbuf_fail(err, -EINVAL, "%s %s: %s", what, arg,
					   strerror(errno));
		if (!is_file(buf))
			return strbuf_fail(err, -EINVAL,
					   "%s %s: not a regular file", what,
					   arg);
		*ret_file = xstrdup(buf);
		*ret_base = xstrdup(buf);
		return 0;
	}
	if (!strcmp(arg, "defconfig")) {
		if (asprintf(&rel, "arch/x86/configs/%s_defconfig", o->arch) < 0)
			return -ENOMEM;
	} else if (has_suffix(arg, "_defconfig") && !strchr(arg, '.')) {
		if (asprintf(&rel, "arch/x86/configs/%s", arg) < 0)
			return -ENOMEM;
	} else
		return strbuf_fail(err, -EINVAL,
				   "%s '%s': expected a defconfig of "
				   "arch/x86/configs/ (x86_64_defconfig, "
				   "i386_defconfig, defconfig) or a path to a "
				   "defconfig file (with a '/', e.g. ./new_defconfig)",
				   what, arg);
	path = path_join(o->ksrc, rel);
	if (!is_file(path))
		return strbuf_fail(err, -EINVAL, "%s '%s': no %s in %s", what,
				   arg, rel, o->ksrc);
	*ret_file = TAKE_PTR(path);
	*ret_base = xstrdup(arg);
	return 0;
}

/* The defconfig's lines, parsed as the config stage parses a base. */
static int read_def(const char *file, struct kconfig **ret, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_kconfig_error_ struct kconfig_error kerr = KCONFIG_ERROR_INIT;
	_cleanup_kconfig_ struct kconfig *kc = NULL;
	long n = strbuf_read_file(&sb, file, 64u << 20);
	int r;

	if (n < 0)
		return strbuf_fail(err, -EINVAL, "%s: %s", file,
				   strerror((int)-n));
	r = kconfig_new(&kc);
	if (r < 0)
		return r;
	r = kconfig_parse(kc, file, sb.buf, sb.len, &kerr);
	if (r == -EINVAL)
		return strbuf_fail(err, r, "%s", kerr.msg.buf);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", file, strerror(-r));
	*ret = TAKE_PTR(kc);
	return 0;
}

static void side_done(struct refreshstage_side *s)
{
	free(s->file);
	free(s->final_config);
	kconfig_free(s->def);
	kconfig_free(s->final);
	explain_result_free(s->why);
}

void refreshstage_result_free(struct refreshstage_result *r)
{
	if (!r)
		return;
	/* The comparison borrows from the sides' sets. */
	refresh_result_free(r->refresh);
	side_done(&r->old);
	side_done(&r->new);
	free(r->release);
	free(r->explain_error);
	free(r);
}

static struct configstage_opts stage_opts(const struct refreshstage_opts *o,
					  const char *base, const char *odir)
{
	return (struct configstage_opts){
		.ksrc = o->ksrc,
		.arch = o->arch,
		.base = base,
		.odir = odir,
		.cache = o->cache,
		.datadir = o->datadir,
		.make_only = true,
	};
}

/* One side's input checked: its defconfig found and read.  *ret_base:
 * what the config stage takes as the base. */
static int check_side(const struct refreshstage_opts *o, const char *what,
		      const char *arg, struct refreshstage_side *side,
		      char **ret_base, struct strbuf *err)
{
	int r = resolve_side(o, what, arg, &side->file, ret_base, err);

	if (r < 0)
		return r;
	return read_def(side->file, &side->def, err);
}

/* Step 1 for one side: its final .config made. */
static int make_side(const struct refreshstage_opts *o, const char *base,
		     const char *odir, struct refreshstage_side *side,
		     char **ret_release, struct strbuf *err)
{
	_cleanup_configstage_result_ struct configstage_result *cr = NULL;
	struct configstage_opts so = stage_opts(o, base, odir);
	int r = configstage_run(&so, &cr, err);

	if (r < 0)
		return r;
	side->final_config = TAKE_PTR(cr->final_config);
	side->final = TAKE_PTR(cr->final);
	if (!*ret_release)
		*ret_release = TAKE_PTR(cr->release);
	return 0;
}

/* Steps 3 and 4: Kconfig asked about both sides, the lines classified. */
static void classify(const struct refreshstage_opts *o, const char *odir_old,
		     const char *odir_new, struct refreshstage_result *res)
{
	_cleanup_strbuf_ struct strbuf q = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf herr = STRBUF_INIT;
	struct configstage_opts so;
	size_t n = refresh_queries(res->refresh, &q);
	int r = 0;

	if (n) {
		so = stage_opts(o, NULL, odir_old);
		r = configstage_explain(&so, q.buf, q.len, n, &res->old.why,
					&herr);
		if (!r) {
			so = stage_opts(o, NULL, odir_new);
			r = configstage_explain(&so, q.buf, q.len, n,
						&res->new.why, &herr);
		}
	}
	if (r < 0) {
		res->explain_error = strbuf_detach(&herr, NULL);
		explain_result_free(res->old.why);
		res->old.why = NULL;
		refresh_classify(res->refresh, NULL, NULL);
		return;
	}
	if (!n) {
		/* Nothing to ask: empty answers classify as well. */
		res->old.why = xcalloc(1, sizeof(struct explain_result));
		res->new.why = xcalloc(1, sizeof(struct explain_result));
	}
	refresh_classify(res->refresh, res->old.why, res->new.why);
}

int refreshstage_run(const struct refreshstage_opts *o,
		     struct refreshstage_result **ret, struct strbuf *err)
{
	_cleanup_refreshstage_result_ struct refreshstage_result *res = NULL;
	_cleanup_free_ char *odir_old = NULL, *odir_new = NULL, *lockpath = NULL;
	_cleanup_free_ char *base_old = NULL, *base_new = NULL;
	_cleanup_lockfile_ int lock = -1;
	int r;

	if (bp_arch_from_name(o->arch, NULL) < 0)
		return strbuf_fail(err, -EINVAL,
				   "unknown arch '%s' (x86_64 or i386)", o->arch);
	if (o->odir[0] != '/')
		return strbuf_fail(err, -EINVAL,
				   "O= directory %s must be an absolute path",
				   o->odir);
	r = mkdir_p(o->odir, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", o->odir, strerror(-r));
	lockpath = path_join(o->odir, ".bootproof-refresh.lock");
	lock = lockfile_take(lockpath, 0, NULL);
	if (lock < 0)
		return strbuf_fail(err, lock, "%s: %s", lockpath,
				   strerror(-lock));
	odir_old = path_join(o->odir, "old");
	odir_new = path_join(o->odir, "new");

	res = xcalloc(1, sizeof(*res));
	/* Both inputs checked before the minutes of Kconfig runs. */
	r = check_side(o, "old defconfig", o->old, &res->old, &base_old, err);
	if (r >= 0)
		r = check_side(o, "new defconfig", o->new, &res->new,
			       &base_new, err);
	if (r < 0)
		return r;
	r = make_side(o, base_old, odir_old, &res->old, &res->release, err);
	if (r >= 0)
		r = make_side(o, base_new, odir_new, &res->new, &res->release,
			      err);
	if (r < 0)
		return r;
	r = refresh_compare(res->old.def, res->new.def, res->old.final,
			    res->new.final, &res->refresh);
	if (r < 0)
		return strbuf_fail(err, r, "comparing the results: %s",
				   strerror(-r));
	classify(o, odir_old, odir_new, res);
	*ret = TAKE_PTR(res);
	return 0;
}
