/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distcc: the hosts of a distcc farm that kernel builds go to (a plan's
 * "distcc" line, `bootproof run --distcc HOST`; docs/scale-out.md).  Pure.
 *
 * A host is a word of DISTCC_HOSTS (distcc(1), "HOST SPECIFICATIONS"), of
 * the forms bootproof lets through:
 *
 *	HOST[:PORT][/LIMIT][,lzo]	a distccd over TCP (default port 3632)
 *	localhost[/LIMIT]		compile here too
 *
 * HOST a name ([A-Za-z0-9][A-Za-z0-9.-]*) or an IPv4 address; PORT
 * 1..65535; LIMIT 1..DISTCC_MAX_LIMIT, the jobs the host takes at once
 * (distcc's default: 4 for a TCP host, 2 for localhost).  Refused with a
 * reason: ssh hosts (@HOST), pump mode (,cpp), authentication (,auth),
 * IPv6, zeroconf and --options: what the tests here do not prove.
 *
 * The farm's make -j is the sum of its hosts' limits: every slot busy.
 */
#ifndef BP_DISTCC_H
#define BP_DISTCC_H

#include <stddef.h>

#include "util/strbuf.h"

#define DISTCC_MAX_LIMIT 1024
#define DISTCC_MAX_HOSTS 256

/*
 * Check one host; *ret_limit (may be NULL) gets its limit.  Returns 0, or
 * -EINVAL with err (may be NULL) saying what is wrong, naming the word:
 * "'a/0': the limit after '/' must be 1..1024".
 */
int distcc_host_check(const char *spec, unsigned *ret_limit,
		      struct strbuf *err);

/*
 * The farm of hosts[0..n): *ret_hosts gets the DISTCC_HOSTS value (the
 * words joined by spaces, malloc'd), *ret_slots the sum of the limits.
 * Returns 0, or -EINVAL (no host, more than DISTCC_MAX_HOSTS, a host
 * given twice, a bad host: err says which).
 */
int distcc_farm(const char *const *hosts, size_t n, char **ret_hosts,
		unsigned *ret_slots, struct strbuf *err);

#endif
