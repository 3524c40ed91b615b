// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/buildmeasure.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/recjson.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* vmlinux.a of a defconfig is about 1 MiB of names (and its symbol
 * table); an allmodconfig's lists stay far below this. */
#define LIST_MAX (256u << 20)

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcmp(s + n - k, suf);
}

static int any_object(const char *p, const struct stat *st, int type,
		      struct FTW *f)
{
	return type == FTW_F && has_suffix(p, ".o") ? 1 : 0;
}

void buildmeasure_before(const char *obj, struct buildmeasure *m)
{
	_cleanup_free_ char *last = path_join(obj, BUILDMEASURE_LAST_CONFIG);
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	*m = (struct buildmeasure){ .objects = -1, .objects_compiled = -1,
				    .bzimage_bytes = -1 };
	clock_gettime(CLOCK_REALTIME, &m->started);
	/* nftw returns 1 at the first object; 0 when it walked everything
	 * (an empty or missing tree counts as clean). */
	m->from_clean = nftw(obj, any_object, 16, FTW_PHYS) == 0;
	if (strbuf_read_file(&sb, last, 256) > 0) {
		strbuf_trim(&sb);
		if (sb.len == 64)
			memcpy(m->previous, sb.buf, 65);
	}
}

char *buildmeasure_ccache_log(const char *obj)
{
	char *p = path_join(obj, ".bootproof-ccache-stats.log");

	if (p)
		unlink(p);
	return p;
}

/* The objects, deduplicated: a sorted set of paths relative to obj. */
struct objset {
	char **v;
	size_t n, alloc;
	const char *dir;	/* of the list being read, relative; "" top */
};

static int objset_add(void *ud, const char *name, size_t len)
{
	struct objset *s = ud;
	_cleanup_strbuf_ struct strbuf p = STRBUF_INIT;

	if (len > 2 && !memcmp(name, "./", 2)) {
		name += 2;
		len -= 2;
	}
	if (*s->dir && name[0] != '/')
		strbuf_addf(&p, "%s/", s->dir);
	strbuf_add(&p, name, len);
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 1024;
		s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->n++] = strbuf_detach(&p, NULL);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void objset_unique(struct objset *s)
{
	size_t k = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (size_t i = 1; i < s->n; i++) {
		if (!strcmp(s->v[i], s->v[k]))
			free(s->v[i]);
		else
			s->v[++k] = s->v[i];
	}
	s->n = k + 1;
}

static void objset_done(struct objset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* The members of the archive rel (relative to obj), if it exists. */
static bool add_archive(const char *obj, const char *rel, struct objset *s)
{
	_cleanup_free_ char *p = path_join(obj, rel);
	_cleanup_free_ char *dir = xstrdup(rel);
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char *slash = strrchr(dir, '/');

	if (strbuf_read_file(&sb, p, LIST_MAX) < 0)
		return false;
	if (slash)
		*slash = '\0';
	else
		*dir = '\0';
	/* GNU ar stores a thin archive's members relative to the archive. */
	s->dir = dir;
	return kbuild_ar_members(sb.buf, sb.len, objset_add, s) >= 0;
}

/* Every module's objects: modules.order names <dir>/<m>.o (or .ko
 * before 6.1); <dir>/<m>.mod lists its objects relative to obj. */
static int add_module(void *ud, const char *name, size_t len)
{
	struct objset *s = ud;
	_cleanup_strbuf_ struct strbuf mod = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *dot = memrchr(name, '.', len);

	strbuf_addf(&mod, "%s/", s->dir);
	strbuf_add(&mod, name, dot ? (size_t)(dot - name) : len);
	strbuf_addstr(&mod, ".mod");
	if (strbuf_read_file(&sb, mod.buf, LIST_MAX) < 0)
		return 0;
	{
		struct objset sub = *s;

		sub.dir = "";
		kbuild_words(sb.buf, sb.len, objset_add, &sub);
		s->v = sub.v;
		s->n = sub.n;
		s->alloc = sub.alloc;
	}
	return 0;
}

static bool newer(const struct stat *st, const struct timespec *t)
{
	return st->st_mtim.tv_sec > t->tv_sec ||
	       (st->st_mtim.tv_sec == t->tv_sec &&
		st->st_mtim.tv_nsec >= t->tv_nsec);
}

static void count_objects(const char *obj, struct buildmeasure *m)
{
	static const char *const libs[] = { "lib/lib.a", "arch/x86/lib/lib.a" };
	_cleanup_free_ char *order = path_join(obj, "modules.order");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct objset s = { 0 };
	long compiled = 0;

	if (!add_archive(obj, "vmlinux.a", &s)) {
		objset_done(&s);
		return;
	}
	for (size_t i = 0; i < ELEMENTSOF(libs); i++)
		add_archive(obj, libs[i], &s);
	if (strbuf_read_file(&sb, order, LIST_MAX) >= 0) {
		s.dir = obj;
		kbuild_words(sb.buf, sb.len, add_module, &s);
	}
	objset_unique(&s);
	for (size_t i = 0; i < s.n; i++) {
		_cleanup_free_ char *p = path_join(obj, s.v[i]);
		struct stat st;

		if (stat(p, &st) == 0 && newer(&st, &m->started))
			compiled++;
	}
	m->objects = (long)s.n;
	m->objects_compiled = compiled;
	objset_done(&s);
}

void buildmeasure_mark(const char *obj, const char *hash)
{
	_cleanup_free_ char *last = path_join(obj, BUILDMEASURE_LAST_CONFIG);

	write_file_atomic(last, hash, strlen(hash), 0644);
}

void buildmeasure_after(const char *obj, const char *hash, double cpu_seconds,
			struct buildmeasure *m)
{
	_cleanup_free_ char *log = path_join(obj, ".bootproof-ccache-stats.log");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	m->cpu_seconds = cpu_seconds;
	count_objects(obj, m);
	if (strbuf_read_file(&sb, log, LIST_MAX) >= 0) {
		kbuild_ccache_log(sb.buf, sb.len, &m->ccache);
		m->have_ccache = true;
	}
	buildmeasure_mark(obj, hash);
}

static int64_t file_bytes(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size
							     : -1;
}

static bool read_at(int fd, uint64_t off, size_t len, void **ret)
{
	char *b = xmalloc(len ? len : 1);
	size_t got = 0;

	while (got < len) {
		ssize_t k = pread(fd, b + got, len - got, (off_t)(off + got));

		if (k <= 0) {
			free(b);
			return false;
		}
		got += (size_t)k;
	}
	*ret = b;
	return true;
}

static bool vmlinux_sizes(const char *path, struct elfsize *ret)
{
	_cleanup_close_ int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	_cleanup_free_ void *head = NULL, *table = NULL;
	uint64_t off, len;

	if (fd < 0 || !read_at(fd, 0, ELFSIZE_HEAD, &head) ||
	    elfsize_table(head, ELFSIZE_HEAD, &off, &len) < 0 ||
	    !read_at(fd, off, (size_t)len, &table))
		return false;
	return elfsize_sum(head, ELFSIZE_HEAD, table, (size_t)len, ret) == 0;
}

static struct buildmeasure *walk_m;

static int add_ko(const char *p, const struct stat *st, int type,
		  struct FTW *f)
{
	if (type == FTW_F && (has_suffix(p, ".ko") || has_suffix(p, ".ko.xz") ||
			      has_suffix(p, ".ko.zst") || has_suffix(p, ".ko.gz"))) {
		walk_m->modules++;
		walk_m->modules_bytes += st->st_size;
	}
	return 0;
}

void buildmeasure_sizes(const char *bzimage, const char *vmlinux,
			const char *modules, struct buildmeasure *m)
{
	m->bzimage_bytes = file_bytes(bzimage);
	m->have_vmlinux = vmlinux_sizes(vmlinux, &m->vmlinux);
	m->modules = 0;
	m->modules_bytes = 0;
	if (modules) {
		walk_m = m;
		nftw(modules, add_ko, 16, FTW_PHYS);
		walk_m = NULL;
	}
}

static json_object *num_or_null(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

json_object *buildmeasure_json(const struct buildmeasure *m)
{
	json_object *o = json_object_new_object(), *v;

	json_object_object_add(o, "objects", num_or_null(m->objects));
	json_object_object_add(o, "objects_compiled",
			       num_or_null(m->objects_compiled));
	json_object_object_add(o, "from_clean",
			       json_object_new_boolean(m->from_clean));
	recjson_add_str(o, "previous_config", m->previous[0] ? m->previous : NULL);
	json_object_object_add(o, "cpu_seconds", recjson_seconds(m->cpu_seconds));
	json_object_object_add(o, "restore_cpu_seconds",
			       recjson_seconds(m->restore_cpu_seconds));
	if (m->have_ccache) {
		v = json_object_new_object();
		json_object_object_add(v, "hits",
				       json_object_new_int64((int64_t)m->ccache.hits));
		json_object_object_add(v, "misses",
				       json_object_new_int64((int64_t)m->ccache.misses));
		json_object_object_add(v, "other",
				       json_object_new_int64((int64_t)m->ccache.other));
		json_object_object_add(o, "ccache", v);
	} else {
		json_object_object_add(o, "ccache", NULL);
	}
	json_object_object_add(o, "bzimage_bytes", num_or_null(m->bzimage_bytes));
	if (m->have_vmlinux) {
		v = json_object_new_object();
		json_object_object_add(v, "text",
				       json_object_new_int64((int64_t)m->vmlinux.text));
		json_object_object_add(v, "data",
				       json_object_new_int64((int64_t)m->vmlinux.data));
		json_object_object_add(v, "bss",
				       json_object_new_int64((int64_t)m->vmlinux.bss));
		json_object_object_add(o, "vmlinux", v);
	} else {
		json_object_object_add(o, "vmlinux", NULL);
	}
	v = json_object_new_object();
	json_object_object_add(v, "count", json_object_new_int64(m->modules));
	json_object_object_add(v, "bytes", json_object_new_int64(m->modules_bytes));
	json_object_object_add(o, "modules", v);
	return o;
}
