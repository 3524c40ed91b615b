// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/image.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/sha256.h"

/* Inputs larger than this are not what we think they are. */
#define INPUT_MAX (256u << 20)

int image_accel_from_string(const char *s, enum image_accel *ret)
{
	static const char *const names[] = {
		[IMAGE_ACCEL_AUTO] = "auto",
		[IMAGE_ACCEL_TCG] = "tcg",
		[IMAGE_ACCEL_KVM] = "kvm",
	};

	for (size_t i = 0; s && i < ELEMENTSOF(names); i++)
		if (!strcmp(s, names[i])) {
			*ret = (enum image_accel)i;
			return 0;
		}
	return -EINVAL;
}

void image_result_done(struct image_result *r)
{
	free(r->path);
	free(r->manifest);
	r->path = r->manifest = NULL;
}

/* ---------------------------------------------------------- inputs */

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *default_agent(enum bp_arch arch)
{
	_cleanup_free_ char *rel = NULL, *exe = NULL, *first = NULL;
	const char *build = getenv("BP_BUILD");
	char buf[PATH_MAX];
	ssize_t n;

	if (asprintf(&rel, "guest/%s/bootproof-agent",
		     bp_arch_name(arch)) < 0)
		return NULL;
	if (build && *build)
		return path_join(build, rel);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		char *slash;
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			*slash = '\0';
			/* build/bootproof, or build/san-X/bootproof */
			first = path_join(buf, rel);
			if (is_file(first))
				return TAKE_PTR(first);
			slash = strrchr(buf, '/');
			if (slash) {
				*slash = '\0';
				exe = path_join(buf, rel);
				if (is_file(exe))
					return TAKE_PTR(exe);
			}
		}
	}
	{
		char *cwd = path_join("build", rel);
		if (is_file(cwd) || !first)
			return cwd;
		free(cwd);
	}
	return TAKE_PTR(first);
}

static char *i386_busybox(const char *cache)
{
	char *p = path_join(cache, "i386-busybox/bin/busybox");
	_cleanup_free_ char *def = NULL;

	if (is_file(p))
		return p;
	def = bp_cache_dir();
	if (def && strcmp(def, cache)) {
		char *q = path_join(def, "i386-busybox/bin/busybox");
		if (is_file(q)) {
			free(p);
			return q;
		}
		free(q);
	}
	return p;
}

/* Read an executable input and check the guest can run it. */
static int read_exe(const char *what, const char *path, enum bp_arch arch,
		    const char *hint, struct strbuf *data, struct strbuf *err)
{
	const char *why;
	long n = strbuf_read_file(data, path, INPUT_MAX);

	if (n < 0) {
		strbuf_addf(err, "%s %s: %s", what, path, strerror((int)-n));
		if (n == -ENOENT && hint)
			strbuf_addf(err, " (%s)", hint);
		return -EINVAL;
	}
	if (image_check_elf(data->buf, data->len, arch, &why) < 0) {
		strbuf_addf(err, "%s %s: %s; the %s image needs a static %s "
				 "executable",
			    what, path, why, bp_arch_name(arch),
			    bp_arch_name(arch));
		return -EINVAL;
	}
	return 0;
}

static int add_file_from(struct image_layout *l, const char *src,
			 const char *dst, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	long n = strbuf_read_file(&sb, src, INPUT_MAX);
	int r;

	if (n < 0) {
		strbuf_addf(err, "modules: %s: %s", src, strerror((int)-n));
		return -EINVAL;
	}
	r = image_layout_add_file(l, dst, 0644, sb.buf, sb.len);
	if (r < 0)
		strbuf_addf(err, "modules: %s: %s", dst, strerror(-r));
	return r;
}

/* Optional text file of a modules directory: -ENOENT is fine. */
static int read_opt(const char *dir, const char *name, struct strbuf *sb,
		    bool *present, struct strbuf *err)
{
	_cleanup_free_ char *p = path_join(dir, name);
	long n = strbuf_read_file(sb, p, INPUT_MAX);

	*present = n >= 0;
	if (n >= 0 || n == -ENOENT)
		return 0;
	strbuf_addf(err, "modules: %s: %s", p, strerror((int)-n));
	return -EINVAL;
}

/*
 * The modules of dir (/lib/modules/<release>) that wanted names need, under
 * /lib/modules/<release>/ in l; with_index: also the modules.* files
 * filtered to them (busybox modprobe in the guest reads them).  Sets
 * *ret_count, and *ret_order (when not NULL) to their paths relative to
 * the release directory, one a line.
 */
static int add_modules(struct image_layout *l, const char *dir,
		       const char *const *wanted, bool with_index,
		       size_t *ret_count, struct strbuf *ret_order,
		       struct strbuf *err)
{
	static const char *const filtered[] = {
		"modules.dep",	   "modules.order",   "modules.alias",
		"modules.symbols", "modules.softdep", "modules.devname",
	};
	static const char *const copied[] = { "modules.builtin",
					      "modules.builtin.modinfo" };
	_cleanup_strbuf_ struct strbuf dep = STRBUF_INIT, builtin = STRBUF_INIT,
				       softdep = STRBUF_INIT,
				       alias = STRBUF_INIT;
	_cleanup_(image_modsel_done) struct image_modsel sel =
		IMAGE_MODSEL_INIT;
	_cleanup_free_ char *copy = strdup(dir), *dest = NULL;
	const char *release;
	bool have_dep, have_builtin, have_softdep, have_alias;
	struct image_moddir md;
	struct stat st;
	size_t len;
	int r;

	if (!copy)
		return -ENOMEM;
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	release = strrchr(copy, '/');
	release = release ? release + 1 : copy;
	if (stat(copy, &st) < 0 || !S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "modules %s: not a directory", dir);
		return -EINVAL;
	}
	if (!*release || !strcmp(release, ".") || !strcmp(release, "..")) {
		strbuf_addf(err,
			    "modules %s: name the release directory itself "
			    "(/lib/modules/<release>)",
			    dir);
		return -EINVAL;
	}
	r = read_opt(copy, "modules.dep", &dep, &have_dep, err);
	if (r >= 0 && !have_dep) {
		strbuf_addf(err,
			    "modules %s: no modules.dep (expected "
			    "/lib/modules/<release> of a modular kernel)",
			    copy);
		r = -EINVAL;
	}
	if (r >= 0)
		r = read_opt(copy, "modules.builtin", &builtin, &have_builtin,
			     err);
	if (r >= 0)
		r = read_opt(copy, "modules.softdep", &softdep, &have_softdep,
			     err);
	if (r >= 0)
		r = read_opt(copy, "modules.alias", &alias, &have_alias, err);
	if (r < 0)
		return r;
	md = (struct image_moddir){
		.dep = dep.buf,
		.builtin = have_builtin ? builtin.buf : NULL,
		.softdep = have_softdep ? softdep.buf : NULL,
		.alias = have_alias ? alias.buf : NULL,
	};
	r = image_modules_select(&md, wanted, &sel, err);
	if (r < 0) {
		strbuf_addf(err, " (in %s)", copy);
		return -EINVAL;
	}
	if (sel.n_missing) {
		_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < sel.n_missing; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "",
				    sel.missing[i]);
		log_warn("modules %s: neither modules nor built in: %s (the "
			 "agent will report them missing)",
			 copy, names.buf);
	}
	if (asprintf(&dest, "/lib/modules/%s", release) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < sel.n_paths; i++) {
		_cleanup_free_ char *src = path_join(copy, sel.paths[i]),
				    *dst = path_join(dest, sel.paths[i]);
		r = add_file_from(l, src, dst, err);
		if (r < 0)
			return r;
		if (ret_order)
			strbuf_addf(ret_order, "%s\n", sel.paths[i]);
	}
	*ret_count = sel.n_paths;
	if (!with_index)
		return 0;
	for (size_t i = 0; i < ELEMENTSOF(filtered); i++) {
		_cleanup_strbuf_ struct strbuf in = STRBUF_INIT,
					       out = STRBUF_INIT;
		_cleanup_free_ char *dst = path_join(dest, filtered[i]);
		bool present;

		r = read_opt(copy, filtered[i], &in, &present, err);
		if (r < 0)
			return r;
		if (!present)
			continue;
		r = image_modules_filter(&sel, filtered[i], in.buf, &out);
		if (r >= 0)
			r = image_layout_add_file(l, dst, 0644, out.buf,
						  out.len);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < ELEMENTSOF(copied); i++) {
		_cleanup_free_ char *src = path_join(copy, copied[i]),
				    *dst = path_join(dest, copied[i]);
		if (!is_file(src))
			continue;
		r = add_file_from(l, src, dst, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ----------------------------------------------------------- cache */

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object *, json_object_put)

/* Remove what killed builders of this image left (we hold its lock). */
static void remove_stale_tmp(const char *dir, const char *prefix)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix))) {
			_cleanup_free_ char *p = path_join(dir, de->d_name);
			if (unlink(p) == 0)
				log_debug("removed %s (left by a build that "
					  "did not finish)",
					  p);
		}
}

static json_object *input_json(const char *path, const struct strbuf *data)
{
	json_object *o = json_object_new_object();
	char hex[IMAGE_HASH_HEX_LEN + 1] = "";

	if (sha256_hex(data->buf, data->len, hex) < 0)
		hex[0] = '\0';
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_object_add(o, "bytes", json_object_new_int64(
						   (int64_t)data->len));
	return o;
}

/*
 * <img>.checked: the file's identity (device, inode, size, mtime, ctime)
 * when its content last hashed to sha256.  The same identity again is the
 * same content (a write, a truncation or a chmod changes ctime, which no
 * user can set), so a boot does not read the whole image again; a file
 * changed in the last seconds is not stamped (stamp_write).
 */
static void stamp_text(const struct stat *st, const char *sha256, char *buf,
		       size_t n)
{
	snprintf(buf, n, "%llu %llu %lld %lld.%09ld %lld.%09ld %s\n",
		 (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)st->st_size, (long long)st->st_mtim.tv_sec,
		 st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
		 st->st_ctim.tv_nsec, sha256);
}

static bool stamp_says(const char *img, const struct stat *st,
		       const char *sha256)
{
	_cleanup_free_ char *p = NULL;
	_cleanup_strbuf_ struct strbuf have = STRBUF_INIT;
	char want[256];

	if (asprintf(&p, "%s.checked", img) < 0 ||
	    strbuf_read_file(&have, p, sizeof(want)) < 0)
		return false;
	stamp_text(st, sha256, want, sizeof(want));
	return !strcmp(have.buf, want);
}

static void stamp_write(const char *img, const char *sha256)
{
	_cleanup_free_ char *p = NULL;
	struct stat st;
	char text[256];

	if (stat(img, &st) < 0 || asprintf(&p, "%s.checked", img) < 0)
		return;
	/* File times are coarse (a few ms): a write in the same tick as
	 * the change just seen would leave them as they are.  A file
	 * changed in the last seconds gets no stamp (git's "racy clean"). */
	if (time(NULL) - st.st_ctim.tv_sec < 3)
		return;
	stamp_text(&st, sha256, text, sizeof(text));
	(void)write_file_atomic(p, text, strlen(text), 0644);
}

/*
 * Is the cached image img usable: there, of the size its layout makes,
 * and with the sha256 its manifest recorded when it was built?  1 yes
 * (ret_sha256 filled), 0 no (why says what is wrong).  An image that
 * cannot be checked is not used.  The hash is read again only when the
 * file is not the one <img>.checked last saw.
 */
static int cached_image_ok(const char *img, const char *manifest,
			   uint64_t size, char *ret_sha256, struct strbuf *why)
{
	_cleanup_(json_object_putp) json_object *m = NULL;
	char have[IMAGE_HASH_HEX_LEN + 1];
	const char *want = NULL;
	json_object *v;
	struct stat st;
	int r;

	if (stat(img, &st) < 0) {
		strbuf_addstr(why, strerror(errno));
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addstr(why, "not a regular file");
		return 0;
	}
	if ((uint64_t)st.st_size != size) {
		strbuf_addf(why, "%lld bytes where its layout makes %llu",
			    (long long)st.st_size, (unsigned long long)size);
		return 0;
	}
	m = json_object_from_file(manifest);
	if (!m) {
		strbuf_addf(why, "its manifest %s cannot be read", manifest);
		return 0;
	}
	if (json_object_object_get_ex(m, "image_sha256", &v) &&
	    json_object_is_type(v, json_type_string))
		want = json_object_get_string(v);
	if (!want || strlen(want) != IMAGE_HASH_HEX_LEN) {
		strbuf_addf(why, "%s does not record its sha256", manifest);
		return 0;
	}
	if (stamp_says(img, &st, want)) {
		memcpy(ret_sha256, want, sizeof(have));
		return 1;
	}
	r = sha256_file_hex(img, have);
	if (r < 0) {
		strbuf_addf(why, "cannot read it: %s", strerror(-r));
		return 0;
	}
	if (strcmp(have, want)) {
		strbuf_addf(why, "its content changed since it was built "
				 "(sha256 %.16s..., %s says %.16s...)",
			    have, manifest, want);
		return 0;
	}
	memcpy(ret_sha256, have, sizeof(have));
	stamp_write(img, have);
	return 1;
}

struct inputs {
	const char *agent, *busybox, *modules;
	struct strbuf agent_data, busybox_data;
	size_t n_modules;
};

static int write_manifest(const char *path, const struct image_request *req,
			  const struct inputs *in,
			  const struct image_layout *l,
			  const struct image_result *res)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	json_object *m = NULL;
	const char *s;
	char when[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!o)
		return -ENOMEM;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&t, &tm));
	json_object_object_add(o, "hash", json_object_new_string(res->hash));
	json_object_object_add(o, "image_sha256",
			       json_object_new_string(res->image_sha256));
	json_object_object_add(o, "arch", json_object_new_string(
						  bp_arch_name(
							  req->arch)));
	json_object_object_add(o, "recipe",
			       json_object_new_int(IMAGE_RECIPE_VERSION));
	json_object_object_add(o, "size",
			       json_object_new_int64((int64_t)res->size));
	json_object_object_add(o, "content_bytes",
			       json_object_new_int64((int64_t)
					image_layout_content_bytes(l)));
	json_object_object_add(o, "entries",
			       json_object_new_int64((int64_t)l->n));
	json_object_object_add(o, "agent",
			       input_json(in->agent, &in->agent_data));
	json_object_object_add(o, "busybox",
			       input_json(in->busybox, &in->busybox_data));
	if (in->modules) {
		m = json_object_new_object();
		json_object_object_add(m, "dir",
				       json_object_new_string(in->modules));
		json_object_object_add(m, "count",
				       json_object_new_int64(
					       (int64_t)in->n_modules));
	}
	json_object_object_add(o, "modules", m);
	json_object_object_add(o, "built", json_object_new_string(when));
	json_object_object_add(o, "build_seconds",
			       json_object_new_double(res->seconds));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	{
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, s);
		strbuf_addch(&sb, '\n');
		return write_file_atomic(path, sb.buf, sb.len, 0644);
	}
}

static int build_locked(const struct image_ops *ops, void *userdata,
			const struct image_request *req,
			const struct inputs *in, const struct image_layout *l,
			const char *dir, const char *base,
			struct image_result *res, struct strbuf *err)
{
	_cleanup_free_ char *img = NULL, *lock = NULL, *tmp = NULL,
			    *prefix = NULL, *manifest = NULL;
	_cleanup_close_ int lfd = -1;
	struct image_build b;
	double t0;
	int r, fd;

	if (asprintf(&img, "%s/%s.img", dir, base) < 0 ||
	    asprintf(&lock, "%s/%s.lock", dir, base) < 0 ||
	    asprintf(&manifest, "%s/%s.json", dir, base) < 0 ||
	    asprintf(&prefix, ".%s.img.tmp.", base) < 0 ||
	    asprintf(&tmp, "%s/%sXXXXXX", dir, prefix) < 0)
		return -ENOMEM;
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lfd < 0) {
		r = -errno;
		strbuf_addf(err, "cannot open lock %s: %s", lock,
			    strerror(-r));
		return r;
	}
	if (flock(lfd, LOCK_EX | LOCK_NB) < 0) {
		log_info("waiting for another build of %s", img);
		while (flock(lfd, LOCK_EX) < 0)
			if (errno != EINTR) {
				r = -errno;
				strbuf_addf(err, "cannot lock %s: %s", lock,
					    strerror(-r));
				return r;
			}
		/* That build may have made what we need. */
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		if (!req->force &&
		    cached_image_ok(img, manifest, res->size,
				    res->image_sha256, &why)) {
			res->cached = true;
			res->path = TAKE_PTR(img);
			res->manifest = TAKE_PTR(manifest);
			return 0;
		}
	}
	remove_stale_tmp(dir, prefix);

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		strbuf_addf(err, "cannot create %s: %s", tmp, strerror(-r));
		return r;
	}
	close(fd);
	b = (struct image_build){
		.layout = l, .path = tmp, .size = res->size, .accel = req->accel,
	};
	log_info("building %s (libguestfs%s, about 20 s)", img,
		 req->accel == IMAGE_ACCEL_KVM ? "" : " under TCG");
	t0 = clock_mono_s();
	r = ops->build(userdata, &b, err);
	res->seconds = clock_mono_s() - t0;
	if (r >= 0) {
		/* The image must be on disk before its name says it is
		 * complete. */
		fd = open(tmp, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) < 0 || fchmod(fd, 0644) < 0)
			r = -errno;
		if (fd >= 0)
			close(fd);
		/* What a later user checks the cached file against. */
		if (r >= 0)
			r = sha256_file_hex(tmp, res->image_sha256);
		if (r < 0)
			strbuf_addf(err, "%s: %s", tmp, strerror(-r));
	}
	if (r >= 0) {
		r = write_manifest(manifest, req, in, l, res);
		if (r < 0)
			strbuf_addf(err, "cannot write %s: %s", manifest,
				    strerror(-r));
	}
	if (r >= 0 && rename(tmp, img) < 0) {
		r = -errno;
		strbuf_addf(err, "cannot rename %s to %s: %s", tmp, img,
			    strerror(-r));
	}
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	{
		_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY |
							    O_CLOEXEC);
		if (dfd >= 0)
			(void)fsync(dfd);
	}
	res->cached = false;
	res->path = TAKE_PTR(img);
	res->manifest = TAKE_PTR(manifest);
	return 0;
}

static void inputs_done(struct inputs *in)
{
	strbuf_release(&in->agent_data);
	strbuf_release(&in->busybox_data);
}

/* The busybox of the image: req's, or where the arch's is installed. */
static int read_busybox(const struct image_request *req, const char *cache,
			char **ret_path, struct strbuf *data,
			struct strbuf *err)
{
	_cleanup_free_ char *busybox = NULL, *hint = NULL;
	int r = 0;

	if (req->busybox)
		busybox = strdup(req->busybox);
	else if (req->arch == BP_ARCH_I386)
		busybox = i386_busybox(cache);
	else
		busybox = strdup("/bin/busybox");
	if (!busybox)
		return -ENOMEM;
	if (req->busybox)
		hint = NULL;
	else if (req->arch == BP_ARCH_I386)
		r = asprintf(&hint,
			     "`make setup` as root fetches it: dpkg "
			     "--add-architecture i386 && apt-get update && "
			     "apt-get download busybox-static:i386 && dpkg-deb "
			     "-x busybox-static_*_i386.deb %s/i386-busybox; or "
			     "pass --busybox PATH",
			     cache);
	else
		r = asprintf(&hint, "apt-get install busybox-static (`make "
				    "setup` does), or pass --busybox PATH");
	if (r < 0)
		return -ENOMEM;
	r = read_exe("busybox", busybox, req->arch, hint, data, err);
	if (r < 0)
		return r;
	*ret_path = TAKE_PTR(busybox);
	return 0;
}

int image_ensure_with(const struct image_ops *ops, void *userdata,
		      const struct image_request *req, struct image_result *ret,
		      struct strbuf *err)
{
	_cleanup_(inputs_done) struct inputs in = {
		.agent_data = STRBUF_INIT, .busybox_data = STRBUF_INIT,
	};
	_cleanup_free_ char *cache = NULL, *agent = NULL, *busybox = NULL,
			    *dir = NULL, *base = NULL;
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	_cleanup_strbuf_ struct strbuf scratch = STRBUF_INIT;
	struct image_result res = { .path = NULL };
	const char *arch = bp_arch_name(req->arch);
	char resolved[PATH_MAX];
	struct stat st;
	int r;

	if (!err)
		err = &scratch;
	if (!arch) {
		strbuf_addf(err, "unknown architecture %d (x86_64 or i386)",
			    (int)req->arch);
		return -EINVAL;
	}
	cache = req->cache_dir ? strdup(req->cache_dir) : bp_cache_dir();
	if (!cache)
		return -ENOMEM;

	agent = req->agent ? strdup(req->agent) : default_agent(req->arch);
	if (!agent)
		return -ENOMEM;
	r = read_exe("agent", agent, req->arch,
		     req->agent ? NULL
				: "build it with `make guest`, or pass --agent "
				  "PATH",
		     &in.agent_data, err);
	if (r < 0)
		return r;

	r = read_busybox(req, cache, &busybox, &in.busybox_data, err);
	if (r < 0)
		return r;
	in.agent = agent;
	in.busybox = busybox;
	in.modules = req->modules;

	r = image_layout_add_base(&l);
	if (r >= 0)
		r = image_layout_add_file(&l, IMAGE_AGENT_PATH, 0755,
					  in.agent_data.buf, in.agent_data.len);
	if (r >= 0)
		r = image_layout_add_busybox(&l, in.busybox_data.buf,
					     in.busybox_data.len);
	if (r < 0) {
		strbuf_addf(err, "image layout: %s", strerror(-r));
		return r;
	}
	if (req->modules) {
		r = add_modules(&l, req->modules, image_default_modules, true,
				&in.n_modules, NULL, err);
		if (r < 0)
			return r;
	}

	r = image_layout_hash(&l, req->arch, res.hash);
	if (r < 0)
		return r;
	res.size = image_disk_size(image_layout_content_bytes(&l));
	if (asprintf(&base, "bootproof-%s-%.16s", arch, res.hash) < 0)
		return -ENOMEM;

	dir = path_join(cache, "images");
	r = mkdir_p(dir, 0755);
	if (r < 0) {
		strbuf_addf(err, "cannot create %s: %s", dir, strerror(-r));
		return r;
	}
	if (realpath(dir, resolved)) {
		free(dir);
		dir = strdup(resolved);
		if (!dir)
			return -ENOMEM;
	}

	{
		_cleanup_free_ char *img = NULL, *manifest = NULL;
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		if (asprintf(&img, "%s/%s.img", dir, base) < 0 ||
		    asprintf(&manifest, "%s/%s.json", dir, base) < 0)
			return -ENOMEM;
		/* Complete, or not there at all: it is renamed into place.
		 * Complete, but damaged since: built again. */
		if (!req->force &&
		    cached_image_ok(img, manifest, res.size, res.image_sha256,
				    &why)) {
			res.cached = true;
			res.path = TAKE_PTR(img);
			res.manifest = TAKE_PTR(manifest);
			*ret = res;
			return 0;
		}
		if (!req->force && lstat(img, &st) == 0)
			log_warn("cached image %s cannot be used: %s; building "
				 "it again",
				 img, why.buf);
	}
	r = build_locked(ops, userdata, req, &in, &l, dir, base, &res, err);
	if (r < 0) {
		image_result_done(&res);
		return r;
	}
	*ret = res;
	return 0;
}

int image_ensure(const struct image_request *req, struct image_result *ret)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int r = image_ensure_with(&image_guestfs_ops, NULL, req, ret, &err);

	if (r < 0)
		log_error("image: %s", err.len ? err.buf : strerror(-r));
	return r;
}

/* ------------------------------------------------------- initramfs */

/* The cpio of l, in memory. */
static int initramfs_bytes(const struct image_layout *l, struct strbuf *out,
			   struct strbuf *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return -ENOMEM;
	r = image_layout_write_cpio(l, f, err);
	if (fclose(f) != 0 && r >= 0)
		r = -ENOMEM;
	if (r >= 0)
		strbuf_add(out, buf, len);
	free(buf);
	return r;
}

/* Is the file at path exactly want? */
static bool same_bytes(const char *path, const struct strbuf *want)
{
	_cleanup_strbuf_ struct strbuf have = STRBUF_INIT;
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != want->len)
		return false;
	if (strbuf_read_file(&have, path, INPUT_MAX) < 0)
		return false;
	return have.len == want->len && !memcmp(have.buf, want->buf, want->len);
}

int image_initramfs_ensure(const struct image_request *req,
			   struct image_result *ret, struct strbuf *err)
{
	static const char *const dirs[] = { "/dev", "/proc", "/sys", "/root",
					    "/bootproof" };
	_cleanup_strbuf_ struct strbuf agent_data = STRBUF_INIT,
				       order = STRBUF_INIT,
				       cpio = STRBUF_INIT;
	_cleanup_free_ char *cache = NULL, *agent = NULL, *dir = NULL,
			    *path = NULL;
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	struct image_result res = { .path = NULL };
	const char *arch = bp_arch_name(req->arch);
	long long t0 = clock_mono_ms();
	size_t n_mod = 0;
	int r = 0;

	if (!arch || !req->modules) {
		strbuf_addstr(err, !arch ? "initramfs: unknown architecture"
					 : "initramfs: no modules directory");
		return -EINVAL;
	}
	cache = req->cache_dir ? strdup(req->cache_dir) : bp_cache_dir();
	agent = req->agent ? strdup(req->agent) : default_agent(req->arch);
	if (!cache || !agent)
		return -ENOMEM;
	r = read_exe("agent", agent, req->arch,
		     req->agent ? NULL : "build it with `make guest`",
		     &agent_data, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ELEMENTSOF(dirs) && r >= 0; i++)
		r = image_layout_add_dir(&l, dirs[i], 0755);
	if (r >= 0)
		r = image_layout_add_chardev(&l, "/dev/console", 0600, 5, 1);
	if (r >= 0)
		r = image_layout_add_file(&l, BP_INITRAMFS_INIT, 0755,
					  agent_data.buf, agent_data.len);
	if (r < 0) {
		strbuf_addf(err, "initramfs layout: %s", strerror(-r));
		return r;
	}
	r = add_modules(&l, req->modules, image_root_modules, false, &n_mod,
			&order, err);
	if (r < 0)
		return r;
	r = image_layout_add_file(&l, BP_INITRAMFS_MODULES, 0644, order.buf,
				  order.len);
	if (r >= 0)
		r = image_layout_hash(&l, req->arch, res.hash);
	if (r >= 0)
		r = initramfs_bytes(&l, &cpio, err);
	if (r < 0)
		return r;

	dir = path_join(cache, "images");
	r = dir ? mkdir_p(dir, 0755) : -ENOMEM;
	if (r < 0) {
		strbuf_addf(err, "cannot create %s/images: %s", cache,
			    strerror(-r));
		return r;
	}
	if (asprintf(&path, "%s/initramfs-%s-%.16s.cpio", dir, arch,
		     res.hash) < 0)
		return -ENOMEM;
	res.size = cpio.len;
	res.cached = !req->force && same_bytes(path, &cpio);
	if (!res.cached) {
		r = write_file_atomic(path, cpio.buf, cpio.len, 0644);
		if (r < 0) {
			strbuf_addf(err, "cannot write %s: %s", path,
				    strerror(-r));
			return r;
		}
		res.seconds = (double)(clock_mono_ms() - t0) / 1000.0;
	}
	res.path = TAKE_PTR(path);
	*ret = res;
	return 0;
}
