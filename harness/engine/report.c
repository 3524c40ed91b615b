// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report_bisect.h"
#include "core/report_html.h"
#include "core/runread.h"
#include "engine/costs.h"
#include "util/jsonx.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/strbuf.h"

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int report_load_run(const char *arg, char **ret_dir, json_object **ret)
{
	_cleanup_free_ char *dir = NULL, *file = NULL;
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	json_object *doc = NULL;
	long n;
	int r;

	if (is_dir(arg)) {
		dir = strdup(arg);
		file = path_join(arg, "run.json");
	} else {
		const char *slash = strrchr(arg, '/');

		file = strdup(arg);
		dir = slash ? strndup(arg, (size_t)(slash - arg + (slash == arg)))
			    : strdup(".");
	}
	if (!dir || !file)
		return log_error_errno(-ENOMEM, "%s", arg);
	n = strbuf_read_file(&buf, file, REPORT_RUNJSON_MAX);
	if (n == -ENOENT) {
		if (is_dir(dir) && !strcmp(dir, arg))
			log_error("%s: not a run directory (it has no "
				  "run.json)", arg);
		else
			log_error("%s: no such run directory or run.json", arg);
		return -ENOENT;
	}
	if (n == -EFBIG) {
		log_error("%s: larger than %u MiB, not a run.json", file,
			  REPORT_RUNJSON_MAX >> 20);
		return -EFBIG;
	}
	if (n < 0)
		return log_error_errno((int)n, "%s", file);
	r = runread_parse(file, buf.buf, buf.len, &doc, &err);
	if (r == -ENOMEM)
		return log_error_errno(r, "%s", file);
	if (r < 0) {
		log_error("%s", err.buf);
		return r;
	}
	*ret_dir = TAKE_PTR(dir);
	*ret = doc;
	return 0;
}

static bool dir_exists_cb(void *ud, const char *rel)
{
	_cleanup_free_ char *p = path_join(ud, rel);
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static long dir_tail_cb(void *ud, const char *rel, size_t max,
			struct strbuf *out)
{
	_cleanup_free_ char *p = path_join(ud, rel);
	struct stat st;
	_cleanup_close_ int fd = open_regular(p, &st);
	off_t start;
	long n;

	if (fd < 0)
		return fd;
	start = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
	if (lseek(fd, start, SEEK_SET) < 0)
		return -errno;
	n = strbuf_read_fd(out, fd, max + 1);
	if (n < 0 && n != -EFBIG)
		return n;
	return (long)st.st_size;
}

int report_write_page(const char *dir, json_object *doc, char **ret_path)
{
	struct report_html_ops ops = {
		.exists = dir_exists_cb,
		.tail = dir_tail_cb,
		.ud = (void *)dir,
	};
	_cleanup_free_ char *page = NULL, *path = NULL;
	size_t len;
	int r;

	/* A run recorded before run.json had costs: the same pipeline. */
	if (runread_is_matrix(doc) && !jsonx_get(doc, "costs"))
		json_object_object_add(doc, "costs", costs_of_run(dir, doc));
	/* A bisection has a page of its own. */
	if (jsonx_get(doc, "bisect"))
		r = report_bisect_render(doc, &page, &len);
	else
		r = report_html_render(doc, &ops, &page, &len);
	if (r < 0)
		return r;
	path = path_join(dir, "report.html");
	r = write_file_atomic(path, page, len, 0644);
	if (r < 0)
		return r;
	if (ret_path)
		*ret_path = TAKE_PTR(path);
	return 0;
}

int report_write(const char *run_dir, char **ret_path)
{
	_cleanup_free_ char *dir = NULL;
	json_object *doc = NULL;
	int r;

	r = report_load_run(run_dir, &dir, &doc);
	if (r < 0) {
		log_warn("%s: no report.html written", run_dir);
		return r;
	}
	r = report_write_page(dir, doc, ret_path);
	json_object_put(doc);
	if (r < 0)
		log_warn_errno(r, "cannot write %s/report.html", dir);
	return r;
}
