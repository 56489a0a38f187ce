/* SPDX-License-Identifier: MIT */
/*
 * aorta/collector.h - the one header a collector (profiler plugin) needs.
 *
 * A collector is a shared module (rocprof.so, proton.so, ...) that aorta-run
 * loads from its plugin search path.  The module exports exactly one symbol,
 * aorta_collector_<name>_get(), where <name> is the module's file stem; the
 * AORTA_COLLECTOR_DEFINE() macro at the bottom writes it.  It returns a
 * struct aorta_collector describing the collector and its callbacks.
 *
 * VERSION POLICY
 *   AORTA_COLLECTOR_ABI_MAJOR / _MINOR describe the layout of
 *   struct aorta_collector and the meaning of every function in this header.
 *   - A new field is added only by taking it from the front of `reserved`
 *     (which shrinks by one: the struct's size and every older field's
 *     offset never change) and bumping the MINOR version.  A collector
 *     built against an older minor leaves the new field NULL/0 (the core
 *     ignores fields newer than a collector's abi_minor), and the core
 *     treats NULL as "use the default".  ABI 1.1 added
 *     queue_interceptor_why.  ABI 1.2 added metrics, the table that
 *     declares each metric's unit and better direction, and the readers
 *     of that table for hosts, aorta_collector_metric_*().  ABI 1.3
 *     added the per-dispatch trace, aorta_dispatches_*() and
 *     aorta_metrics_set_dispatches() / aorta_metrics_dispatches().  ABI 1.4
 *     added resources and takes (named exclusive resources),
 *     profiler_version, the trial's environment in parse()
 *     (aorta_metrics_env()), the exporter child (aorta_exporter_run()),
 *     the CSV reader (aorta_csv_*()), grouped numbers
 *     (aorta_number_parse_grouped()) and unit strings (aorta_unit_to_ms()).
 *   - A new accessor function may be added with a MINOR bump.
 *   - Anything else (reordering, retyping or removing a field, changing what
 *     a function means) bumps the MAJOR version.
 *   The loader accepts a collector when its abi_major equals the core's and
 *   its abi_minor is not newer than the core's.  libaorta.so.0 exports the
 *   functions of minor N under the symbol version AORTA_1.N.
 *
 * BUILDING FOR AN OLDER AORTA
 *   By default a collector is stamped with this header's minor, and so
 *   loads only into an aorta of that minor or newer.  A collector that
 *   must load into an older one defines, before including this header,
 *       #define AORTA_COLLECTOR_ABI_TARGET 0     (or 1: the oldest minor)
 *   Then AORTA_COLLECTOR_DEFINE() stamps abi_minor with that minor; the
 *   fields of struct aorta_collector newer than it are not declared (they
 *   stay part of `reserved`), so setting one does not compile; and every
 *   function newer than it is marked unavailable, so calling it or taking
 *   its address does not compile either (GCC >= 12 and clang; older
 *   compilers only warn, as the attribute is then `deprecated`).  Such a
 *   module needs only the symbol versions AORTA_1.0 up to AORTA_1.<TARGET>.
 *   A TARGET that is empty, negative or newer than this header's minor is
 *   an #error.  Types and constants stay visible: they cost no symbol.
 *
 * C++
 *   The header is C and declares everything extern "C"; a collector may be
 *   written in C++.  AORTA_COLLECTOR_DEFINE() writes its entry point
 *   extern "C" and takes designated initializers, which C++20 has: give
 *   the fields in the order struct aorta_collector declares them (C++ does
 *   not allow another order; the macro silences g++'s warning about the
 *   fields left out, which are meant to be zero).  g++ and clang++ also
 *   accept it in C++11 to C++17, as an extension (-Wpedantic warns).  Give
 *   callbacks exactly the types of the struct's fields: static functions
 *   do.  No exception may leave a callback (mark them noexcept); tables
 *   (options, metrics) are static arrays of the C row types.
 *
 * OWNERSHIP
 *   Every handle a callback receives is owned by the core and is valid only
 *   for the duration of that callback.  Strings returned by accessors are
 *   borrowed (valid until the handle changes or the callback returns) unless
 *   the function says "free with aorta_free()".  Strings passed in are always
 *   copied; the caller keeps ownership of its arguments.
 *
 * OUT OF MEMORY
 *   No function of this header reports running out of memory: when an
 *   allocation fails (or a result could not fit in memory), libaorta writes
 *   "libaorta: out of memory" and a newline to stderr and aborts the
 *   process.  parse() runs in a child, so there it costs only that
 *   collector's metrics.  A -1 or NULL a function returns therefore always
 *   means one of the cases its comment lists.
 *
 * THREADS
 *   The core calls collectors from one thread.  parse() runs in a child
 *   process of aorta-run, so a crash or hang there cannot take the sweep down.
 */
#ifndef AORTA_COLLECTOR_H
#define AORTA_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AORTA_COLLECTOR_ABI_MAJOR 1
#define AORTA_COLLECTOR_ABI_MINOR 4

/* The minor a collector is built for (see BUILDING FOR AN OLDER AORTA). */
#ifndef AORTA_COLLECTOR_ABI_TARGET
#define AORTA_COLLECTOR_ABI_TARGET AORTA_COLLECTOR_ABI_MINOR
#endif
/* Empty: ~(~X + 0) == 0 and ~(~X + 1) == 1 hold together for no number. */
#if ~(~AORTA_COLLECTOR_ABI_TARGET + 0) == 0 && ~(~AORTA_COLLECTOR_ABI_TARGET + 1) == 1
#error "AORTA_COLLECTOR_ABI_TARGET is empty: define it to the minor to build for (0, 1, 2, 3 or 4)"
#elif AORTA_COLLECTOR_ABI_TARGET < 0 || AORTA_COLLECTOR_ABI_TARGET > AORTA_COLLECTOR_ABI_MINOR
#error "AORTA_COLLECTOR_ABI_TARGET must be a minor this header knows: 0, 1, 2, 3 or 4 (AORTA_COLLECTOR_ABI_MINOR)"
#endif

#if defined(__GNUC__)
#define AORTA_EXPORT __attribute__((visibility("default")))
#define AORTA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define AORTA_EXPORT
#define AORTA_PRINTF(fmt, args)
#endif

/* AORTA_AVAILABLE_IN_1_N marks what minor N added: unavailable when the
 * collector builds for an older minor (AORTA_COLLECTOR_ABI_TARGET). */
#if defined(__has_attribute)
#if __has_attribute(unavailable)
#define AORTA_UNAVAILABLE_(msg) __attribute__((unavailable(msg)))
#endif
#endif
#if !defined(AORTA_UNAVAILABLE_) && defined(__GNUC__)
#define AORTA_UNAVAILABLE_(msg) __attribute__((deprecated(msg)))
#endif
#ifndef AORTA_UNAVAILABLE_
#define AORTA_UNAVAILABLE_(msg)
#endif
#if AORTA_COLLECTOR_ABI_TARGET < 1
#define AORTA_AVAILABLE_IN_1_1 \
    AORTA_UNAVAILABLE_("collector ABI 1.1, newer than AORTA_COLLECTOR_ABI_TARGET")
#else
#define AORTA_AVAILABLE_IN_1_1
#endif
#if AORTA_COLLECTOR_ABI_TARGET < 2
#define AORTA_AVAILABLE_IN_1_2 \
    AORTA_UNAVAILABLE_("collector ABI 1.2, newer than AORTA_COLLECTOR_ABI_TARGET")
#else
#define AORTA_AVAILABLE_IN_1_2
#endif
#if AORTA_COLLECTOR_ABI_TARGET < 3
#define AORTA_AVAILABLE_IN_1_3 \
    AORTA_UNAVAILABLE_("collector ABI 1.3, newer than AORTA_COLLECTOR_ABI_TARGET")
#else
#define AORTA_AVAILABLE_IN_1_3
#endif
#if AORTA_COLLECTOR_ABI_TARGET < 4
#define AORTA_AVAILABLE_IN_1_4 \
    AORTA_UNAVAILABLE_("collector ABI 1.4, newer than AORTA_COLLECTOR_ABI_TARGET")
#else
#define AORTA_AVAILABLE_IN_1_4
#endif

/* ------------------------------------------------------------------------ */
/* Opaque handles                                                            */
/* ------------------------------------------------------------------------ */

/** Ordered string -> string map: a collector's options. */
typedef struct aorta_options aorta_options_t;
/** A growing argument vector. */
typedef struct aorta_argv aorta_argv_t;
/** Ordered string -> string map of environment variables. */
typedef struct aorta_env aorta_env_t;
/** Where parse() reports its metrics. */
typedef struct aorta_metrics aorta_metrics_t;
/** Carries one actionable error message out of a callback. */
typedef struct aorta_error aorta_error_t;

/* ------------------------------------------------------------------------ */
/* The collector description                                                 */
/* ------------------------------------------------------------------------ */

/** One row of a collector's option table (shown by `aorta-run --describe`). */
typedef struct aorta_option_spec {
    const char *key;                 /**< option name, e.g. "trace" */
    const char *const *values;       /**< NULL-terminated allowed values, or NULL for free text */
    const char *default_value;       /**< default, or NULL when the option is absent by default */
    const char *help;                /**< one line of help */
} aorta_option_spec_t;

/** Which way a metric is better (ABI 1.2): how a comparison of two runs
 *  reads a change of it. */
typedef enum aorta_metric_better {
    AORTA_BETTER_NONE = 0,   /**< neither way: compared and shown, never gated */
    AORTA_BETTER_LOWER = 1,  /**< a rise is a regression (times, memory) */
    AORTA_BETTER_HIGHER = 2  /**< a fall is a regression (rates, throughput) */
} aorta_metric_better_t;

/** One row of a collector's metric table (ABI 1.2; shown by
 *  `aorta-run --describe`).  A later minor that needs more per metric adds
 *  a slot to struct aorta_collector, never a field to this row. */
typedef struct aorta_metric_spec {
    const char *key;                 /**< the whole metric name, as parse() reports it:
                                          "<name>_max_rss_kb" */
    const char *unit;                /**< as shown after a value ("ms", "KiB", "%"), or NULL */
    aorta_metric_better_t better;    /**< which way is better */
    const char *help;                /**< one line of help, or NULL */
} aorta_metric_spec_t;

struct aorta_collector {
    uint32_t abi_major;              /**< AORTA_COLLECTOR_ABI_MAJOR at build time */
    uint32_t abi_minor;              /**< AORTA_COLLECTOR_ABI_TARGET at build time */
    const char *name;                /**< must equal the module's file stem */
    const char *version;             /**< the collector's own version string */
    const char *description;         /**< one line */
    int wrap_rank;                   /**< composition order: lowest wraps outermost */
    const aorta_option_spec_t *options; /**< table ended by a row whose key is NULL */

    /**
     * Mandatory.  Check and normalise the options.  @p options holds the
     * user's values (all strings) in the order given; rewrite it in place to
     * the effective options (defaults filled in, values normalised).  Called
     * at recipe load, before any trial runs.
     * @return 0, or -1 with a message set in @p err.
     */
    int (*validate)(aorta_options_t *options, aorta_error_t *err);

    /**
     * Mandatory.  Build in @p out the argv that runs @p command under this
     * collector, writing artifacts into @p out_dir (which exists and is
     * empty).  @p env is the environment the command will run with.
     * @p options are the effective options validate() produced.
     * @return 0, or -1 with a message in @p err when the command cannot be
     * profiled (the trial is then a setup failure, never an unprofiled run).
     */
    int (*wrap)(const aorta_options_t *options, const char *out_dir,
                const aorta_argv_t *command, const aorta_env_t *env,
                aorta_argv_t *out, aorta_error_t *err);

    /**
     * Optional.  Fill @p bundle with the variables a payload that drives the
     * profiler itself must see for @p out_dir.  Default: an empty bundle.
     * @return 0, or -1 with a message in @p err.
     */
    int (*env)(const aorta_options_t *options, const char *out_dir,
               aorta_env_t *bundle, aorta_error_t *err);

    /**
     * Mandatory.  Read the artifacts under @p dir and report metrics named
     * "<name>_*" into @p metrics.  Never fails: unreadable input reports
     * fewer metrics.  Report "<name>_artifact_dir" whenever @p dir is an
     * existing directory, and nothing at all when it is missing or not a
     * directory.  Runs in a child process.
     */
    void (*parse)(const aorta_options_t *options, const char *dir,
                  aorta_metrics_t *metrics);

    /**
     * Optional.  Asked once for each other requested collector at recipe
     * load.  Default: no conflict.
     * @return 0 when the two can run together, or -1 with a message in @p err.
     */
    int (*conflicts)(const aorta_options_t *options, const char *other_name,
                     const aorta_options_t *other_options, aorta_error_t *err);

    /**
     * Optional; ABI 1.0's form of queue_interceptor_why() below, which a
     * 1.1 collector sets instead.  The core calls it only when
     * queue_interceptor_why is NULL.  It may write into @p why and
     * @p remedy (NUL-terminated, truncated to their sizes) what
     * queue_interceptor_why() sets.  Default: no.
     * @return 1 if it intercepts, 0 if not.
     */
    int (*queue_interceptor)(const aorta_options_t *options,
                             char *why, size_t why_size,
                             char *remedy, size_t remedy_size);

#if AORTA_COLLECTOR_ABI_TARGET >= 1
    /**
     * Optional (ABI 1.1).  Whether, with these options, the collector
     * installs an HSA queue interceptor.  When it does, it may set in
     * @p why (aorta_error_set()) a phrase naming the cause (e.g. "proton
     * backend 'auto' (which resolves to ...)") and in @p remedy a sentence
     * saying how to avoid it; either may stay unset.  Both arrive without a
     * message.  The core refuses any two interceptors together, quoting
     * both collectors' phrases and remedies.  When set, it is asked instead
     * of queue_interceptor.  Default: queue_interceptor, else no.
     * @return 1 if it intercepts, 0 if not.
     */
    int (*queue_interceptor_why)(const aorta_options_t *options, aorta_error_t *why,
                                 aorta_error_t *remedy);

#endif

#if AORTA_COLLECTOR_ABI_TARGET >= 2
    /**
     * Optional (ABI 1.2).  What the numbers parse() reports mean: a table
     * ended by a row whose key is NULL, one row per metric, keyed by the
     * whole metric name, so every key starts with "<name>_" and is longer.
     * aorta-run lists the table in --describe and compares, shows and
     * gates each declared metric in its better direction.  A metric that
     * parse() reports without a row, or whose row says AORTA_BETTER_NONE,
     * is compared and shown but never gated; a row for a metric reported
     * as a string changes nothing.  A row that aorta_collector_metric_check()
     * refuses (a key outside "<name>_", a key declared again, ...) declares
     * nothing: aorta-run warns once when it loads the collector, and
     * --check-collector fails it.  Hosts read the table only through
     * aorta_collector_metric_*(), which honour abi_minor.
     * Default: nothing declared.
     */
    const aorta_metric_spec_t *metrics;
#endif

#if AORTA_COLLECTOR_ABI_TARGET >= 4
    /**
     * Optional (ABI 1.4).  The exclusive resources this collector may take,
     * a NULL-terminated list of names: "hsa-queue-interceptor" (an HSA
     * queue interceptor: rocprofv3, Proton on AMD), "cupti-subscriber"
     * (CUPTI's one subscriber per process: Nsight Compute, Proton's cupti
     * backend), or a name of the collector's own.  Two collectors of one
     * cell that take the same resource are refused at recipe load with
     * both names, the phrases takes() gave and the ways out.  A collector
     * that sets queue_interceptor(_why) and does not list
     * "hsa-queue-interceptor" still takes it when that says so.
     * Default: none.
     */
    const char *const *resources;

    /**
     * Optional (ABI 1.4).  Whether, with these options, the collector takes
     * @p resource (one of its resources).  It may set in @p why a phrase
     * naming the cause ("proton backend 'cupti'") and in @p remedy a
     * sentence saying how to avoid it; either may stay unset.  Both arrive
     * without a message.  Default (NULL): every listed resource is taken,
     * whatever the options.
     * @return 1 if it takes it, 0 if not.
     */
    int (*takes)(const aorta_options_t *options, const char *resource, aorta_error_t *why,
                 aorta_error_t *remedy);

    /**
     * Optional (ABI 1.4).  The version of the profiler this collector runs
     * with these options in @p env (aorta-run's environment and the first
     * cell's variables): set it in @p version (aorta_error_set(), one
     * line, e.g. "2025.1.1.0 (build 35528883)").  aorta-run records it as
     * the run's profiler version (matrix.json's provenance) when this
     * collector wraps outermost, instead of the first line of
     * `PROGRAM --version`.  Default: that first line.
     * @return 0 with @p version set, or -1 when it cannot be told (then
     * the version is unknown: null).
     */
    int (*profiler_version)(const aorta_options_t *options, const aorta_env_t *env,
                            aorta_error_t *version);

    /** Room to grow without changing the size (see VERSION POLICY). */
    void *reserved[11];
#elif AORTA_COLLECTOR_ABI_TARGET >= 2
    void *reserved[14]; /* resources, takes, profiler_version (1.4) are reserved[0..2] */
#elif AORTA_COLLECTOR_ABI_TARGET == 1
    void *reserved[15]; /* metrics (1.2) is reserved[0] */
#else
    void *reserved[16]; /* queue_interceptor_why (1.1) and metrics (1.2) are reserved[0..1] */
#endif
};

typedef const struct aorta_collector *(*aorta_collector_get_fn)(void);

/* ------------------------------------------------------------------------ */
/* Option map                                                                */
/* ------------------------------------------------------------------------ */

/** Number of entries. */
AORTA_EXPORT size_t aorta_options_count(const aorta_options_t *options);
/** Key of entry @p index (insertion order); borrowed; NULL when out of range. */
AORTA_EXPORT const char *aorta_options_key_at(const aorta_options_t *options, size_t index);
/** Value of entry @p index; borrowed; NULL when out of range. */
AORTA_EXPORT const char *aorta_options_value_at(const aorta_options_t *options, size_t index);
/** Value for @p key, borrowed, or NULL when absent. */
AORTA_EXPORT const char *aorta_options_get(const aorta_options_t *options, const char *key);
/** Set @p key (copied) to @p value (copied); an existing key keeps its position.
 *  @return 0, or -1 (nothing changed) when an argument is NULL. */
AORTA_EXPORT int aorta_options_set(aorta_options_t *options, const char *key, const char *value);
/** Remove @p key if present. */
AORTA_EXPORT void aorta_options_unset(aorta_options_t *options, const char *key);
/** Remove every entry. */
AORTA_EXPORT void aorta_options_clear(aorta_options_t *options);
/** The check a validate() starts with: every key of @p options must be a key
 *  of @p table (ended by a row whose key is NULL).  Otherwise the message is
 *  upstream's "NAME: unknown option(s) ['a', 'b']; valid: ['k1', 'k2']"
 *  (the unknown keys sorted, the valid ones in table order, both quoted as
 *  aorta_text_repr_list() quotes them), @p name being the collector's.
 *  @return 0, or -1 with that message in @p err. */
AORTA_EXPORT int aorta_options_check_keys(const aorta_options_t *options,
                                          const aorta_option_spec_t *table, const char *name,
                                          aorta_error_t *err);

/** ABI 1.1.  The whole check of a validate() whose options are exactly what
 *  @p table declares: aorta_options_check_keys() first; then every value of
 *  a key whose row lists allowed values must be one of them, else the
 *  message is "NAME option 'KEY': 'VALUE' is not one of ['a', 'b']" (the
 *  allowed values sorted, each quoted as aorta_text_repr() quotes); then
 *  every key absent from @p options that has a default gets it, appended
 *  in table order (given keys keep their places and their values).  Values
 *  are compared as given: normalise them (case, spaces) before calling it
 *  if the collector accepts other spellings.  @p options is left as it was
 *  when the check fails.
 *  @return 0, or -1 with the message in @p err (or when an argument is NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int aorta_options_apply_table(aorta_options_t *options,
                                           const aorta_option_spec_t *table, const char *name,
                                           aorta_error_t *err);

/* ------------------------------------------------------------------------ */
/* Argument vector                                                           */
/* ------------------------------------------------------------------------ */

/** Number of arguments. */
AORTA_EXPORT size_t aorta_argv_count(const aorta_argv_t *argv);
/** Argument @p index, borrowed; NULL when out of range. */
AORTA_EXPORT const char *aorta_argv_at(const aorta_argv_t *argv, size_t index);
/** Append a copy of @p arg.  @return 0, or -1 (nothing appended) when an
 *  argument is NULL. */
AORTA_EXPORT int aorta_argv_push(aorta_argv_t *argv, const char *arg);
/** Append copies of every argument of @p from (which may be @p argv).
 *  @return 0, or -1 (nothing appended) when an argument is NULL. */
AORTA_EXPORT int aorta_argv_push_all(aorta_argv_t *argv, const aorta_argv_t *from);
/** Append copies of @p from's arguments [start, count); nothing when
 *  @p start is past the end.  @return 0, or -1 (nothing appended) when an
 *  argument is NULL. */
AORTA_EXPORT int aorta_argv_push_from(aorta_argv_t *argv, const aorta_argv_t *from, size_t start);

/* ------------------------------------------------------------------------ */
/* Environment                                                               */
/* ------------------------------------------------------------------------ */

/** Value of @p name, borrowed, or NULL when not set ("" is set and empty). */
AORTA_EXPORT const char *aorta_env_get(const aorta_env_t *env, const char *name);
/** Set @p name to @p value (both copied); an existing name keeps its
 *  position.  @return 0, or -1 (nothing changed) when an argument is NULL. */
AORTA_EXPORT int aorta_env_set(aorta_env_t *env, const char *name, const char *value);
/** Number of variables, and each one in insertion order (borrowed). */
AORTA_EXPORT size_t aorta_env_count(const aorta_env_t *env);
AORTA_EXPORT const char *aorta_env_name_at(const aorta_env_t *env, size_t index);
AORTA_EXPORT const char *aorta_env_value_at(const aorta_env_t *env, size_t index);

/* ------------------------------------------------------------------------ */
/* Metrics sink (parse)                                                      */
/* ------------------------------------------------------------------------ */

/* Each setter copies its arguments; setting a key twice replaces the value
 * (and type) but keeps its first position.  @return 0, or -1 with the sink
 * unchanged when @p key is NULL or outside the sink's prefix (see
 * aorta_metrics_new(); aorta-run's sink takes "<name>_" and longer), when a
 * double is not finite (non-finite numbers are never reported), or when a
 * string, @p values with @p count > 0, or one of its items is NULL.  A key
 * outside the prefix is also a warning (aorta_warn(), from "<name>"), once
 * per key and sink: aorta-run shows it, in a run and in --parse. */
AORTA_EXPORT int aorta_metrics_set_int(aorta_metrics_t *metrics, const char *key, int64_t value);
AORTA_EXPORT int aorta_metrics_set_double(aorta_metrics_t *metrics, const char *key, double value);
AORTA_EXPORT int aorta_metrics_set_string(aorta_metrics_t *metrics, const char *key, const char *value);
AORTA_EXPORT int aorta_metrics_set_strings(aorta_metrics_t *metrics, const char *key,
                                           const char *const *values, size_t count);
/** aorta_metrics_set_strings() with each item's length in @p lengths, so an
 *  item may hold NUL bytes (a kernel name read from a file); aorta-run
 *  writes them into JSON whole, a NUL as \u0000.  @since ABI 1.1 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int aorta_metrics_set_strings_n(aorta_metrics_t *metrics, const char *key,
                                             const char *const *values, const size_t *lengths,
                                             size_t count);

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/** Set the message (printf-style; replaces an earlier one).  One line,
 *  naming what is wrong and how to fix it. */
AORTA_EXPORT void aorta_error_set(aorta_error_t *err, const char *fmt, ...) AORTA_PRINTF(2, 3);
/** The message, borrowed, or NULL when none was set. */
AORTA_EXPORT const char *aorta_error_message(const aorta_error_t *err);

/* ------------------------------------------------------------------------ */
/* Helpers shared by collectors                                              */
/* ------------------------------------------------------------------------ */

/** Free memory that a function of this header says to free with it. */
AORTA_EXPORT void aorta_free(void *ptr);

/** Result of aorta_walk_files(). */
typedef enum aorta_walk_status {
    AORTA_WALK_OK = 0,          /**< the tree was walked (perhaps finding nothing) */
    AORTA_WALK_NOT_DIR = 1,     /**< @p dir is missing, not a directory, or unreadable */
    AORTA_WALK_SYMLINK = 2,     /**< @p dir itself is a symbolic link (refused) */
    AORTA_WALK_NO_FDS = 3,      /**< out of file descriptors: results are partial, discard them */
    AORTA_WALK_STOPPED = 4      /**< the callback asked to stop */
} aorta_walk_status_t;

/**
 * Called for each regular file found by aorta_walk_files().  @p fd is open
 * read-only (blocking) on that file and is closed by the walk after the
 * callback returns; @p path is "<dir>/<relative path>", borrowed.
 * @return 0 to go on, non-zero to stop the walk.
 */
typedef int (*aorta_walk_fn)(const char *path, int fd, void *user);

/**
 * Walk @p dir recursively without following symbolic links and call @p fn
 * for every regular file whose name ends with @p suffix.  Per directory,
 * entries go in byte-wise sorted name order, and the directory's files come
 * before its subdirectories.  Symlinks, FIFOs, sockets and devices are
 * skipped; every file is opened O_NOFOLLOW and checked to be regular through
 * its descriptor; at most one file is open at a time.  Files that cannot be
 * opened are skipped.  Directories nested deeper than 64 levels are skipped.
 */
AORTA_EXPORT aorta_walk_status_t aorta_walk_files(const char *dir, const char *suffix,
                                                  aorta_walk_fn fn, void *user);

/**
 * aorta_walk_files() in the order of the files' paths compared component by
 * component, byte-wise (Python's sorted(Path(dir).rglob(...))): per
 * directory, files and subdirectories are visited together in sorted name
 * order, a subdirectory's files where its name sorts.  So "a/1_x" comes
 * before "a0_x", and "a/b/t" before "a/t".  Everything else is as
 * aorta_walk_files() does it.  @since ABI 1.1
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_walk_status_t aorta_walk_files_sorted(const char *dir, const char *suffix,
                                                         aorta_walk_fn fn, void *user);

/**
 * Look @p name up like `which`: a name containing '/' is checked directly;
 * otherwise each entry of @p path_value (a PATH-style colon list; NULL means
 * "/bin:/usr/bin", "" means no directory) is tried in order, and the first
 * executable regular file wins.  Returns "<entry>/<name>" (absolute only when
 * the entry is), or NULL.  Free with aorta_free().
 */
AORTA_EXPORT char *aorta_which(const char *name, const char *path_value);

/**
 * Join @p base and @p leaf (leaf may be NULL) and normalise the result the
 * way Python's str(pathlib.PurePosixPath(base) / leaf) does: repeated '/'
 * collapse, '.' components and a trailing '/' go, '..' stays, a relative
 * path stays relative, an absolute @p leaf replaces @p base, exactly two
 * leading slashes are kept, and an empty result is ".".  A NULL @p base
 * is "".  Free with aorta_free(); never NULL.
 */
AORTA_EXPORT char *aorta_path_join(const char *base, const char *leaf);

/**
 * Expand @p path as Python's os.path.expandvars(os.path.expanduser(path))
 * does, reading the variables from @p env (a command's environment; NULL is
 * an empty one) instead of aorta-run's own: a leading "~" becomes $HOME
 * (from @p env, else the current user's home from the password database),
 * "~user" that user's home; $NAME and ${NAME} become the variable's value
 * (NAME of [A-Za-z0-9_] in the bare form, anything but '}' in braces);
 * unknown users and variables stay as written, and values are not expanded
 * again.  Free with aorta_free(); never NULL.
 */
AORTA_EXPORT char *aorta_path_expand(const char *path, const aorta_env_t *env);

/**
 * Parse a number the way Python's float(text.strip()) does, then require it
 * to be finite: surrounding whitespace is ignored; a sign, digits with single
 * underscores between them, a fraction and an exponent are accepted; hex,
 * "nan", "inf", empty text and trailing junk are not.
 * @return 0 with *out set, or -1.
 */
AORTA_EXPORT int aorta_number_parse(const char *text, double *out);
/** The same for a text that is not NUL-terminated (@p len bytes). */
AORTA_EXPORT int aorta_number_parse_n(const char *text, size_t len, double *out);

/**
 * Strip leading and trailing whitespace as Python's str.strip() does (ASCII
 * whitespace, \x1c-\x1f and the Unicode spaces, read as UTF-8) from the
 * @p len bytes at @p text.  Returns a pointer into @p text and sets
 * *out_len to the stripped length.
 */
AORTA_EXPORT const char *aorta_text_strip(const char *text, size_t len, size_t *out_len);

/**
 * Quote the @p len bytes at @p text as Python's repr() quotes a str, for
 * messages that name what the user wrote ('x', "it's"): single quotes unless
 * the text holds a ' and no "; the quote in use and '\' are backslashed;
 * \t \n \r by name; every other character that str.isprintable() rejects
 * (controls, DEL, unassigned, format and separator characters, ...) as
 * \xNN, \uNNNN or \UNNNNNNNN; UTF-8 is read with aorta_utf8_valid_prefix()'s
 * rules.  A byte that is not part of valid UTF-8 shows as \udcNN, the lone
 * surrogate Python's surrogateescape decodes it to (as Python shows such a
 * byte of sys.argv, os.environ or a file name).  The printable table follows
 * the Unicode version core/libaorta/printable.py was run with (14.0, Python
 * 3.11).  NUL bytes are allowed.  Free with aorta_free(); never NULL.
 */
AORTA_EXPORT char *aorta_text_repr(const char *text, size_t len);

/**
 * Python's repr() of a list of @p count NUL-terminated texts: "['a', 'b']",
 * each item quoted as aorta_text_repr() does, "[]" when @p count is 0.
 * Free with aorta_free(); never NULL.
 */
AORTA_EXPORT char *aorta_text_repr_list(const char *const *items, size_t count);

/**
 * Check UTF-8 with the rules of Python's strict "utf-8" decoder: no overlong
 * forms, no surrogates (U+D800-U+DFFF), nothing beyond U+10FFFF.  Returns the
 * length of the longest prefix of the @p len bytes at @p data that consists
 * of whole valid characters (@p len when all of it does).  When @p truncated
 * is not NULL, *truncated is set to 1 when the bytes after that prefix are
 * the valid start of a character cut short by the end of the data (a reader
 * that gets the input in chunks keeps them for the next chunk), else 0.
 * When @p ascii is not NULL, *ascii is set to whether the prefix is pure
 * ASCII.  Runs of ASCII are checked several bytes at a time.
 */
AORTA_EXPORT size_t aorta_utf8_valid_prefix(const void *data, size_t len, int *truncated,
                                            int *ascii);

/**
 * A count: a finite, non-negative, integral number not beyond INT64_MAX
 * (so "3.0" and "1e2" are counts, "1.9", "-1" and "1e19" are not).
 * @return 0 with *out set, or -1.
 */
AORTA_EXPORT int aorta_count_from_double(double value, int64_t *out);

/* ------------------------------------------------------------------------ */
/* Per-kernel totals (ABI 1.1)                                               */
/* ------------------------------------------------------------------------ */

/** Per-kernel totals of a parse, and the five metrics every collector that
 *  times kernels reports from them. */
typedef struct aorta_kernels aorta_kernels_t;

/** Flag of aorta_kernels_new(): sum the kernels' totals with Neumaier's
 *  compensation, as CPython >= 3.12 sum() does (rocprof's upstream sums
 *  with sum()).  Without it they are added one after the other in
 *  first-seen order, as a Python `total += t` loop does (Proton's). */
#define AORTA_KERNELS_SUM_COMPENSATED 1u

/** A new, empty accumulator with one open group; free with
 *  aorta_kernels_free().  NULL when @p flags holds an unknown bit. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_kernels_t *aorta_kernels_new(unsigned flags);
/**
 * Add one row: @p time (in the collector's unit, e.g. ns) and @p count
 * launches to the kernel named by the @p name_len bytes at @p name.  Names
 * are compared byte for byte, so a name holding NUL bytes is a kernel of its
 * own.  @p count < 0 means unknown: the kernel's launches, and so
 * <c>_kernel_count, become unknown.  Adds to the open group (see
 * aorta_kernels_end_file()), in the order rows arrive.
 * @return 0, or -1 (nothing added) when @p time is NaN or negative, or
 * @p name is NULL with a non-zero @p name_len.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int aorta_kernels_add(aorta_kernels_t *kernels, const char *name, size_t name_len,
                                   double time, int64_t count);
/** Close the open group and open a new one.  Each kernel's sum within a
 *  group is computed first and then added to its run total, groups in the
 *  order they were closed: call it after each file when upstream sums per
 *  file (Proton).  A collector that never calls it has one group, which is
 *  the same as adding every row to the run total directly (rocprof). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_kernels_end_file(aorta_kernels_t *kernels);
/** Number of distinct kernels (0 for NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 size_t aorta_kernels_count(const aorta_kernels_t *kernels);
/** Name of kernel @p index (first-seen order), borrowed until
 *  aorta_kernels_free() (later adds do not move it); NUL-terminated after
 *  its *@p len bytes (@p len may be NULL).  NULL, with *len 0, when out of
 *  range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 const char *aorta_kernels_name_at(const aorta_kernels_t *kernels, size_t index,
                                               size_t *len);
/** Total time of kernel @p index over all groups, the open one included
 *  (may be +infinity when finite rows overflow); NaN when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 double aorta_kernels_time_at(const aorta_kernels_t *kernels, size_t index);
/** Launches of kernel @p index, or -1 when one of its counts was unknown,
 *  their sum overflows int64, or @p index is out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int64_t aorta_kernels_launches_at(const aorta_kernels_t *kernels, size_t index);
/**
 * Report into @p metrics, for collector @p collector_name (<c> below):
 *   <c>_artifact_dir  = @p artifact_dir (first; skipped when NULL);
 * then, when there is at least one kernel and both the run's total and the
 * top kernel's total, divided by @p time_units_per_ms (1e6 for ns, 1 for
 * ms), are finite:
 *   <c>_kernel_count  = the sum of every kernel's launches, omitted when
 *                       any is unknown or the sum overflows int64;
 *   <c>_gpu_time_ms   = the kernels' totals summed in first-seen order;
 *   <c>_top_kernel_ms = the largest total;
 *   <c>_top_kernels   = the names of the (at most) five largest totals,
 *                       largest first, equal totals in first-seen order;
 *                       a name holding a NUL shows up to that NUL.
 * Otherwise only <c>_artifact_dir.  The open group counts.  Then the whole
 * table is attached to @p metrics (aorta_metrics_set_kernels()), whatever
 * the metrics were.
 * @return 0, or -1 when @p kernels, @p metrics or @p collector_name is NULL
 * or @p time_units_per_ms is not finite and positive (nothing reported),
 * or when the sink refused a key (outside its prefix).
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int aorta_kernels_report(const aorta_kernels_t *kernels, aorta_metrics_t *metrics,
                                      const char *collector_name, double time_units_per_ms,
                                      const char *artifact_dir);
/** Free @p kernels and its names; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_kernels_free(aorta_kernels_t *kernels);
/**
 * Attach a copy of @p kernels' whole table (every kernel: name, total,
 * launches, first-seen order) to @p metrics, totals divided by
 * @p time_units_per_ms, so in ms; replaces a table attached before.  The
 * five metrics name only the top kernels: this is how the host gets every
 * one.  aorta_kernels_report() calls it, so a collector reporting through
 * the accumulator need not.  The table is not a metric: the sink's count,
 * keys and order do not change.
 * @return 0, or -1 (nothing changed) when an argument is NULL or
 * @p time_units_per_ms is not finite and positive.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 int aorta_metrics_set_kernels(aorta_metrics_t *metrics,
                                           const aorta_kernels_t *kernels,
                                           double time_units_per_ms);
/** For hosts: the table attached to @p metrics (totals in ms, read it with
 *  aorta_kernels_count() and the *_at() accessors), borrowed until the sink
 *  is freed or given another; NULL when none was attached. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 const aorta_kernels_t *aorta_metrics_kernels(const aorta_metrics_t *metrics);

/* ------------------------------------------------------------------------ */
/* Per-dispatch trace (ABI 1.3)                                              */
/* ------------------------------------------------------------------------ */

/** The kernel dispatches of a parse, each with its track (the queue or
 *  stream it ran on), its kernel's name and its start and end: what
 *  aorta-run draws the trial's timeline from.  Only kernels, never copies. */
typedef struct aorta_dispatches aorta_dispatches_t;

/** The most dispatches one accumulator keeps (24 bytes each): later adds
 *  are dropped (they still return 0), counted (aorta_dispatches_dropped())
 *  and warned about once, through aorta_warn() as "libaorta". */
#define AORTA_DISPATCHES_MAX 500000u

/** Clocks of aorta_dispatches_set_clock(): what the timestamps count from.
 *  AORTA_CLOCK_HOST: a clock every process of one host shares (rocprof's
 *  are the host's monotonic clock); AORTA_CLOCK_SESSION: each process's
 *  own (Proton's Chrome trace counts from its session's start), so two
 *  processes' timestamps cannot be compared. */
#define AORTA_CLOCK_HOST 1
#define AORTA_CLOCK_SESSION 2

/** A new, empty trace of clock AORTA_CLOCK_SESSION; free with
 *  aorta_dispatches_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 aorta_dispatches_t *aorta_dispatches_new(void);
/**
 * Add one dispatch of the kernel named by the @p name_len bytes at @p name
 * (compared byte for byte, as aorta_kernels_add() does), on the track
 * named by the string @p track, from @p start_ns to @p end_ns, in the
 * capture's own clock.  Names and tracks are kept once each (interned), in
 * first-seen order; dispatches in the order they are added.
 * @return 0 (also when dropped past AORTA_DISPATCHES_MAX), or -1 with
 * errno EINVAL (nothing added) when @p dispatches or @p track is NULL,
 * @p name is NULL with a non-zero @p name_len, or @p end_ns < @p start_ns.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 int aorta_dispatches_add(aorta_dispatches_t *dispatches,
                                                              const char *track, const char *name,
                                                              size_t name_len, uint64_t start_ns,
                                                              uint64_t end_ns);
/** Say which clock the timestamps are of: AORTA_CLOCK_HOST or
 *  AORTA_CLOCK_SESSION.  @return 0, or -1 with errno EINVAL (nothing
 *  changed) for another value or a NULL @p dispatches. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 int aorta_dispatches_set_clock(aorta_dispatches_t *dispatches,
                                                                    int clock);
/** The clock set (AORTA_CLOCK_SESSION when none was); 0 for NULL. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 int aorta_dispatches_clock(const aorta_dispatches_t *dispatches);
/** Number of dispatches kept (0 for NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t aorta_dispatches_count(const aorta_dispatches_t *dispatches);
/** Number of dispatches dropped past AORTA_DISPATCHES_MAX (0 for NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t
aorta_dispatches_dropped(const aorta_dispatches_t *dispatches);
/** Number of distinct tracks (0 for NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t
aorta_dispatches_track_count(const aorta_dispatches_t *dispatches);
/** Track @p track's name (first-seen order), borrowed until
 *  aorta_dispatches_free(); NULL when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 const char *
aorta_dispatches_track_name(const aorta_dispatches_t *dispatches, size_t track);
/** Number of distinct kernel names (0 for NULL). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t
aorta_dispatches_name_count(const aorta_dispatches_t *dispatches);
/** Kernel name @p name (first-seen order), borrowed until
 *  aorta_dispatches_free(); NUL-terminated after its *@p len bytes (@p len
 *  may be NULL).  NULL, with *len 0, when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 const char *
aorta_dispatches_name(const aorta_dispatches_t *dispatches, size_t name, size_t *len);
/** Of dispatch @p index (in the order added): its track's number (for
 *  aorta_dispatches_track_name()); (size_t)-1 when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t
aorta_dispatches_track_at(const aorta_dispatches_t *dispatches, size_t index);
/** Of dispatch @p index: its kernel name's number (for
 *  aorta_dispatches_name()); (size_t)-1 when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 size_t
aorta_dispatches_name_at(const aorta_dispatches_t *dispatches, size_t index);
/** Of dispatch @p index: its start in ns; 0 when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 uint64_t
aorta_dispatches_start_at(const aorta_dispatches_t *dispatches, size_t index);
/** Of dispatch @p index: its end in ns; 0 when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 uint64_t
aorta_dispatches_end_at(const aorta_dispatches_t *dispatches, size_t index);
/** Free @p dispatches and its names; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 void aorta_dispatches_free(aorta_dispatches_t *dispatches);
/**
 * Attach a copy of @p dispatches (every dispatch, name and track, its
 * clock and its dropped count) to @p metrics; replaces a trace attached
 * before.  Like the kernel table it is not a metric: the sink's count, keys
 * and order do not change.
 * @return 0, or -1 with errno EINVAL (nothing changed) when an argument is
 * NULL.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 int aorta_metrics_set_dispatches(aorta_metrics_t *metrics,
                                                                      const aorta_dispatches_t *dispatches);
/** For hosts: the trace attached to @p metrics, borrowed until the sink is
 *  freed or given another; NULL when none was attached. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_3 const aorta_dispatches_t *
aorta_metrics_dispatches(const aorta_metrics_t *metrics);

/* ------------------------------------------------------------------------ */
/* Reading a profiler's output (ABI 1.4)                                     */
/* ------------------------------------------------------------------------ */

/** For parse(): the environment the trial's command ran with (the one
 *  wrap() saw: aorta-run's environment and the cell's variables), so a
 *  profiler found through a cell's PATH is found again when parsing;
 *  aorta-run's own environment under `aorta-run --parse`.  Borrowed, valid
 *  during the parse; NULL when the host attached none (then read your own
 *  environment). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 const aorta_env_t *
aorta_metrics_env(const aorta_metrics_t *metrics);
/** For hosts: attach a copy of @p env to @p metrics for
 *  aorta_metrics_env(); replaces one attached before; NULL detaches.
 *  @return 0, or -1 (nothing changed) when @p metrics is NULL. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 int aorta_metrics_set_env(aorta_metrics_t *metrics,
                                                               const aorta_env_t *env);

/** The most bytes aorta_exporter_run() keeps of a child's stderr for its
 *  message. */
#define AORTA_EXPORTER_STDERR_MAX 4096u

/**
 * Run a profiler's exporter (`ncu --import R --csv`, `nsys stats`) from a
 * parse and capture its stdout: @p argv[0] is looked up as aorta_which()
 * does in @p env's PATH (a name holding '/' is used as it is); the child
 * runs with exactly @p env (NULL: an empty environment), stdin from
 * /dev/null, in its own process group, and with an address space of its
 * own under the parse's limit (RLIMIT_AS passes through exec: aorta-run
 * sets AORTA_PARSE_MEMORY on its parse child).  It is killed (SIGKILL, its
 * whole group) after @p timeout_sec seconds (<= 0 or not finite: no limit)
 * or once its stdout passes @p max_output bytes.  On success *@p output
 * holds the stdout, NUL-terminated after its *@p output_len bytes (free
 * with aorta_free()).
 * @return the child's exit status (0-255; a status other than 0 also sets
 * in @p err "PROGRAM exited with status N: <its stderr's first line>"), or
 * -1 with *@p output NULL and the reason in @p err (may be NULL): not
 * found on PATH, could not start, timed out, killed by a signal, printed
 * more than @p max_output bytes, or an argument is NULL or @p argv empty.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 int
aorta_exporter_run(const aorta_argv_t *argv, const aorta_env_t *env, double timeout_sec,
                   size_t max_output, char **output, size_t *output_len, aorta_error_t *err);

/** A CSV reader over text held in memory (RFC 4180, as Python's csv
 *  module reads it with its defaults): fields are separated by ',', rows
 *  end at "\n" or "\r\n"; a field that starts with '"' is quoted and may
 *  hold commas, line breaks and doubled quotes ("" is one "); an empty line
 *  is a row of no fields.  A header row and a units row are rows like any
 *  other: the caller reads them first. */
typedef struct aorta_csv aorta_csv_t;
/** A reader of the @p len bytes at @p data, which it borrows (keep them
 *  until aorta_csv_free()); NULL when @p data is NULL with @p len > 0. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 aorta_csv_t *aorta_csv_new(const char *data, size_t len);
/** Read the next row.  @return 1 when a row was read, 0 at the end of the
 *  data, -1 when the row is malformed (a quote left open at the end of the
 *  data, or text after a closing quote): the row's fields are then what
 *  was read, and the next call goes on after it. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 int aorta_csv_next(aorta_csv_t *csv);
/** The number of fields of the row last read (0 before the first). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 size_t aorta_csv_field_count(const aorta_csv_t *csv);
/** Field @p index of the row last read, unquoted, borrowed until the next
 *  aorta_csv_next(); NUL-terminated after its *@p len bytes (@p len may be
 *  NULL; a field may hold NUL bytes).  NULL, with *len 0, out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 const char *aorta_csv_field(const aorta_csv_t *csv,
                                                                 size_t index, size_t *len);
/** The 1-based line of the data on which the row last read starts (0
 *  before the first), for messages. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 size_t aorta_csv_line(const aorta_csv_t *csv);
/** Free @p csv (not its data); NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 void aorta_csv_free(aorta_csv_t *csv);

/**
 * A number as profilers print them for people, from the @p len bytes at
 * @p text: aorta_number_parse()'s rules after surrounding whitespace is
 * stripped, except that the integer part may group its digits by
 * thousands with ',' ("1,234.5", "-12,345,678"; every group after the
 * first exactly three digits, the first one to three).  "n/a" and "N/A"
 * (and the empty text) are no number.
 * @return 0 with *@p out set; 1 for "n/a" or empty (*@p out untouched);
 * -1 when the text is not a number.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 int aorta_number_parse_grouped(const char *text, size_t len,
                                                                    double *out);

/**
 * How many milliseconds one @p unit is: "nsecond" and "ns" 1e-6, "usecond"
 * and "us" 1e-3, "msecond" and "ms" 1, "second" and "s" 1000 (Nsight
 * Compute's and the usual spellings; exact, case-sensitive).
 * @return 0 with *@p ms_per_unit set, or -1 for another unit or NULL.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_4 int aorta_unit_to_ms(const char *unit, double *ms_per_unit);

/* ------------------------------------------------------------------------ */
/* Warnings (ABI 1.1)                                                        */
/* ------------------------------------------------------------------------ */

/**
 * Receives each warning: @p source names who warns (a collector passes its
 * name), @p message is one line without a trailing newline; both are
 * borrowed for the call.  aorta-run prints "aorta-run: warning: SOURCE:
 * MESSAGE".
 */
typedef void (*aorta_warning_fn)(const char *source, const char *message, void *user);

/** For hosts: send every later aorta_warn() to @p fn, with @p user; NULL
 *  restores the default, which writes "warning: SOURCE: MESSAGE" and a
 *  newline to stderr ("warning: MESSAGE" when SOURCE is empty). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_warning_set_handler(aorta_warning_fn fn, void *user);
/** For collectors: warn (printf-style) as @p source, through the host's
 *  handler.  A NULL @p source is passed on as ""; a NULL @p fmt warns
 *  nothing.  Never write warnings to stderr yourself: the host owns how
 *  they look. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_warn(const char *source, const char *fmt, ...) AORTA_PRINTF(2, 3);

/* ------------------------------------------------------------------------ */
/* Making and reading handles (ABI 1.1): for hosts, and for the unit tests  */
/* of a collector, which call its callbacks the way aorta-run does.          */
/* ------------------------------------------------------------------------ */

/** A new, empty option map; free with aorta_options_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_options_t *aorta_options_new(void);
/** A copy of @p options (same entries, same order); free with aorta_options_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_options_t *aorta_options_dup(const aorta_options_t *options);
/** Free @p options and every string it holds; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_options_free(aorta_options_t *options);

/** A new, empty argv; free with aorta_argv_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_argv_t *aorta_argv_new(void);
/** An argv holding copies of the @p count strings at @p items (NULL items
 *  are skipped; NULL @p items is an empty argv). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_argv_t *aorta_argv_from(char *const *items, size_t count);
/** A copy of @p argv. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_argv_t *aorta_argv_dup(const aorta_argv_t *argv);
/** Free @p argv and its strings; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_argv_free(aorta_argv_t *argv);
/** The arguments as a NULL-terminated array, ready for execve(); borrowed,
 *  valid until @p argv changes or is freed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 char *const *aorta_argv_items(const aorta_argv_t *argv);

/** A new, empty environment; free with aorta_env_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_env_t *aorta_env_new(void);
/** The variables of a "NAME=VALUE" array such as environ, in its order;
 *  entries without '=' or with an empty NAME are skipped, and of a repeated
 *  NAME the first definition wins, as getenv() sees it. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_env_t *aorta_env_from_environ(char *const *envp);
/** A copy of @p env. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_env_t *aorta_env_dup(const aorta_env_t *env);
/** Remove @p name if set. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_env_unset(aorta_env_t *env, const char *name);
/** A NULL-terminated "NAME=VALUE" array of @p env, in its order; the caller
 *  owns it: free with aorta_env_free_envp(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 char **aorta_env_to_envp(const aorta_env_t *env);
/** Free what aorta_env_to_envp() returned; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_env_free_envp(char **envp);
/** Free @p env; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_env_free(aorta_env_t *env);

/** The type of one reported metric. */
typedef enum aorta_metric_type {
    AORTA_METRIC_INT,
    AORTA_METRIC_DOUBLE,
    AORTA_METRIC_STRING,
    AORTA_METRIC_STRINGS
} aorta_metric_type_t;

/** One metric as the sink holds it: read it, never write or free it, and
 *  never allocate one (fields may be appended in a later minor version).
 *  Only the field of its type is meaningful. */
typedef struct aorta_metric {
    char *key;
    aorta_metric_type_t type;
    int64_t int_value;            /**< AORTA_METRIC_INT */
    double double_value;          /**< AORTA_METRIC_DOUBLE (always finite) */
    char *string_value;           /**< AORTA_METRIC_STRING */
    char **strings;               /**< AORTA_METRIC_STRINGS: string_count items */
    size_t string_count;
    /** @since ABI 1.1: the byte length of each of strings[] (an item may
     *  hold NUL bytes when set by aorta_metrics_set_strings_n(); each is
     *  still NUL-terminated after its length). */
    size_t *string_lengths;
} aorta_metric_t;

/** A sink that accepts only keys that start with @p prefix and are longer
 *  than it (NULL: any non-empty key; aorta-run passes "<name>_");
 *  free with aorta_metrics_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_metrics_t *aorta_metrics_new(const char *prefix);
/** Number of metrics, in the order they were first set. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 size_t aorta_metrics_count(const aorta_metrics_t *metrics);
/** Metric @p index, borrowed until the sink changes; NULL when out of range. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 const aorta_metric_t *aorta_metrics_at(const aorta_metrics_t *metrics, size_t index);
/** The metric called @p key, borrowed until the sink changes, or NULL. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 const aorta_metric_t *aorta_metrics_find(const aorta_metrics_t *metrics,
                                                      const char *key);
/** Free @p metrics and everything it holds; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_metrics_free(aorta_metrics_t *metrics);

/** A new error context with no message; free with aorta_error_free(). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 aorta_error_t *aorta_error_new(void);
/** Forget the message, so the context can be passed to another callback. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_error_clear(aorta_error_t *err);
/** Free @p err; NULL is allowed. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_1 void aorta_error_free(aorta_error_t *err);

/* ------------------------------------------------------------------------ */
/* A collector's metric table (ABI 1.2): for hosts, and for the unit tests   */
/* of a collector, which hold its table to these rules.                      */
/* ------------------------------------------------------------------------ */

/** The number of rows of @p collector's metric table (the row ending it not
 *  counted): 0 when it has none, when @p collector is NULL, or when its
 *  abi_minor is older than 2, whose `reserved` space is never read. */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_2 size_t
aorta_collector_metric_count(const struct aorta_collector *collector);
/** Row @p index of the table, borrowed from the collector; NULL when out of
 *  range (past aorta_collector_metric_count()). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_2 const aorta_metric_spec_t *
aorta_collector_metric_at(const struct aorta_collector *collector, size_t index);
/**
 * Whether row @p index declares something.  It does when its key starts
 * with the collector's name and '_' and is longer, no earlier row has that
 * key, its better is one of AORTA_BETTER_NONE, _LOWER and _HIGHER, and its
 * unit and help, when set, are UTF-8 (aorta_utf8_valid_prefix()'s rules)
 * holding no control character (U+0000-U+001F, U+007F-U+009F).
 * @return 0, or -1 with the reason in @p err (may be NULL) naming the row
 * and its key, quoted as aorta_text_repr() quotes ("metric row 2
 * 'other_x': not named mine_* (a key is the whole metric name)"), also when
 * @p index is out of range or @p collector is NULL.
 */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_2 int
aorta_collector_metric_check(const struct aorta_collector *collector, size_t index,
                             aorta_error_t *err);
/** The row that declares metric @p key: the first row with that key, when
 *  aorta_collector_metric_check() accepts it; NULL when the metric is
 *  undeclared (no such row, a refused row, a NULL argument). */
AORTA_EXPORT AORTA_AVAILABLE_IN_1_2 const aorta_metric_spec_t *
aorta_collector_metric_find(const struct aorta_collector *collector, const char *key);

/* ------------------------------------------------------------------------ */
/* The entry point                                                           */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
#define AORTA_EXTERN_C extern "C"
#else
#define AORTA_EXTERN_C
#endif

/* In C++, g++ warns about each field a designated initializer leaves out;
 * the descriptor leaves them out on purpose (zero is "absent"). */
#if defined(__cplusplus) && defined(__GNUC__)
#define AORTA_DEFINE_BEGIN_                                                      \
    _Pragma("GCC diagnostic push")                                               \
        _Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")
#define AORTA_DEFINE_END_ _Pragma("GCC diagnostic pop")
#else
#define AORTA_DEFINE_BEGIN_
#define AORTA_DEFINE_END_
#endif

/**
 * Define collector NAME: give the remaining fields of struct aorta_collector
 * as designated initializers (in C++, in the struct's order), e.g.
 *
 *   AORTA_COLLECTOR_DEFINE(peakrss,
 *       .version = "1.0", .description = "...", .wrap_rank = 30,
 *       .options = peakrss_options, .validate = peakrss_validate,
 *       .wrap = peakrss_wrap, .parse = peakrss_parse,
 *       .metrics = peakrss_metrics)
 *
 * It stamps abi_major and abi_minor (AORTA_COLLECTOR_ABI_TARGET) and the
 * name.  The module must be named NAME.so (NAME.la under libtool).
 */
#define AORTA_COLLECTOR_DEFINE(NAME, ...)                                        \
    AORTA_DEFINE_BEGIN_                                                          \
    static const struct aorta_collector aorta_collector_##NAME##_desc = {       \
        .abi_major = AORTA_COLLECTOR_ABI_MAJOR,                                  \
        .abi_minor = AORTA_COLLECTOR_ABI_TARGET,                                 \
        .name = #NAME,                                                           \
        __VA_ARGS__};                                                            \
    AORTA_DEFINE_END_                                                            \
    AORTA_EXTERN_C AORTA_EXPORT const struct aorta_collector                     \
        *aorta_collector_##NAME##_get(void);                                     \
    AORTA_EXTERN_C AORTA_EXPORT const struct aorta_collector                     \
        *aorta_collector_##NAME##_get(void)                                      \
    {                                                                            \
        return &aorta_collector_##NAME##_desc;                                   \
    }

#ifdef __cplusplus
}
#endif

#endif /* AORTA_COLLECTOR_H */
