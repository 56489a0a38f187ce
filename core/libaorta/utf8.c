/* SPDX-License-Identifier: MIT */
/* utf8.c - UTF-8 validation with the rules of Python's strict decoder (no
 * overlong forms, no surrogates, nothing beyond U+10FFFF).  Collectors read
 * artifacts that upstream opens as UTF-8, some of them hundreds of MB, so
 * ASCII, by far the common case, is checked 64 bytes at a time. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "aorta/collector.h"

#define HIGH_BITS 0x8080808080808080ULL

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

size_t aorta_utf8_valid_prefix(const void *data, size_t len, int *truncated, int *ascii)
{
    const unsigned char *bytes = data;
    size_t i = 0;
    int cut = 0, only_ascii = 1;
    while (i < len) {
        /* 64 bytes a step while they are ASCII, then 16. */
        while (i + 64 <= len) {
            const unsigned char *p = bytes + i;
            if ((load64(p) | load64(p + 8) | load64(p + 16) | load64(p + 24) | load64(p + 32)
                 | load64(p + 40) | load64(p + 48) | load64(p + 56))
                & HIGH_BITS)
                break;
            i += 64;
        }
        while (i + 16 <= len) {
            if ((load64(bytes + i) | load64(bytes + i + 8)) & HIGH_BITS)
                break;
            i += 16;
        }
        while (i < len && bytes[i] < 0x80)
            i++;
        if (i >= len)
            break;
        unsigned char lead = bytes[i];
        size_t need;
        unsigned char low = 0x80, high = 0xbf; /* allowed range of the second byte */
        if (lead >= 0xc2 && lead <= 0xdf) {
            need = 2;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            need = 3;
            if (lead == 0xe0)
                low = 0xa0; /* overlong */
            else if (lead == 0xed)
                high = 0x9f; /* surrogates */
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            need = 4;
            if (lead == 0xf0)
                low = 0x90; /* overlong */
            else if (lead == 0xf4)
                high = 0x8f; /* beyond U+10FFFF */
        } else {
            break;
        }
        size_t k = 1;
        for (; k < need && i + k < len; k++) {
            unsigned char c = bytes[i + k];
            if (k == 1 ? c < low || c > high : c < 0x80 || c > 0xbf)
                break;
        }
        if (k < need) {
            cut = i + k == len; /* every byte there was right, but too few */
            break;
        }
        only_ascii = 0;
        i += need;
    }
    if (truncated)
        *truncated = cut;
    if (ascii)
        *ascii = only_ascii;
    return i;
}
