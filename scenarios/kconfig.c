// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The running kernel's configuration, for SKIP reasons.  /proc/config.gz
 * (CONFIG_IKCONFIG_PROC), inflated here with zlib (a busybox zcat, forked
 * and exec'd, took 70-100 ms of a TCG guest's boot); without it,
 * /boot/config-<release> in the image; without that, callers fall back on
 * /proc/kallsyms and on the errno of the failing call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "agent.h"

#define KCONFIG_MAX (4u << 20)

static char *config_text;
static char config_src[128];

/* A gzip file's contents into buf, NUL-terminated, truncated to n-1:
 * the bytes stored, or -1. */
static long inflate_file(const char *path, char *buf, size_t n)
{
	gzFile f = gzopen(path, "rb");
	size_t got = 0;
	int r = 0;

	if (!f)
		return -1;
	while (got + 1 < n) {
		unsigned want = n - 1 - got > (1u << 30) ? 1u << 30
							 : (unsigned)(n - 1 - got);

		r = gzread(f, buf + got, want);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	gzclose(f);
	buf[got] = '\0';
	return r < 0 ? -1 : (long)got;
}

int kconfig_load(void)
{
	struct utsname u;
	char path[128 + sizeof(u.release)];
	long r;

	free(config_text);
	config_text = malloc(KCONFIG_MAX);
	if (!config_text)
		return -ENOMEM;
	if (inflate_file("/proc/config.gz", config_text, KCONFIG_MAX) > 0 &&
	    strstr(config_text, "CONFIG_")) {
		snprintf(config_src, sizeof(config_src), "/proc/config.gz");
		return 0;
	}
	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		r = read_file(path, config_text, KCONFIG_MAX);
		if (r > 0 && strstr(config_text, "CONFIG_")) {
			copy_str(config_src, sizeof(config_src), path);
			return 0;
		}
	}
	free(config_text);
	config_text = NULL;
	config_src[0] = '\0';
	return -ENOENT;
}

const char *kconfig_source(void)
{
	return config_text ? config_src : NULL;
}

enum kcfg kcfg_state(const char *sym, char *val, size_t n)
{
	const char *hit;
	char key[128];
	size_t klen;

	if (val && n)
		val[0] = '\0';
	if (!config_text)
		return KCFG_UNKNOWN;
	klen = (size_t)snprintf(key, sizeof(key), "\nCONFIG_%s=", sym);
	/* key starts with '\n'; the first line has none before it. */
	if (strncmp(config_text, key + 1, klen - 1) == 0)
		hit = config_text;
	else if ((hit = strstr(config_text, key)))
		hit++;
	if (!hit)
		return KCFG_UNSET;
	if (val && n) {
		const char *v = hit + klen - 1;
		size_t vl = strcspn(v, "\n");

		if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
			v++;
			vl -= 2;
		}
		snprintf(val, n, "%.*s", (int)vl, v);
	}
	return KCFG_SET;
}

int ksym_present(const char *sym)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t slen = strlen(sym);
	bool any = false;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* "ffffffff81000000 T name\t[module]" */
		char *name = strchr(line, ' ');

		if (!name || !(name = strchr(name + 1, ' ')))
			continue;
		name++;
		any = true;
		if (strncmp(name, sym, slen) == 0 &&
		    (name[slen] == '\n' || name[slen] == '\t' ||
		     name[slen] == '\0'))
			return 1;
	}
	return any ? 0 : -ENODATA;
}

bool feature_missing(const char *cfg, const char *ksym, int err,
		     const char *call, char *reason, size_t n)
{
	enum kcfg st = cfg ? kcfg_state(cfg, NULL, 0) : KCFG_UNKNOWN;

	if (err < 0)
		err = -err;
	if (st == KCFG_UNSET) {
		snprintf(reason, n, "CONFIG_%s not set", cfg);
		return true;
	}
	if (st == KCFG_SET)
		return false;
	if (ksym) {
		int r = ksym_present(ksym);

		if (r == 0) {
			snprintf(reason, n,
				 "CONFIG_%s not set (no %s in /proc/kallsyms)",
				 cfg, ksym);
			return true;
		}
		if (r == 1)
			return false;
	}
	if (err == ENOSYS || err == EINVAL || err == ENOENT || err == ENODEV ||
	    err == EOPNOTSUPP) {
		if (cfg)
			snprintf(reason, n, "%s: %s (CONFIG_%s not set?)",
				 call ? call : "call", errname(err), cfg);
		else
			snprintf(reason, n, "%s: %s", call ? call : "call",
				 errname(err));
		return true;
	}
	return false;
}

bool probe_missing(int fd, const char *cfg, const char *ksym,
		   const char *call, char *reason, size_t n)
{
	if (fd >= 0) {
		close(fd);
		return false;
	}
	return feature_missing(cfg, ksym, errno, call, reason, n);
}
