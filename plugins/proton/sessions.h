/* SPDX-License-Identifier: MIT */
/* sessions.h - the profiling sessions of an artifact directory (hidden;
 * sessions.c). */
#ifndef AORTA_PROTON_SESSIONS_H
#define AORTA_PROTON_SESSIONS_H

#include <stddef.h>

/* The forms of a session's profile, in the order one is preferred to the
 * next: the tree, the tree as msgpack, the Chrome trace. */
typedef enum proton_form {
    PROTON_FORM_TREE,
    PROTON_FORM_MSGPACK,
    PROTON_FORM_TRACE,
    PROTON_FORM_NONE,
} proton_form_t;

typedef struct proton_session {
    char *stem;         /* the path without ".part_<N>" and the suffix */
    proton_form_t form; /* the form its totals come from, or NONE yet */
    int whole;          /* that form's <stem>.<format> was read */
    long long *phases;  /* the phases of that form found, in any order */
    size_t nphases, phases_cap;
    size_t beside_whole; /* phases not read: the whole file was */
} proton_session_t;

typedef struct proton_sessions proton_sessions_t;

proton_sessions_t *proton_sessions_new(void);
void proton_sessions_free(proton_sessions_t *sessions);
/* The session of the len-byte stem, added when new. */
proton_session_t *proton_sessions_get(proton_sessions_t *sessions, const char *stem, size_t len);
/* fn for each session, in the order they were first found. */
void proton_sessions_each(proton_sessions_t *sessions, void (*fn)(proton_session_t *, void *),
                          void *user);

/* A profile's path without its format's suffix (len bytes): the length of
 * its stem, with *phase its N when it ends in ".part_<N>", else -1. */
size_t proton_profile_name(const char *path, size_t len, long long *phase);
void proton_session_add_phase(proton_session_t *session, long long phase);
/* The phases missing from 0 to the last one found ("1, 3-5"), or NULL when
 * none is; free it. */
char *proton_session_missing(proton_session_t *session);

#endif
