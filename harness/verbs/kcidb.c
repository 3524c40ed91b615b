// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof kcidb RUN [--origin O] [--checkout-id ID] [--base-url URL]
 *                     [--output FILE]
 *
 * A run as a KernelCI KCIDB v5.3 document (core/kcidb has the mapping),
 * on stdout or written atomically to FILE, ready for kcidb-submit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "core/kcidb.h"
#include "engine/report.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/strbuf.h"

int verb_kcidb(int argc, char **argv)
{
	struct kcidb_opts ko = { 0 };
	const char *output = NULL;
	const struct opt table[] = {
		OPT_STRING(0, "origin", &ko.origin, "NAME",
			   "the submitting CI system, [a-z0-9_]+ (default:\n"
			   "bootproof)"),
		OPT_STRING(0, "checkout-id", &ko.checkout_id, "ID",
			   "the checkout's id after \"ORIGIN:\" (default: the\n"
			   "run id)"),
		OPT_STRING(0, "base-url", &ko.base_url, "URL",
			   "where the run directory is published: logs get\n"
			   "log_url under it (default: no URLs)"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write the document to FILE (default: stdout)"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "kcidb",
		.synopsis = "bootproof kcidb RUN [options]",
		.intro = "A run (a run directory or its run.json) as a KCIDB v5.3\n"
			 "document: a checkout, a build per candidate, its boot,\n"
			 "scenario and check tests (docs/kcidb.md).",
		.epilog = "exit: 0 written, 2 bad input, 3 could not write it",
		.opts = table,
		.max_args = 1,
	};
	_cleanup_free_ char *dir = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *run = NULL, *doc = NULL;
	const char *text;
	int argi, r;

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argi >= argc) {
		log_error("kcidb: expected a run directory");
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[argi], &dir, &run);
	if (r < 0)
		return BP_EXIT_USAGE;
	r = kcidb_from_run(run, &ko, &doc, &err);
	json_object_put(run);
	if (r < 0) {
		log_error("kcidb: %s", err.buf);
		return BP_EXIT_USAGE;
	}
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (output) {
		_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;

		strbuf_addf(&out, "%s\n", text);
		r = write_file_atomic(output, out.buf, out.len, 0644);
		if (r < 0)
			log_error_errno(r, "kcidb: cannot write %s", output);
	} else {
		r = puts(text) < 0 ? -EIO : 0;
	}
	json_object_put(doc);
	return r < 0 ? BP_EXIT_INFRA : BP_EXIT_OK;
}
