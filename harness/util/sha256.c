// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "util/cleanup.h"

#define CHUNK (1u << 20)

static void to_hex(const unsigned char md[32], char *ret)
{
	static const char hex[] = "0123456789abcdef";

	for (unsigned i = 0; i < 32; i++) {
		ret[2 * i] = hex[md[i] >> 4];
		ret[2 * i + 1] = hex[md[i] & 15];
	}
	ret[SHA256_HEX_LEN] = '\0';
}

int sha256_hex(const void *buf, size_t len, char *ret)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	if (!EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL) || n != 32)
		return -ENOMEM;
	to_hex(md, ret);
	return 0;
}

int sha256_file_hex(const char *path, char *ret)
{
	_cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
	int r = sha256_begin(&h);

	if (r < 0)
		return r;
	r = sha256_add_file(&h, path);
	if (r < 0)
		return r;
	return sha256_end_hex(&h, ret);
}

int sha256_begin(struct sha256 *h)
{
	sha256_done(h);
	h->err = 0;
	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL)) {
		sha256_done(h);
		return -ENOMEM;
	}
	return 0;
}

void sha256_add(struct sha256 *h, const void *buf, size_t len)
{
	if (!h->ctx) {
		if (!h->err)
			h->err = -EINVAL;
		return;
	}
	if (!EVP_DigestUpdate(h->ctx, buf, len) && !h->err)
		h->err = -ENOMEM;
}

void sha256_add_str(struct sha256 *h, const char *s)
{
	sha256_add(h, s, strlen(s) + 1);
}

/* Read in pieces: a disk image is hashed too, hundreds of MiB. */
int sha256_add_file(struct sha256 *h, const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ unsigned char *buf = malloc(CHUNK);
	int r = 0;

	if (fd < 0)
		r = -errno;
	else if (!buf)
		r = -ENOMEM;
	while (r == 0) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r = -errno;
		if (n <= 0)
			break;
		sha256_add(h, buf, (size_t)n);
	}
	if (r < 0 && !h->err)
		h->err = r;
	return h->err;
}

int sha256_end(struct sha256 *h, unsigned char ret[32])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int r = h->err;

	if (!r && (!h->ctx || !EVP_DigestFinal_ex(h->ctx, md, &n) || n != 32))
		r = -ENOMEM;
	sha256_done(h);
	h->err = 0;
	if (r < 0)
		return r;
	memcpy(ret, md, 32);
	return 0;
}

int sha256_end_hex(struct sha256 *h, char *ret)
{
	unsigned char md[32];
	int r = sha256_end(h, md);

	if (r < 0)
		return r;
	to_hex(md, ret);
	return 0;
}

void sha256_done(struct sha256 *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}
