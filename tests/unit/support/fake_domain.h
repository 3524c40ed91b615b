/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake behind struct domain_ops for testing the boot engine (never the
 * libvirt adapter itself: that is tested against a real libvirtd in
 * tests/integration/).  It "runs" a guest by replaying a recorded console
 * log in chunks of a given size, then ends in a given state, or never
 * ends, or fails to start.
 */
#ifndef BP_FAKE_DOMAIN_H
#define BP_FAKE_DOMAIN_H

#include <signal.h>

#include "adapters/virt.h"

struct fake_domain {
	const char *log;	/* path of the console log to replay */
	size_t chunk;		/* bytes per poll (0: 977) */
	enum guest_state end;	/* state after the log; RUNNING: never ends */
	const char *end_reason;
	int start_error;	/* < 0: start fails with this and err text */
	const char *start_err_text;
	volatile sig_atomic_t *interrupt_at_end; /* set it after the log */
	/* what the engine did */
	int started, destroyed, freed;
	char *xml;		/* the XML start was given (owned) */
};

extern const struct domain_ops fake_domain_ops;
/* The fake the next start() uses. */
void fake_domain_use(struct fake_domain *f);

#endif
