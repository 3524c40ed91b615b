// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/costs.h"

#include <errno.h>
#include <string.h>

#include "core/costrec.h"
#include "core/kconfig.h"
#include "util/cleanup.h"
#include "util/paths.h"
#include "util/strbuf.h"

/* A final .config is a few hundred KiB. */
#define CONFIG_MAX (16u << 20)

static int read_config(const char *dir, const char *rel, struct kconfig **ret)
{
	_cleanup_free_ char *p = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_kconfig_ struct kconfig *kc = NULL;
	long n;

	/* run.json names files inside the run directory (runread checks). */
	if (!rel || rel[0] == '/' || strstr(rel, ".."))
		return -EINVAL;
	p = path_join(dir, rel);
	n = strbuf_read_file(&sb, p, CONFIG_MAX);
	if (n < 0)
		return (int)n;
	kconfig_new(&kc);
	if (kconfig_parse(kc, p, sb.buf, sb.len, NULL) < 0)
		return -EINVAL;
	*ret = TAKE_PTR(kc);
	return 0;
}

static int compare(void *ud, const char *base_rel, const char *cand_rel,
		   const char *const *requested, size_t n,
		   struct cost_config *ret)
{
	const char *dir = ud;
	_cleanup_kconfig_ struct kconfig *b = NULL, *g = NULL;
	int r = read_config(dir, base_rel, &b);

	if (r >= 0)
		r = read_config(dir, cand_rel, &g);
	if (r < 0)
		return r;
	cost_config_of(b, g, requested, n, ret);
	return 0;
}

json_object *costs_of_run(const char *dir, json_object *doc)
{
	return costrec_run(doc, compare, (void *)dir);
}
