/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virt: one guest under libvirt, behind struct domain_ops so the boot loop
 * can be tested with a fake (tests/unit/support/fake_domain.c) and the
 * real adapter only against a real libvirtd (tests/integration/).
 *
 * The guest is a transient domain created paused with AUTODESTROY (libvirt
 * destroys it when our connection closes, so even a SIGKILLed bootproof
 * leaves no QEMU behind); the serial console (serial0) is attached through
 * virDomainOpenConsole before the guest is resumed, so no byte of output
 * is lost, and read as a non-blocking stream from libvirt's event loop.
 */
#ifndef BP_VIRT_H
#define BP_VIRT_H

#include <limits.h>
#include <stddef.h>

#include "util/strbuf.h"

enum guest_state {
	GUEST_RUNNING,
	GUEST_SHUTOFF,	/* the guest powered off (or rebooted: destroy) */
	GUEST_CRASHED,	/* pvpanic: the kernel said it panicked */
	GUEST_FAILED,	/* QEMU died or was killed */
	GUEST_DESTROYED, /* destroyed by someone else */
	GUEST_LOST,	/* the connection to libvirtd is gone */
};

const char *guest_state_name(enum guest_state s);

/* What one poll returned.  data is owned by the guest and valid until the
 * next call on it. */
struct guest_event {
	const char *data;	/* console bytes, possibly 0 of them */
	size_t len;
	enum guest_state state;	/* current state */
	int state_changed;	/* the state changed during this poll */
	const char *reason;	/* why, for anything but RUNNING */
};

struct guest;

struct domain_ops {
	/*
	 * Create and start the guest: connect to uri, create the domain from
	 * xml (paused), attach its console, resume.  On failure returns
	 * -errno and appends libvirt's message to err (the caller reports it
	 * as an infrastructure error).
	 */
	int (*start)(const char *uri, const char *xml, struct guest **ret,
		     struct strbuf *err);
	/*
	 * Wait up to timeout_ms for console output or a change of state.
	 * Console output still buffered when the guest stops is delivered
	 * before the new state.  Returns 0 or -errno.
	 */
	int (*poll)(struct guest *g, int timeout_ms, struct guest_event *ret);
	/* Destroy the guest if it still runs.  0 or -errno. */
	int (*destroy)(struct guest *g);
	/* Release everything (destroys the guest first).  Accepts NULL. */
	void (*free)(struct guest *g);
	/*
	 * The files whose existence says libvirt still holds the domain
	 * called name: it runs, or libvirtd is still cleaning up after its
	 * end (restoring the owners of the files it ran with), which it
	 * does after a guest that shut down has been reported ended
	 * (virt.c).  The guest's own files must stay while one of them
	 * exists.  Fills at most max paths, returns how many; NULL: none.
	 */
	size_t (*state_files)(const char *name, char (*files)[PATH_MAX],
			      size_t max);
};

extern const struct domain_ops virt_domain_ops;

#endif
