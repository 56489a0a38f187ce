/* SPDX-License-Identifier: MIT */
/* sha256.h - SHA-256 (FIPS 180-4), for matrix.json's recipe_source.sha256.
 * No crypto library is allowed, and this is the only digest the run needs. */
#ifndef AORTA_SHA256_H
#define AORTA_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct aorta_sha256 {
    uint32_t state[8];
    uint64_t length;          /* bytes hashed so far */
    unsigned char block[64];
    size_t used;              /* bytes waiting in block */
} aorta_sha256_t;

void aorta_sha256_init(aorta_sha256_t *ctx);
void aorta_sha256_update(aorta_sha256_t *ctx, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void aorta_sha256_hex(aorta_sha256_t *ctx, char out[65]);

/* The hex digest of a regular file (no symlink followed); -1 when it
 * cannot be read. */
int aorta_sha256_file(const char *path, char out[65]);

#endif
