// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/distcc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/xalloc.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* s[0..len) as a decimal number in 1..max. */
static bool number(const char *s, size_t len, unsigned max, unsigned *ret)
{
	unsigned long v = 0;

	if (!len || len > 7)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > max)
		return false;
	*ret = (unsigned)v;
	return true;
}

/* A host name or an IPv4 address, s[0..len). */
static bool host_ok(const char *s, size_t len)
{
	if (!len || len > 253 || !is_alnum(s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_alnum(s[i]) && s[i] != '.' && s[i] != '-')
			return false;
	return true;
}

int distcc_host_check(const char *spec, unsigned *ret_limit,
		      struct strbuf *err)
{
	const char *s = spec ? spec : "", *host_end, *p;
	bool local;
	unsigned limit, port;

	if (s[0] == '-' || s[0] == '+')
		return strbuf_fail(err, -EINVAL, "'%s': DISTCC_HOSTS options "
				   "and zeroconf are not supported: name the "
				   "hosts", s);
	if (strchr(s, '@'))
		return strbuf_fail(err, -EINVAL, "'%s': ssh hosts are not "
				   "supported: run distccd --daemon on the host "
				   "and name it (HOST[:PORT][/LIMIT])", s);
	if (s[0] == '[' || strchr(s, ':') != strrchr(s, ':'))
		return strbuf_fail(err, -EINVAL, "'%s': IPv6 hosts are not "
				   "supported", s);
	host_end = s + strcspn(s, ":/,");
	if (!host_ok(s, (size_t)(host_end - s)))
		return strbuf_fail(err, -EINVAL, "'%s': expected HOST[:PORT]"
				   "[/LIMIT][,lzo] with HOST a name or an IPv4 "
				   "address", s);
	local = (size_t)(host_end - s) == 9 && !strncmp(s, "localhost", 9);
	limit = local ? 2 : 4;
	p = host_end;
	if (*p == ':') {
		size_t n = strcspn(p + 1, "/,");

		if (local)
			return strbuf_fail(err, -EINVAL, "'%s': localhost "
					   "compiles here, it takes no port "
					   "(a distccd here: its address)", s);
		if (!number(p + 1, n, 65535, &port))
			return strbuf_fail(err, -EINVAL, "'%s': the port after "
					   "':' must be 1..65535", s);
		p += 1 + n;
	}
	if (*p == '/') {
		size_t n = strcspn(p + 1, ",");

		if (!number(p + 1, n, DISTCC_MAX_LIMIT, &limit))
			return strbuf_fail(err, -EINVAL, "'%s': the limit after "
					   "'/' must be 1..%u", s,
					   DISTCC_MAX_LIMIT);
		p += 1 + n;
	}
	while (*p == ',') {
		size_t n = strcspn(p + 1, ",");

		if (local || n != 3 || strncmp(p + 1, "lzo", 3))
			return strbuf_fail(err, -EINVAL, "'%s': %s", s,
					   local ? "localhost takes no option"
						 : "the only option is ,lzo "
						   "(no pump mode, no auth)");
		p += 1 + n;
	}
	if (*p)
		return strbuf_fail(err, -EINVAL, "'%s': expected HOST[:PORT]"
				   "[/LIMIT][,lzo]", s);
	if (ret_limit)
		*ret_limit = limit;
	return 0;
}

/* The host part of a spec, for duplicates: its length. */
static size_t host_len(const char *s)
{
	return strcspn(s, "/,");
}

int distcc_farm(const char *const *hosts, size_t n, char **ret_hosts,
		unsigned *ret_slots, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	unsigned slots = 0;

	if (!n)
		return strbuf_fail(err, -EINVAL, "distcc: no host");
	if (n > DISTCC_MAX_HOSTS)
		return strbuf_fail(err, -EINVAL, "distcc: more than %u hosts",
				   DISTCC_MAX_HOSTS);
	for (size_t i = 0; i < n; i++) {
		unsigned limit;
		int r = distcc_host_check(hosts[i], &limit, err);

		if (r < 0)
			return r;
		for (size_t j = 0; j < i; j++)
			if (host_len(hosts[i]) == host_len(hosts[j]) &&
			    !strncmp(hosts[i], hosts[j], host_len(hosts[i])))
				return strbuf_fail(err, -EINVAL, "distcc: host "
						   "%.*s given twice",
						   (int)host_len(hosts[i]),
						   hosts[i]);
		slots += limit;
		strbuf_addf(&sb, "%s%s", i ? " " : "", hosts[i]);
	}
	*ret_hosts = strbuf_detach(&sb, NULL);
	*ret_slots = slots;
	return 0;
}
