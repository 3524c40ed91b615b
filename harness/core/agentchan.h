/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agentchan: what the guest agent wrote to its virtio-serial channel
 * (pure).  The channel carries the boot scenario's line and then the
 * kernel's log, announced by a header (scenarios/contract.h,
 * BP_CHANNEL_DMESG); this splits the two so that the host keeps the log
 * as its own file and knows whether all of it arrived.
 */
#ifndef BP_AGENTCHAN_H
#define BP_AGENTCHAN_H

#include <stdbool.h>
#include <stddef.h>

struct agentchan {
	/* The channel without the log: the bytes before its header and any
	 * after its announced end. */
	const char *before, *after;
	size_t before_len, after_len;
	/* The log, as far as it arrived; NULL when none was announced. */
	const char *dmesg;
	size_t dmesg_len;
	/* The size the header announced, -1 without a header. */
	long long dmesg_announced;
};

/* Split n bytes of a channel.  The pointers point into buf. */
void agentchan_split(const char *buf, size_t n, struct agentchan *ret);

/* The header announced a log and all of it arrived. */
static inline bool agentchan_dmesg_complete(const struct agentchan *c)
{
	return c->dmesg_announced >= 0 &&
	       (unsigned long long)c->dmesg_announced == c->dmesg_len;
}

#endif
