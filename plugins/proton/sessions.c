/* SPDX-License-Identifier: MIT */
/* sessions.c - the profiling sessions of an artifact directory, by name.
 *
 * Proton writes a session's profile as <name>.<format>, or, once periodic
 * flushing has advanced a phase, as <name>.part_<N>.<format> for each phase
 * N from 0 (Triton's Data::dump()).  A session is its <name> (the path
 * without ".part_<N>" and the format's suffix); the table remembers, per
 * session, the form its totals come from and the phases that form had, so
 * that the session counts once and a missing phase is named. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"
#include "sessions.h"

struct proton_sessions {
    proton_session_t **slots; /* open addressing, by the stem's hash */
    size_t cap, count;
    proton_session_t **order; /* as first found */
    size_t order_cap;
};

static uint64_t hash(const char *text, size_t len)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
    return h;
}

proton_sessions_t *proton_sessions_new(void)
{
    proton_sessions_t *sessions = cc_xmalloc(sizeof *sessions);
    sessions->cap = 64;
    sessions->count = 0;
    sessions->slots = calloc(sessions->cap, sizeof *sessions->slots);
    cc_xcheck(sessions->slots);
    sessions->order = NULL;
    sessions->order_cap = 0;
    return sessions;
}

void proton_sessions_free(proton_sessions_t *sessions)
{
    for (size_t i = 0; i < sessions->cap; i++) {
        if (sessions->slots[i]) {
            free(sessions->slots[i]->stem);
            free(sessions->slots[i]->phases);
            free(sessions->slots[i]);
        }
    }
    free(sessions->slots);
    free(sessions->order);
    free(sessions);
}

static void grow(proton_sessions_t *sessions)
{
    size_t cap = sessions->cap * 2;
    proton_session_t **slots = calloc(cap, sizeof *slots);
    cc_xcheck(slots);
    for (size_t i = 0; i < sessions->cap; i++) {
        proton_session_t *s = sessions->slots[i];
        if (!s)
            continue;
        size_t at = hash(s->stem, strlen(s->stem)) & (cap - 1);
        while (slots[at])
            at = (at + 1) & (cap - 1);
        slots[at] = s;
    }
    free(sessions->slots);
    sessions->slots = slots;
    sessions->cap = cap;
}

proton_session_t *proton_sessions_get(proton_sessions_t *sessions, const char *stem, size_t len)
{
    size_t at = hash(stem, len) & (sessions->cap - 1);
    for (; sessions->slots[at]; at = (at + 1) & (sessions->cap - 1)) {
        proton_session_t *s = sessions->slots[at];
        if (strlen(s->stem) == len && memcmp(s->stem, stem, len) == 0)
            return s;
    }
    proton_session_t *s = cc_xmalloc(sizeof *s);
    *s = (proton_session_t){.stem = cc_xstrndup(stem, len), .form = PROTON_FORM_NONE};
    sessions->slots[at] = s;
    cc_xgrow((void **)&sessions->order, &sessions->order_cap, sessions->count + 1,
             sizeof *sessions->order);
    sessions->order[sessions->count] = s;
    if (++sessions->count * 2 > sessions->cap)
        grow(sessions);
    return s;
}

void proton_sessions_each(proton_sessions_t *sessions, void (*fn)(proton_session_t *, void *),
                          void *user)
{
    for (size_t i = 0; i < sessions->count; i++)
        fn(sessions->order[i], user);
}

/* Phase numbers longer than this are no phase: the name is a whole file's. */
#define PHASE_DIGITS 18

size_t proton_profile_name(const char *path, size_t len, long long *phase)
{
    *phase = -1;
    static const char part[] = ".part_";
    size_t digits = 0;
    while (digits < len && path[len - 1 - digits] >= '0' && path[len - 1 - digits] <= '9')
        digits++;
    size_t at = len - digits;
    if (digits == 0 || digits > PHASE_DIGITS || at < sizeof part - 1
        || memcmp(path + at - (sizeof part - 1), part, sizeof part - 1) != 0)
        return len;
    long long n = 0;
    for (size_t i = at; i < len; i++)
        n = n * 10 + (path[i] - '0');
    *phase = n;
    return at - (sizeof part - 1);
}

void proton_session_add_phase(proton_session_t *session, long long phase)
{
    cc_xgrow((void **)&session->phases, &session->phases_cap, session->nphases + 1,
             sizeof *session->phases);
    session->phases[session->nphases++] = phase;
}

static int compare_phase(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Append "a" or "a-b" for a run of missing phases. */
static void add_run(cc_buf_t *out, long long from, long long to, size_t *runs)
{
    if ((*runs)++ == 8) {
        cc_buf_adds(out, ", ...");
        return;
    }
    if (*runs > 8)
        return;
    cc_buf_addf(out, "%s%lld", out->len ? ", " : "", from);
    if (to > from)
        cc_buf_addf(out, "-%lld", to);
}

char *proton_session_missing(proton_session_t *session)
{
    if (session->nphases == 0)
        return NULL;
    qsort(session->phases, session->nphases, sizeof *session->phases, compare_phase);
    cc_buf_t out = {0};
    size_t runs = 0;
    long long next = 0;
    for (size_t i = 0; i < session->nphases; i++) {
        long long phase = session->phases[i];
        if (phase > next)
            add_run(&out, next, phase - 1, &runs);
        if (phase >= next)
            next = phase + 1;
    }
    return out.data ? cc_buf_take(&out) : NULL;
}
