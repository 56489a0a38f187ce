/* SPDX-License-Identifier: MIT */
/* sha256.h - SHA-256 (FIPS 180-4), for matrix.json's recipe_source.sha256.
 * No crypto library is allowed, and this is the only digest the run needs. */
#ifndef AR_SHA256_H
#define AR_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct ar_sha256 {
    uint32_t state[8];
    uint64_t length;          /* bytes hashed so far */
    unsigned char block[64];
    size_t used;              /* bytes waiting in block */
} ar_sha256_t;

void ar_sha256_init(ar_sha256_t *ctx);
void ar_sha256_update(ar_sha256_t *ctx, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void ar_sha256_hex(ar_sha256_t *ctx, char out[65]);

/* The hex digest of a regular file (no symlink followed); -1 when it
 * cannot be read. */
int ar_sha256_file(const char *path, char out[65]);

#endif
