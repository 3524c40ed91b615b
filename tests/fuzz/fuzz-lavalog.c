// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A LAVA job's log (core/lavalog, with core/yamljson under it), as
 * `bootproof lava-results` reads it from a lab.
 *
 * Input: the log.  Checks (lavalog.h): 0 with at least one record, or
 * -EINVAL with none; records and other lines add up to at most the
 * lines; the console has a '\n' after each target line (a message may
 * hold more: the YAML escape \n); the times are ordered
 * as the header says when present; the end is one of the enum's, and a
 * job without a result ends in a timeout.
 */
#include "fuzz.h"

#include "core/bootlog.h"
#include "core/lavalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct bootlog *bl = bootlog_new(NULL, NULL);
	struct lavalog l;
	size_t lines = 1, nl = 0;
	enum boot_end end;
	char why[512];
	int r;

	FUZZ_CHECK(bl);
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	r = lavalog_read(&l, (const char *)data, size, bl, &err);
	FUZZ_CHECK(r == 0 || r == -EINVAL);
	FUZZ_CHECK(l.records + l.not_records <= lines);
	if (r < 0) {
		FUZZ_CHECK(l.records == 0 && err.len);
	} else {
		for (size_t i = 0; i < l.console.len; i++)
			nl += l.console.buf[i] == '\n';
		FUZZ_CHECK(nl >= l.target_lines);
		FUZZ_CHECK(!l.console.len || l.console.buf[l.console.len - 1] == '\n');
		FUZZ_CHECK(l.t_first < 0 || l.t_last >= 0);
		bootlog_finish(bl);
		lavalog_end(&l, bl, &end, why, sizeof(why));
		FUZZ_CHECK(end >= BOOT_END_STOPPED && end <= BOOT_END_INTERRUPTED);
		FUZZ_CHECK(strlen(why) < sizeof(why));
		if (!l.job_result && end != BOOT_END_STOPPED)
			FUZZ_CHECK(end == BOOT_END_TIMEOUT);
		(void)lavalog_kvm(&l);
		(void)lavalog_download_sha256(&l, "kernel");
	}
	lavalog_done(&l);
	bootlog_free(bl);
	strbuf_release(&err);
	return 0;
}
