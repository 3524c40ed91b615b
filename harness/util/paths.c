// SPDX-License-Identifier: GPL-2.0-or-later
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "xalloc.h"

char *path_join(const char *dir, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, dir);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	while (*rel == '/')
		rel++;
	strbuf_addstr(&sb, rel);
	return strbuf_detach(&sb, NULL);
}

char *path_stem(const char *path, const char *suffix)
{
	const char *b = strrchr(path, '/');
	size_t n, k = strlen(suffix);

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > k && !strcmp(b + n - k, suffix))
		n -= k;
	return xstrndup(b, n);
}

char *bp_cache_dir(void)
{
	const char *e = getenv("BOOTPROOF_CACHE");

	if (e && *e)
		return xstrdup(e);
	if (geteuid() == 0)
		return xstrdup("/var/cache/bootproof");
	e = getenv("XDG_CACHE_HOME");
	if (e && *e)
		return path_join(e, "bootproof");
	e = getenv("HOME");
	if (e && *e)
		return path_join(e, ".cache/bootproof");
	return xstrdup("/tmp/bootproof-cache");
}

int mkdir_p(const char *path, unsigned mode)
{
	_cleanup_free_ char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int has_groups(const char *dir)
{
	_cleanup_free_ char *p = path_join(dir, "scenarios/groups");
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *bp_data_dir(void)
{
	const char *e = getenv("BOOTPROOF_DATADIR");
	char buf[PATH_MAX];
	ssize_t n;

	if (e && *e)
		return xstrdup(e);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		for (int up = 0; up < 4; up++) {
			char *slash = strrchr(buf, '/');

			if (!slash || slash == buf)
				break;
			*slash = '\0';
			if (has_groups(buf))
				return xstrdup(buf);
		}
	}
	if (getcwd(buf, sizeof(buf)) && has_groups(buf))
		return xstrdup(buf);
	return NULL;
}
