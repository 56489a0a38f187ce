/* SPDX-License-Identifier: MIT */
/* json_window.h - 64 bytes of JSON text as bit masks of the bytes JSON
 * gives a meaning to, for json_stream.c: bit i of each mask stands for the
 * byte at + i.  From them json_stream.c finds, a window at a time, where
 * strings begin and end, which brackets and separators lie outside them and
 * where each number or literal starts, without a loop over the bytes.
 *
 * Three ways to fill a window, the same masks from each: SSE2 (x86-64's
 * baseline) sixteen bytes a step, a 64-bit word eight bytes a step
 * (little-endian targets), a byte a step (any).  json_window_load() takes the
 * fastest the target has; tests/collectors/proton/check_proton_stream.c
 * compares each with the byte loop on every byte value at every position.
 * A window reads all 64 bytes: the caller's buffer must hold them. */
#ifndef PROTON_JSON_WINDOW_H
#define PROTON_JSON_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define JSON_WINDOW 64

typedef struct json_window {
    uint64_t quote;     /* '"' */
    uint64_t backslash; /* '\\' */
    uint64_t space;     /* JSON's whitespace: ' ', '\t', '\n', '\r' */
    uint64_t op;        /* '{', '}', '[', ']', ':', ',' */
    uint64_t control;   /* below 0x20 (never raw inside a string) */
    uint64_t high;      /* 0x80 and above (UTF-8 to check) */
} json_window_t;

static inline void json_window_bytes(json_window_t *w, const unsigned char *p)
{
    *w = (json_window_t){0};
    for (unsigned i = 0; i < JSON_WINDOW; i++) {
        uint64_t bit = 1ULL << i;
        unsigned char c = p[i];
        if (c == '"')
            w->quote |= bit;
        else if (c == '\\')
            w->backslash |= bit;
        else if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',')
            w->op |= bit;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            w->space |= bit;
        if (c < 0x20)
            w->control |= bit;
        if (c >= 0x80)
            w->high |= bit;
    }
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JSON_WINDOW_WORDS 1
/* 0x80 in each byte of v that is 0: an exact test per byte. */
static inline uint64_t json_word_zero(uint64_t v)
{
    const uint64_t lows = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((v & lows) + lows) | v | lows);
}

/* The bytes' high bits (0x80 each) gathered into the low 8 bits. */
static inline uint64_t json_word_gather(uint64_t highs)
{
    return ((highs >> 7) * 0x0102040810204080ULL) >> 56;
}

static inline uint64_t json_word_equal(uint64_t v, unsigned char c)
{
    return json_word_zero(v ^ (0x0101010101010101ULL * c));
}

static inline void json_window_words(json_window_t *w, const unsigned char *p)
{
    *w = (json_window_t){0};
    for (unsigned i = 0; i < JSON_WINDOW; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        /* '[' ']' '{' '}' are 0x5b 0x5d 0x7b 0x7d: with 0x20 set, two tests. */
        uint64_t folded = v | 0x2020202020202020ULL;
        uint64_t op = json_word_equal(folded, '{') | json_word_equal(folded, '}')
                    | json_word_equal(v, ':') | json_word_equal(v, ',');
        uint64_t space = json_word_equal(v, ' ') | json_word_equal(v, '\t')
                       | json_word_equal(v, '\n') | json_word_equal(v, '\r');
        /* Below 0x20: the top three bits of the byte are 0 (and no borrow). */
        uint64_t control = json_word_zero(v & 0xe0e0e0e0e0e0e0e0ULL);
        w->quote |= json_word_gather(json_word_equal(v, '"')) << i;
        w->backslash |= json_word_gather(json_word_equal(v, '\\')) << i;
        w->op |= json_word_gather(op) << i;
        w->space |= json_word_gather(space) << i;
        w->control |= json_word_gather(control) << i;
        w->high |= json_word_gather(v & 0x8080808080808080ULL) << i;
    }
}
#endif

#if defined(__SSE2__)
/* The masks of the sixteen bytes at p, or-ed in at bit shift. */
static inline void json_sse2_step(json_window_t *w, const unsigned char *p, unsigned shift)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i op = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')),
                     _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
    __m128i space = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    /* Unsigned v <= 0x1f: max(v, 0x1f) is 0x1f. */
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
    w->quote |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')))
                << shift;
    w->backslash |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))
                    << shift;
    w->op |= (uint64_t)(unsigned)_mm_movemask_epi8(op) << shift;
    w->space |= (uint64_t)(unsigned)_mm_movemask_epi8(space) << shift;
    w->control |= (uint64_t)(unsigned)_mm_movemask_epi8(control) << shift;
    w->high |= (uint64_t)(unsigned)_mm_movemask_epi8(v) << shift;
}

/* Written out four times: compilers do not all unroll the loop. */
static inline void json_window_sse2(json_window_t *w, const unsigned char *p)
{
    *w = (json_window_t){0};
    json_sse2_step(w, p, 0);
    json_sse2_step(w, p + 16, 16);
    json_sse2_step(w, p + 32, 32);
    json_sse2_step(w, p + 48, 48);
}
#endif

/* The window of the 64 bytes at p. */
static inline void json_window_load(json_window_t *w, const unsigned char *p)
{
#if defined(__SSE2__)
    json_window_sse2(w, p);
#elif defined(JSON_WINDOW_WORDS)
    json_window_words(w, p);
#else
    json_window_bytes(w, p);
#endif
}

/* Bit i set where an odd number of the mask's bits lie at or below i: the
 * bytes from an opening quote up to (not including) its closing one. */
static inline uint64_t json_prefix_xor(uint64_t bits)
{
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

#endif
