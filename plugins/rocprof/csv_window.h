/* SPDX-License-Identifier: MIT */
/* csv_window.h - 64 bytes of a CSV file as bit masks of the bytes CSV gives
 * a meaning to, for csv.c's fast path: bit i of each mask stands for byte
 * at + i.  With them the end of a field is a shift and a count of trailing
 * zeros, not a loop over its bytes, and a run of fields nobody wants is
 * skipped by clearing bits.
 *
 * Three ways to fill a window, the same masks from each: SSE2 (x86-64's
 * baseline) sixteen bytes a step, a 64-bit word eight bytes a step
 * (little-endian targets), a byte a step (any).  csv_window_load() takes the
 * fastest the target has; tests/collectors/rocprof/check_rocprof_csv.c
 * compares each with the byte loop on every byte value at every position.
 * A window reads all 64 bytes: the caller's buffer must hold them, even past
 * the bytes that mean anything (their bits are ignored). */
#ifndef ROCPROF_CSV_WINDOW_H
#define ROCPROF_CSV_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CSV_WINDOW 64

typedef struct csv_window {
    size_t at;      /* offset in the buffer of the window's first byte */
    uint64_t quote; /* '"' */
    uint64_t comma; /* ',' */
    uint64_t eol;   /* '\n' or '\r' */
} csv_window_t;

static inline void csv_window_bytes(csv_window_t *w, const char *p)
{
    w->quote = w->comma = w->eol = 0;
    for (unsigned i = 0; i < CSV_WINDOW; i++) {
        uint64_t bit = 1ULL << i;
        if (p[i] == '"')
            w->quote |= bit;
        else if (p[i] == ',')
            w->comma |= bit;
        else if (p[i] == '\n' || p[i] == '\r')
            w->eol |= bit;
    }
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSV_WINDOW_WORDS 1
/* Bit j set where byte j of v is c: an exact test per byte (no borrow runs
 * into the next one), then the bytes' high bits gathered into the low 8. */
static inline uint64_t csv_word_equal(uint64_t v, unsigned char c)
{
    const uint64_t lows = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t x = v ^ (0x0101010101010101ULL * c);
    uint64_t zero = ~(((x & lows) + lows) | x | lows); /* 0x80 where the byte of x is 0 */
    return ((zero >> 7) * 0x0102040810204080ULL) >> 56;
}

static inline void csv_window_words(csv_window_t *w, const char *p)
{
    w->quote = w->comma = w->eol = 0;
    for (unsigned i = 0; i < CSV_WINDOW; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        w->quote |= csv_word_equal(v, '"') << i;
        w->comma |= csv_word_equal(v, ',') << i;
        w->eol |= (csv_word_equal(v, '\n') | csv_word_equal(v, '\r')) << i;
    }
}
#endif

#if defined(__SSE2__)
/* The three masks of the sixteen bytes at p, or-ed in at bit shift. */
static inline void csv_sse2_step(csv_window_t *w, const char *p, unsigned shift)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i comma = _mm_cmpeq_epi8(v, _mm_set1_epi8(','));
    __m128i eol = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                               _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    w->quote |= (uint64_t)(unsigned)_mm_movemask_epi8(quote) << shift;
    w->comma |= (uint64_t)(unsigned)_mm_movemask_epi8(comma) << shift;
    w->eol |= (uint64_t)(unsigned)_mm_movemask_epi8(eol) << shift;
}

/* Written out four times: compilers do not all unroll the loop. */
static inline void csv_window_sse2(csv_window_t *w, const char *p)
{
    w->quote = w->comma = w->eol = 0;
    csv_sse2_step(w, p, 0);
    csv_sse2_step(w, p + 16, 16);
    csv_sse2_step(w, p + 32, 32);
    csv_sse2_step(w, p + 48, 48);
}
#endif

/* The window of base[at, at + CSV_WINDOW). */
static inline void csv_window_load(csv_window_t *w, const char *base, size_t at)
{
#if defined(__SSE2__)
    csv_window_sse2(w, base + at);
#elif defined(CSV_WINDOW_WORDS)
    csv_window_words(w, base + at);
#else
    csv_window_bytes(w, base + at);
#endif
    w->at = at;
}

#endif
