// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/runrec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/junit.h"
#include "core/recjson.h"
#include "util/fileio.h"
#include "util/paths.h"

static void iso(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static unsigned rnd24(void)
{
	unsigned v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			v = 0;
		close(fd);
	}
	if (!v)
		v = (unsigned)getpid() ^ (unsigned)time(NULL);
	return v & 0xffffff;
}

char *run_path(const struct run *r, const char *name)
{
	return path_join(r->dir, name);
}

int run_open(const char *base, const char *tag, const char *verb, int argc,
	     char **argv, struct run **ret)
{
	struct run *r;
	char stamp[32], started[32];
	json_object *av, *host;
	int e;

	e = mkdir_p(base, 0755);
	if (e < 0)
		return e;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	{
		time_t t = time(NULL);
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	}
	for (int tries = 0;; tries++) {
		free(r->id);
		free(r->dir);
		if (asprintf(&r->id, "%s%s%s-%06x", stamp, tag ? "-" : "",
			     tag ? tag : "", rnd24()) < 0) {
			r->id = NULL;
			run_free(r);
			return -ENOMEM;
		}
		r->dir = path_join(base, r->id);
		if (mkdir(r->dir, 0755) == 0)
			break;
		if (errno != EEXIST || tries > 20) {
			e = -errno;
			run_free(r);
			return e;
		}
	}
	iso(started, sizeof(started));
	r->doc = json_object_new_object();
	recjson_add_str(r->doc, "schema", RUNREC_SCHEMA);
	recjson_add_str(r->doc, "run_id", r->id);
	recjson_add_str(r->doc, "command", verb);
	av = json_object_new_array();
	for (int i = 0; i < argc; i++)
		json_object_array_add(av, json_object_new_string(argv[i]));
	json_object_object_add(r->doc, "argv", av);
	recjson_add_str(r->doc, "started", started);
	recjson_add_str(r->doc, "finished", NULL);
	json_object_object_add(r->doc, "complete", json_object_new_boolean(0));
	json_object_object_add(r->doc, "exit_code", NULL);
	host = json_object_new_object();
	{
		char hn[256] = "";
		gethostname(hn, sizeof(hn) - 1);
		recjson_add_str(host, "hostname", hn);
	}
	json_object_object_add(r->doc, "host", host);
	r->boots = json_object_new_array();
	json_object_object_add(r->doc, "boots", r->boots);
	e = run_save(r);
	if (e < 0) {
		rm_rf(r->dir);
		run_free(r);
		return e;
	}
	*ret = r;
	return 0;
}

int run_save(struct run *r)
{
	_cleanup_free_ char *p = run_path(r, "run.json");
	const char *s = json_object_to_json_string_ext(
		r->doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = strlen(s);
	_cleanup_free_ char *withnl = malloc(n + 2);
	int e;

	if (!withnl)
		return -ENOMEM;
	memcpy(withnl, s, n);
	withnl[n] = '\n';
	e = write_file_atomic(p, withnl, n + 1, 0644);
	return e;
}

void run_set_boot(struct run *r, size_t i, json_object *boot)
{
	if (i < json_object_array_length(r->boots))
		json_object_array_put_idx(r->boots, i, boot);
	else
		json_object_array_add(r->boots, boot);
}

int run_close(struct run *r, int exit_code, bool complete)
{
	char fin[32];
	_cleanup_free_ char *xml = NULL;
	_cleanup_free_ char *jp = run_path(r, "junit.xml");
	int e, e2 = 0;

	iso(fin, sizeof(fin));
	recjson_add_str(r->doc, "finished", fin);
	json_object_object_add(r->doc, "complete",
			       json_object_new_boolean(complete));
	json_object_object_add(r->doc, "exit_code",
			       json_object_new_int(exit_code));
	if (junit_from_records(r->boots, &xml) == 0)
		e2 = write_file_atomic(jp, xml, strlen(xml), 0644);
	/* run.json last: it is the summary. */
	e = run_save(r);
	return e < 0 ? e : e2;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	json_object_put(r->doc);
	free(r->id);
	free(r->dir);
	free(r);
}
