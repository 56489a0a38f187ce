/* SPDX-License-Identifier: MIT */
/* parse.c - the Proton summary of an artifact directory: every profile
 * Proton writes below it, through the core's no-follow walk, one file open
 * at a time (docs/collectors/proton.md, Metrics).
 *
 * Three passes, one per form, in the order a session's forms are preferred:
 * <name>.hatchet (data: tree), <name>.hatchet_msgpack, <name>.chrome_trace
 * (data: trace); each as a whole file or as the .part_<N> phases periodic
 * flushing writes.  A session (sessions.c) counts in the first form it has,
 * its phases summed, and a phase missing or unreadable is named in a
 * warning.  Never fails: a crashed run or a file that is not a readable
 * profile means fewer metrics; a file past the parse's memory limit means
 * none, with one warning. */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

#include "hatchet.h"
#include "json_stream.h"
#include "proton.h"
#include "sessions.h"

static const char *const suffixes[] = {".hatchet", ".hatchet_msgpack", ".chrome_trace"};

typedef struct pass {
    proton_form_t form;
    aorta_kernels_t *kernels;
    aorta_dispatches_t *dispatches; /* the Chrome traces' launches, for the timeline */
    proton_sessions_t *sessions;
    char *out_of_memory; /* the file that did not fit */
    size_t unread;       /* hatchet_msgpack files this build cannot read */
    char *first_unread;
} pass_t;

/* A readable file's dispatches into the run's. */
static void add_dispatches(aorta_dispatches_t *into, const aorta_dispatches_t *file)
{
    for (size_t i = 0; i < aorta_dispatches_count(file); i++) {
        size_t len;
        const char *name = aorta_dispatches_name(file, aorta_dispatches_name_at(file, i), &len);
        const char *track = aorta_dispatches_track_name(file, aorta_dispatches_track_at(file, i));
        aorta_dispatches_add(into, track, name, len, aorta_dispatches_start_at(file, i),
                             aorta_dispatches_end_at(file, i));
    }
}

/* One file in its form's reader, its sums into the run's as one group (and
 * a Chrome trace's dispatches into the run's). */
static proton_read_t read_profile(proton_form_t form, int fd, aorta_kernels_t *kernels,
                                  aorta_dispatches_t *dispatches)
{
    if (form == PROTON_FORM_TREE)
        return proton_hatchet_count(fd, kernels);
    aorta_kernels_t *file = cc_xcheck(aorta_kernels_new(0));
    aorta_dispatches_t *launches = form == PROTON_FORM_TRACE ? aorta_dispatches_new() : NULL;
    proton_read_t status = form == PROTON_FORM_MSGPACK
                             ? proton_msgpack_read(fd, file)
                             : proton_trace_stream(fd, file, launches, JSON_STREAM_BLOCK);
    if (status == PROTON_READ_OK)
        add_dispatches(dispatches, launches);
    aorta_dispatches_free(launches);
    if (status == PROTON_READ_OK) {
        for (size_t i = 0; i < aorta_kernels_count(file); i++) {
            size_t len;
            const char *name = aorta_kernels_name_at(file, i, &len);
            aorta_kernels_add(kernels, name, len, aorta_kernels_time_at(file, i),
                              aorta_kernels_launches_at(file, i));
        }
    }
    aorta_kernels_free(file);
    return status;
}

static void warn_unreadable(const char *path, proton_read_t status, long long phase,
                            const proton_session_t *session)
{
    const char *why = status == PROTON_READ_UNSURE
                        ? "a member repeated after what it held was counted, which one "
                          "pass cannot undo"
                        : "not a readable profile";
    if (phase >= 0)
        aorta_warn("proton", "%s: %s; phase %lld of %s is left out of the totals", path, why,
                   phase, session->stem);
    else
        aorta_warn("proton", "%s: %s; it is left out of the totals", path, why);
}

static int parse_file(const char *path, int fd, void *user)
{
    pass_t *pass = user;
    size_t len = strlen(path) - strlen(suffixes[pass->form]);
    long long phase;
    size_t stem = proton_profile_name(path, len, &phase);
    proton_session_t *session = proton_sessions_get(pass->sessions, path, stem);
    if (session->form < pass->form)
        return 0; /* counted in a form it prefers */
    if (pass->form == PROTON_FORM_MSGPACK && !proton_msgpack_available()) {
        if (pass->unread++ == 0)
            pass->first_unread = cc_xstrdup(path);
        return 0;
    }
    session->form = pass->form;
    if (phase >= 0 && session->whole) {
        session->beside_whole++;
        return 0;
    }
    if (phase < 0)
        session->whole = 1;
    else
        proton_session_add_phase(session, phase);
    proton_read_t status = read_profile(pass->form, fd, pass->kernels, pass->dispatches);
    if (status == PROTON_READ_NO_MEMORY) {
        pass->out_of_memory = cc_xstrdup(path);
        return 1;
    }
    if (status != PROTON_READ_OK)
        warn_unreadable(path, status, phase, session);
    /* Upstream sums each file on its own first, then adds the files' sums
     * to the run's totals. */
    aorta_kernels_end_file(pass->kernels);
    return 0;
}

/* After the passes: each phased session's missing phases, and phases
 * beside a whole file. */
static void check_session(proton_session_t *session, void *user)
{
    (void)user;
    if (session->form == PROTON_FORM_NONE)
        return;
    const char *suffix = suffixes[session->form];
    if (session->beside_whole)
        aorta_warn("proton", "%s%s and %zu of its .part_<N>%s phases: the phases are left out",
                   session->stem, suffix, session->beside_whole, suffix);
    char *missing = proton_session_missing(session);
    if (missing)
        aorta_warn("proton", "%s: phase(s) %s missing (no %s.part_<N>%s); the totals are the "
                             "other phases'", session->stem, missing, session->stem, suffix);
    free(missing);
}

static void warn_out_of_memory(const char *path, const char *dir)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        aorta_warn("proton", "%s: out of memory while reading it (the parse's limit, "
                             "AORTA_PARSE_MEMORY, is %" PRIuMAX " bytes); no proton metrics "
                             "for %s", path, (uintmax_t)limit.rlim_cur, dir);
    else
        aorta_warn("proton", "%s: out of memory while reading it; no proton metrics for %s", path,
                   dir);
}

void proton_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    /* Upstream adds the kernels' totals one after the other: no
     * compensated sum. */
    pass_t pass = {.kernels = cc_xcheck(aorta_kernels_new(0)),
                   .dispatches = aorta_dispatches_new(),
                   .sessions = proton_sessions_new()};
    aorta_walk_status_t status = AORTA_WALK_OK;
    for (int form = PROTON_FORM_TREE; form <= PROTON_FORM_TRACE; form++) {
        pass.form = (proton_form_t)form;
        status = aorta_walk_files_sorted(dir, suffixes[form], parse_file, &pass);
        if (status != AORTA_WALK_OK)
            break;
    }
    switch (status) {
    case AORTA_WALK_OK:
        proton_sessions_each(pass.sessions, check_session, NULL);
        if (pass.unread)
            aorta_warn("proton", "%zu .hatchet_msgpack file(s) not read (%s%s): proton was built "
                                 "without msgpack-c (Debian package libmsgpack-dev)",
                       pass.unread, pass.first_unread, pass.unread > 1 ? ", ..." : "");
        aorta_kernels_report(pass.kernels, metrics, "proton", 1.0, dir);
        /* Each session's "ts" counts from its own start (the default clock,
         * AORTA_CLOCK_SESSION). */
        if (aorta_dispatches_count(pass.dispatches) > 0)
            aorta_metrics_set_dispatches(metrics, pass.dispatches);
        break;
    case AORTA_WALK_STOPPED:
        /* A file past the memory limit: no totals rather than short ones. */
        warn_out_of_memory(pass.out_of_memory, dir);
        aorta_metrics_set_string(metrics, "proton_artifact_dir", dir);
        break;
    case AORTA_WALK_NO_FDS:
        /* Some files were skipped: totals would be silently short. */
        aorta_metrics_set_string(metrics, "proton_artifact_dir", dir);
        break;
    case AORTA_WALK_NOT_DIR:
    case AORTA_WALK_SYMLINK:
        break; /* no directory (or a refused symlink): no keys at all */
    }
    free(pass.out_of_memory);
    free(pass.first_unread);
    proton_sessions_free(pass.sessions);
    aorta_kernels_free(pass.kernels);
    aorta_dispatches_free(pass.dispatches);
}
