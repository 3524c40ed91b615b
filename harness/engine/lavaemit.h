/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavaemit: a boot that runs on a LAVA lab instead of here (docs/lava.md).
 *
 * For a prepared boot request (the one engine/boot would run: kernel,
 * initrd, root image, scenarios, memory, CPUs), put what a lab must
 * download into one folder that any web server can serve as it is, and
 * write the job (core/lavajob) beside them:
 *
 *   <out>/kernels/<sha256>/<kernel name>     the kernel
 *   <out>/initrds/<sha256>/<initrd name>     its initrd, if any
 *   <out>/images/<image name>                the agent's root image
 *   <out>/jobs/<id>.yaml                     the job, URLs under <url>/
 *                                            (id: "<run id>/<candidate>", or
 *                                            a `boot`'s run id)
 *
 * Files are named by content (the images by their cache key), so the
 * candidates of a plan that share a kernel or an image share one copy, and
 * a second emit into the same folder copies nothing twice.  A file is
 * hard-linked from the cache when the folder is on the same file system,
 * copied otherwise.
 */
#ifndef BP_ENGINE_LAVAEMIT_H
#define BP_ENGINE_LAVAEMIT_H

#include <json-c/json.h>

#include "core/lavajob.h"
#include "engine/boot.h"
#include "util/strbuf.h"

struct lavaemit_opts {
	const char *out;	/* the folder (created) */
	const char *url;	/* the URL it is served at, no trailing '/' needed */
};

/* Is url a base URL a lab can download from (http:// or https://, a
 * host)?  On false, *ret_why says what is wrong. */
bool lavaemit_url_ok(const char *url, const char **ret_why);

/*
 * Emit one job: id names the job file ("<run id>/<candidate id>", or the
 * run id of a `bootproof boot`), job_name is LAVA's job_name; meta is the job's
 * metadata.  req is complete as for boot_run() but for what belongs to a
 * running boot; it must have an image (the agent: jobs report through
 * it).  The command line is boot_cmdline(req, 0): no kgdb port (a lab
 * gives no second serial port to bootproof's gdb).  The test's limit is
 * boot_timeout() under TCG: a lab's accelerator is not known here.
 *
 * On success *ret is a new "lava" member for the boot record: the job
 * file (absolute), the URLs, the sha256 of each file, the command line
 * and the limit.  Returns 0, -EINVAL (err says why: no image, a command
 * line a QEMU argument cannot carry), or -errno of a file that could not
 * be read or written (err names it).
 */
int lavaemit_job(const struct lavaemit_opts *o, const char *id,
		 const char *job_name, const struct boot_request *req,
		 const struct lavajob_meta *meta, size_t n_meta,
		 json_object **ret, struct strbuf *err);

#endif
