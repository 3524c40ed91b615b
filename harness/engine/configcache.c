// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/configcache.h"

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
#include "util/log.h"
#include "util/paths.h"
#include "util/strbuf.h"

static void first_line(const struct strbuf *sb, struct strbuf *out)
{
	size_t n = strcspn(sb->buf, "\n");

	strbuf_add(out, sb->buf, n);
	strbuf_addch(out, '\n');
}

char *configcache_toolchain(void)
{
	static const char *const progs[][3] = {
		{ "gcc", "--version", NULL },
		{ "ld", "--version", NULL },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ELEMENTSOF(progs); i++) {
		_cleanup_(proc_result_release) struct proc_result pr =
			PROC_RESULT_INIT;
		struct proc_cmd cmd = { .argv = progs[i], .timeout_ms = 10000 };

		if (proc_run(&cmd, &pr) == 0 && proc_result_ok(&pr))
			first_line(&pr.out, &sb);
		else
			strbuf_addf(&sb, "%s: ?\n", progs[i][0]);
	}
	return strbuf_detach(&sb, NULL);
}

/* A file's bytes, then a NUL: the end of one input is marked. */
static int hash_file(struct sha256 *h, const char *path)
{
	int r = sha256_add_file(h, path);

	sha256_add_str(h, "");
	return r;
}

int configcache_key(const struct configcache_key *k, char *ret)
{
	_cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
	int r = sha256_begin(&h);

	if (r < 0)
		return r;
	sha256_add_str(&h, CONFIG_CACHE_VERSION);
	sha256_add_str(&h, k->ksrc);
	sha256_add_str(&h, k->release);
	sha256_add_str(&h, k->arch);
	sha256_add_str(&h, k->base);
	sha256_add_str(&h, k->toolchain);
	if (k->src_state)
		sha256_add_str(&h, k->src_state);
	if (strchr(k->base, '/'))
		r = hash_file(&h, k->base);
	if (r >= 0)
		r = hash_file(&h, k->helper);
	for (size_t i = 0; i < k->n_groups && r >= 0; i++) {
		sha256_add_str(&h, k->groups[i]->name);
		sha256_add_str(&h, k->groups[i]->file); /* "source" names it */
		r = hash_file(&h, k->groups[i]->file);
	}
	if (r < 0)
		return r;
	return sha256_end_hex(&h, ret);
}

char *configcache_dir(const char *cache, const char *ksrc,
		      const char *release, const char *arch, const char *key)
{
	_cleanup_free_ char *leaf = NULL;

	if (asprintf(&leaf, "configs/%s", key) < 0)
		return NULL;
	return buildstage_workdir(cache, ksrc, release, arch, leaf);
}

static bool file_ok(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

json_object *configcache_load(const char *dir, const char *dst,
			      const char *final_rel)
{
	_cleanup_free_ char *js = path_join(dir, "stage.json");
	_cleanup_free_ char *cfg = path_join(dir, "config");
	json_object *j;

	if (!file_ok(js) || !file_ok(cfg) || !(j = json_object_from_file(js)))
		return NULL;
	if (copy_file_atomic(cfg, dst, 0644) < 0) {
		json_object_put(j);
		return NULL;
	}
	json_object_object_add(j, "final_config", jsonx_new_str(final_rel));
	json_object_object_add(j, "reused", json_object_new_boolean(1));
	/* This stage took nothing; what the stage cost when it ran is kept
	 * as first_seconds and first_cpu_seconds. */
	for (size_t i = 0; i < 2; i++) {
		static const char *const k[][2] = {
			{ "seconds", "first_seconds" },
			{ "cpu_seconds", "first_cpu_seconds" },
		};
		json_object *v = jsonx_get(j, k[i][0]);

		if (!v)
			continue;
		json_object_object_add(j, k[i][1], json_object_get(v));
		json_object_object_add(j, k[i][0], json_object_new_double(0));
	}
	return j;
}

int configcache_store(const char *dir, const char *config, json_object *j,
		      bool replace)
{
	_cleanup_free_ char *tmp = NULL, *js = NULL, *cfg = NULL;
	const char *text;
	int r;

	if (asprintf(&tmp, "%s.tmp-%d", dir, (int)getpid()) < 0)
		return -ENOMEM;
	rm_rf(tmp);
	r = mkdir_p(tmp, 0755);
	js = path_join(tmp, "stage.json");
	cfg = path_join(tmp, "config");
	text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (r >= 0)
		r = copy_file_atomic(config, cfg, 0644);
	if (r >= 0)
		r = write_file_atomic(js, text, strlen(text), 0644);
	if (r >= 0 && replace)
		rm_rf(dir);
	if (r >= 0 && rename(tmp, dir) < 0 && errno != EEXIST &&
	    errno != ENOTEMPTY)
		r = -errno;
	rm_rf(tmp);
	if (r < 0)
		log_debug_errno(r, "could not cache the config stage in %s", dir);
	return r;
}
