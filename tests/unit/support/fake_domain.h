/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake behind struct domain_ops for testing the boot engine (never the
 * libvirt adapter itself: that is tested against a real libvirtd in
 * tests/integration/).  It "runs" a guest by replaying a recorded console
 * log in chunks of a given size, then ends in a given state, or never
 * ends, or fails to start.  After the log (or instead of it) a generator
 * can make the guest's output as it goes: an endless flood, a guest that
 * pauses, anything a hostile guest could print.
 */
#ifndef BP_FAKE_DOMAIN_H
#define BP_FAKE_DOMAIN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "adapters/virt.h"

struct fake_domain {
	const char *log;	/* path of the console log to replay */
	size_t chunk;		/* bytes per poll (0: 977) */
	enum guest_state end;	/* state after the log; RUNNING: never ends */
	const char *end_reason;
	int start_error;	/* < 0: start fails with this and err text */
	const char *start_err_text;
	volatile sig_atomic_t *interrupt_at_end; /* set it after the log */
	/*
	 * Called at each poll once the log is replayed: write at most max
	 * bytes to buf and return how many (> 0), 0 for a poll with nothing
	 * printed (the guest is silent for now), or < 0 when the guest will
	 * print nothing more (then end applies).  NULL: no generator.
	 */
	ssize_t (*gen)(void *gen_ud, char *buf, size_t max);
	void *gen_ud;
	/* Written at start to the file behind the XML's <channel
	 * type="file"> (what the agent sent the host); NULL: nothing. */
	const char *channel_text;
	/* The last lost_tail bytes of log never come through the console
	 * stream, as libvirt's can lose them under load. */
	size_t lost_tail;
	/* QEMU's own log of ttyS0 (the XML's <log file>) gets all of log,
	 * written at start. */
	bool serial_log;
	/* The fake the start after this one uses (NULL: this one again). */
	struct fake_domain *then;
	/* what the engine did */
	int started, destroyed, freed;
	unsigned long long bytes; /* bytes the guest printed */
	char *xml;		/* the XML start was given (owned) */
};

extern const struct domain_ops fake_domain_ops;
/* The fake the next start() uses. */
void fake_domain_use(struct fake_domain *f);
/* libvirt "still holds" the domain called name while the file marker
 * exists (domain_ops.state_files); name NULL: no domain. */
void fake_domain_hold(const char *name, const char *marker);

#endif
