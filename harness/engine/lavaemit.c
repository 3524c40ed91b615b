// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/lavaemit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/recjson.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/xalloc.h"

bool lavaemit_url_ok(const char *url, const char **ret_why)
{
	const char *host;

	if (!strncmp(url, "http://", 7))
		host = url + 7;
	else if (!strncmp(url, "https://", 8))
		host = url + 8;
	else {
		*ret_why = "not an http:// or https:// URL (a lab downloads "
			   "the files from it)";
		return false;
	}
	if (!*host || *host == '/') {
		*ret_why = "no host in the URL";
		return false;
	}
	if (strpbrk(url, " \t\n\"'{}")) {
		*ret_why = "spaces, quotes and braces have no place in it";
		return false;
	}
	return true;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* src placed at <out>/<rel> unless a file of its size is there already:
 * a hard link, else a copy (each through a temporary name). */
static int place(const char *src, const char *dst, struct strbuf *err)
{
	_cleanup_free_ char *dir = xstrdup(dst), *tmp = NULL;
	struct stat a, b;
	int r;

	if (stat(src, &a) < 0)
		return strbuf_fail(err, -errno, "%s: %s", src, strerror(errno));
	if (stat(dst, &b) == 0 && S_ISREG(b.st_mode) && b.st_size == a.st_size)
		return 0;
	*strrchr(dir, '/') = '\0';
	r = mkdir_p(dir, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", dir, strerror(-r));
	if (asprintf(&tmp, "%s.tmp.%ld", dst, (long)getpid()) < 0)
		abort();
	unlink(tmp);
	if (link(src, tmp) == 0) {
		if (rename(tmp, dst) == 0)
			return 0;
		r = -errno;
		unlink(tmp);
		return strbuf_fail(err, r, "%s: %s", dst, strerror(-r));
	}
	r = copy_file_atomic(src, dst, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "cannot copy %s to %s: %s", src, dst,
				   strerror(-r));
	return 0;
}

/* One file into the folder: kind/<sha256>/<name> (by_hash) or
 * kind/<name>; its URL and sha256 into f (strings owned by *keep). */
static int publish(const struct lavaemit_opts *o, const char *kind,
		   const char *src, bool by_hash, struct lavajob_file *f,
		   char **keep_url, char sha[65], struct strbuf *err)
{
	_cleanup_free_ char *rel = NULL, *dst = NULL;
	size_t ul = strlen(o->url);
	int r;

	r = sha256_file_hex(src, sha);
	if (r < 0)
		return strbuf_fail(err, r, "cannot read %s: %s", src, strerror(-r));
	if (by_hash)
		r = asprintf(&rel, "%s/%.16s/%s", kind, sha, base_name(src));
	else
		r = asprintf(&rel, "%s/%s", kind, base_name(src));
	if (r < 0)
		abort();
	dst = path_join(o->out, rel);
	r = place(src, dst, err);
	if (r < 0)
		return r;
	while (ul && o->url[ul - 1] == '/')
		ul--;
	if (asprintf(keep_url, "%.*s/%s", (int)ul, o->url, rel) < 0)
		abort();
	f->url = *keep_url;
	f->sha256 = sha;
	return 0;
}

static json_object *file_json(const struct lavajob_file *f, const char *src)
{
	json_object *o = json_object_new_object();

	recjson_add_str(o, "path", src);
	recjson_add_str(o, "url", f->url);
	recjson_add_str(o, "sha256", f->sha256);
	return o;
}

int lavaemit_job(const struct lavaemit_opts *o, const char *id,
		 const char *job_name, const struct boot_request *req,
		 const struct lavajob_meta *meta, size_t n_meta,
		 json_object **ret, struct strbuf *err)
{
	_cleanup_free_ char *ku = NULL, *iu = NULL, *du = NULL, *yaml = NULL;
	_cleanup_free_ char *cmdline = NULL, *rel = NULL, *job = NULL;
	char ks[65], is[65], ds[65];
	struct domxml_spec guest = {
		.arch = req->arch,
		.accel = BP_ACCEL_TCG,
		.memory_mib = req->memory_mib,
		.vcpus = req->vcpus,
	};
	struct lavajob_spec spec = {
		.job_name = job_name,
		.guest = &guest,
		.meta = meta,
		.n_meta = n_meta,
	};
	json_object *j, *files;
	int r;

	*ret = NULL;
	if (!req->image)
		return strbuf_fail(err, -EINVAL, "a LAVA job needs the agent's "
				   "root image (scenarios 'none' cannot be "
				   "reported through LAVA)");
	cmdline = boot_cmdline(req, 0);
	guest.cmdline = cmdline;
	spec.boot_timeout_s = boot_timeout(req, BP_ACCEL_TCG, NULL);
	r = publish(o, "kernels", req->kernel, true, &spec.kernel, &ku, ks, err);
	if (r == 0 && req->initrd)
		r = publish(o, "initrds", req->initrd, true, &spec.initrd, &iu,
			    is, err);
	if (r == 0)
		r = publish(o, "images", req->image, false, &spec.disk, &du, ds,
			    err);
	if (r < 0)
		return r;
	r = lavajob_build(&spec, &yaml);
	if (r == -EINVAL)
		return strbuf_fail(err, r, "the kernel command line cannot be "
				   "a QEMU argument of a LAVA job (no double "
				   "quotes or backslashes): %s", cmdline);
	if (r < 0)
		return strbuf_fail(err, r, "cannot write the LAVA job: %s",
				   strerror(-r));
	if (asprintf(&rel, "jobs/%s.yaml", id) < 0)
		abort();
	job = path_join(o->out, rel);
	{
		_cleanup_free_ char *dir = xstrdup(job);

		*strrchr(dir, '/') = '\0';
		r = mkdir_p(dir, 0755);
		if (r < 0)
			return strbuf_fail(err, r, "%s: %s", dir, strerror(-r));
	}
	r = write_file_atomic(job, yaml, strlen(yaml), 0644);
	if (r < 0)
		return strbuf_fail(err, r, "cannot write %s: %s", job,
				   strerror(-r));

	j = json_object_new_object();
	recjson_add_str(j, "job", job);
	recjson_add_str(j, "job_name", job_name);
	recjson_add_str(j, "folder", o->out);
	recjson_add_str(j, "url", o->url);
	files = json_object_new_object();
	json_object_object_add(files, "kernel", file_json(&spec.kernel, req->kernel));
	if (req->initrd)
		json_object_object_add(files, "initrd",
				       file_json(&spec.initrd, req->initrd));
	json_object_object_add(files, "image", file_json(&spec.disk, req->image));
	json_object_object_add(j, "files", files);
	recjson_add_str(j, "cmdline", cmdline);
	{
		json_object *sc = json_object_new_array(), *al;
		_cleanup_free_ char *copy = xstrdup(req->scenarios ? req->scenarios
								   : "boot");
		char *save = NULL;

		for (char *t = strtok_r(copy, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_object_array_add(sc, json_object_new_string(t));
		json_object_object_add(j, "scenarios", sc);
		al = json_object_new_array();
		for (size_t i = 0; i < req->n_allowed; i++)
			json_object_array_add(al, json_object_new_string(req->allowed[i]));
		json_object_object_add(j, "allowed", al);
	}
	json_object_object_add(j, "timeout_s",
			       json_object_new_int((int)spec.boot_timeout_s));
	*ret = j;
	return 0;
}
