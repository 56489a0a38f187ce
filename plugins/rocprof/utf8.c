/* utf8.c - UTF-8 validation with the rules of Python's strict decoder (no
 * overlong forms, no surrogates, nothing beyond U+10FFFF).  Upstream opens
 * the CSVs as UTF-8, so an invalid byte ends the file there.  ASCII, by far
 * the common case, is checked sixteen bytes at a time. */
#include "config.h"

#include <string.h>

#include "rocprof.h"

#define HIGH_BITS 0x8080808080808080ULL

size_t rocprof_utf8_check(const unsigned char *data, size_t len, rocprof_utf8_status_t *status,
                          int *ascii)
{
    size_t i = 0;
    *ascii = 1;
    *status = ROCPROF_UTF8_OK;
    while (i < len) {
        while (i + 16 <= len) {
            uint64_t a, b;
            memcpy(&a, data + i, 8);
            memcpy(&b, data + i + 8, 8);
            if ((a | b) & HIGH_BITS)
                break;
            i += 16;
        }
        while (i < len && data[i] < 0x80)
            i++;
        if (i >= len)
            break;
        *ascii = 0;
        unsigned char lead = data[i];
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
            *status = ROCPROF_UTF8_INVALID;
            return i;
        }
        for (size_t k = 1; k < need; k++) {
            if (i + k >= len) {
                *status = ROCPROF_UTF8_INCOMPLETE;
                return i;
            }
            unsigned char c = data[i + k];
            if (k == 1 ? c < low || c > high : c < 0x80 || c > 0xbf) {
                *status = ROCPROF_UTF8_INVALID;
                return i;
            }
        }
        i += need;
    }
    return i;
}
