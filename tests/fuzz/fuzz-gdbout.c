// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gdb transcript reader and the kgdb judgement.  gdb prints what it
 * reads from the guest's memory (linux_banner, symbol names), so the
 * guest controls part of this text.
 *
 * Input: the first line is the console's banner (the judge compares it),
 * the rest is gdb's output.  Checks (gdbout.h): frames and banner are
 * NUL-terminated within their arrays, at most GDBOUT_MAX_FRAMES frames;
 * the judgement passes exactly when every part passed, and otherwise
 * names a reason.
 */
#include "fuzz.h"

#include "core/gdbout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t blen = nl ? (size_t)(nl - (const char *)data) : 0;
	char *banner = fuzz_strndup(data, blen);
	const char *text = nl ? nl + 1 : (const char *)data;
	size_t tlen = size - (size_t)(text - (const char *)data);
	struct gdbout g;
	struct kgdb_check k;
	bool ok;

	gdbout_parse(text, tlen, &g);
	FUZZ_CHECK(g.n_frames <= GDBOUT_MAX_FRAMES);
	for (size_t i = 0; i < g.n_frames; i++) {
		FUZZ_CHECK(memchr(g.frames[i], '\0', sizeof(g.frames[i])));
		FUZZ_CHECK(g.frames[i][0]);
	}
	FUZZ_CHECK(memchr(g.banner, '\0', sizeof(g.banner)));
	FUZZ_CHECK(g.have_banner || !g.banner[0]);
	/* frames or memory read from the target prove the connection */
	FUZZ_CHECK(g.connected || (!g.n_frames && !g.have_banner));

	/* boot.c passes console_banner(), NULL when the console had none. */
	for (int pass = 0; pass < 2; pass++) {
		ok = kgdb_check_judge(&g, pass ? banner : NULL, &k);
		FUZZ_CHECK(memchr(k.reason, '\0', sizeof(k.reason)));
		FUZZ_CHECK(ok == !k.reason[0]);
		FUZZ_CHECK(ok == (k.connected && k.stop_in_kgdb &&
				  k.via_sysrq && k.banner_matches &&
				  k.detached));
		if (!pass)
			FUZZ_CHECK(!ok && !k.banner_matches);
	}
	free(banner);
	return 0;
}
