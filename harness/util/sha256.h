/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256: the one SHA-256 of bootproof (OpenSSL's EVP underneath), as
 * lowercase hex.  A buffer, a file, or a key built from several pieces:
 *
 *   _cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
 *   r = sha256_begin(&h);
 *   sha256_add_str(&h, ksrc);          the string and its NUL
 *   r = sha256_add_file(&h, path);     the file's bytes
 *   r = sha256_end_hex(&h, hex);
 *
 * Everything returns 0 or -errno: -ENOMEM (OpenSSL could not allocate),
 * or what reading a file gave (-ENOENT, -EISDIR, ...).  No other I/O than
 * sha256_file_hex / sha256_add_file reading the file (in pieces: any size).
 */
#ifndef BP_SHA256_H
#define BP_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/* ret: SHA256_HEX_LEN + 1 bytes, written only on success. */
int sha256_hex(const void *buf, size_t len, char *ret);
int sha256_file_hex(const char *path, char *ret);

struct sha256 {
	void *ctx;		/* EVP_MD_CTX, owned */
	int err;		/* the first error of an add, kept for the end */
};
#define SHA256_INIT { NULL, 0 }

int sha256_begin(struct sha256 *h);
void sha256_add(struct sha256 *h, const void *buf, size_t len);
/* s and its terminating NUL, so ("ab","c") and ("a","bc") differ. */
void sha256_add_str(struct sha256 *h, const char *s);
/* The file's bytes; an error is returned and also kept for the end. */
int sha256_add_file(struct sha256 *h, const char *path);
/* The digest as hex (ret: SHA256_HEX_LEN + 1), or the first error an
 * add met.  The context is finished either way: what is added after it
 * is an error (-EINVAL) until sha256_begin. */
int sha256_end_hex(struct sha256 *h, char *ret);
/* The raw digest (ret: 32 bytes). */
int sha256_end(struct sha256 *h, unsigned char ret[32]);
/* Free the context; accepts an unstarted or ended one. */
void sha256_done(struct sha256 *h);

#endif
