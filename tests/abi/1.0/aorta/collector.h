/*
 * aorta/collector.h - the one header a collector (profiler module) needs.
 *
 * A collector is a shared module (rocprof.so, proton.so, ...) that aorta-run
 * loads from its module search path.  The module exports exactly one symbol,
 * aorta_collector_<name>_get(), where <name> is the module's file stem; the
 * AORTA_COLLECTOR_DEFINE() macro at the bottom writes it.  It returns a
 * struct aorta_collector describing the collector and its callbacks.
 *
 * VERSION POLICY
 *   AORTA_COLLECTOR_ABI_MAJOR / _MINOR describe the layout of
 *   struct aorta_collector and the meaning of every function in this header.
 *   - A new field is added only by taking it from the end of `reserved`
 *     (the struct's size never changes) and bumping the MINOR version.  A
 *     collector built against an older minor leaves the new field NULL/0, and
 *     the core treats NULL as "use the default".
 *   - A new accessor function may be added with a MINOR bump.
 *   - Anything else (reordering, retyping or removing a field, changing what
 *     a function means) bumps the MAJOR version.
 *   The loader accepts a collector when its abi_major equals the core's and
 *   its abi_minor is not newer than the core's.
 *
 * OWNERSHIP
 *   Every handle a callback receives is owned by the core and is valid only
 *   for the duration of that callback.  Strings returned by accessors are
 *   borrowed (valid until the handle changes or the callback returns) unless
 *   the function says "free with aorta_free()".  Strings passed in are always
 *   copied; the caller keeps ownership of its arguments.
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
#define AORTA_COLLECTOR_ABI_MINOR 0

#if defined(__GNUC__)
#define AORTA_EXPORT __attribute__((visibility("default")))
#define AORTA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define AORTA_EXPORT
#define AORTA_PRINTF(fmt, args)
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

struct aorta_collector {
    uint32_t abi_major;              /**< AORTA_COLLECTOR_ABI_MAJOR at build time */
    uint32_t abi_minor;              /**< AORTA_COLLECTOR_ABI_MINOR at build time */
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
     * empty).  @p environ is the environment the command will run with.
     * @p options are the effective options validate() produced.
     * @return 0, or -1 with a message in @p err when the command cannot be
     * profiled (the trial is then a setup failure, never an unprofiled run).
     */
    int (*wrap)(const aorta_options_t *options, const char *out_dir,
                const aorta_argv_t *command, const aorta_env_t *environ,
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
     * existing directory.  Runs in a child process.
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
     * Optional.  Whether, with these options, the collector installs an HSA
     * queue interceptor.  When it does, it may write into @p why a phrase
     * naming the cause (e.g. "proton backend 'auto' (which resolves to ...)")
     * and into @p remedy a sentence saying how to avoid it; both are
     * NUL-terminated and truncated to their sizes.  The core refuses any two
     * interceptors together.  Default: no.
     * @return 1 if it intercepts, 0 if not.
     */
    int (*queue_interceptor)(const aorta_options_t *options,
                             char *why, size_t why_size,
                             char *remedy, size_t remedy_size);

    /** Room to grow without changing the size (see VERSION POLICY). */
    void *reserved[16];
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
 *  @return 0, or -1 when out of memory. */
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

/* ------------------------------------------------------------------------ */
/* Argument vector                                                           */
/* ------------------------------------------------------------------------ */

/** Number of arguments. */
AORTA_EXPORT size_t aorta_argv_count(const aorta_argv_t *argv);
/** Argument @p index, borrowed; NULL when out of range. */
AORTA_EXPORT const char *aorta_argv_at(const aorta_argv_t *argv, size_t index);
/** Append a copy of @p arg.  @return 0, or -1 when out of memory. */
AORTA_EXPORT int aorta_argv_push(aorta_argv_t *argv, const char *arg);
/** Append copies of every argument of @p from.  @return 0 or -1. */
AORTA_EXPORT int aorta_argv_push_all(aorta_argv_t *argv, const aorta_argv_t *from);
/** Append copies of @p from's arguments [start, count).  @return 0 or -1. */
AORTA_EXPORT int aorta_argv_push_from(aorta_argv_t *argv, const aorta_argv_t *from, size_t start);

/* ------------------------------------------------------------------------ */
/* Environment                                                               */
/* ------------------------------------------------------------------------ */

/** Value of @p name, borrowed, or NULL when not set ("" is set and empty). */
AORTA_EXPORT const char *aorta_env_get(const aorta_env_t *env, const char *name);
/** Set @p name to @p value (both copied).  @return 0 or -1. */
AORTA_EXPORT int aorta_env_set(aorta_env_t *env, const char *name, const char *value);
/** Number of variables, and each one in insertion order (borrowed). */
AORTA_EXPORT size_t aorta_env_count(const aorta_env_t *env);
AORTA_EXPORT const char *aorta_env_name_at(const aorta_env_t *env, size_t index);
AORTA_EXPORT const char *aorta_env_value_at(const aorta_env_t *env, size_t index);

/* ------------------------------------------------------------------------ */
/* Metrics sink (parse)                                                      */
/* ------------------------------------------------------------------------ */

/* Each setter copies its arguments; setting a key twice replaces the value
 * but keeps its first position.  @return 0, or -1 when out of memory or when
 * a double is not finite (non-finite numbers are never reported). */
AORTA_EXPORT int aorta_metrics_set_int(aorta_metrics_t *metrics, const char *key, int64_t value);
AORTA_EXPORT int aorta_metrics_set_double(aorta_metrics_t *metrics, const char *key, double value);
AORTA_EXPORT int aorta_metrics_set_string(aorta_metrics_t *metrics, const char *key, const char *value);
AORTA_EXPORT int aorta_metrics_set_strings(aorta_metrics_t *metrics, const char *key,
                                           const char *const *values, size_t count);

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
 * leading slashes are kept, and an empty result is ".".
 * Free with aorta_free(); NULL only when out of memory.
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
 * the Unicode version core/printable.py was run with (14.0, Python 3.11).
 * NUL bytes are allowed.  Free with aorta_free(); NULL only when out of memory.
 */
AORTA_EXPORT char *aorta_text_repr(const char *text, size_t len);

/**
 * Python's repr() of a list of @p count NUL-terminated texts: "['a', 'b']",
 * each item quoted as aorta_text_repr() does, "[]" when @p count is 0.
 * Free with aorta_free(); NULL only when out of memory.
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
/* The entry point                                                           */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
#define AORTA_EXTERN_C extern "C"
#else
#define AORTA_EXTERN_C
#endif

/**
 * Define collector NAME: give the remaining fields of struct aorta_collector
 * as designated initializers, e.g.
 *
 *   AORTA_COLLECTOR_DEFINE(rocprof,
 *       .version = "1.0", .description = "...", .wrap_rank = 10,
 *       .options = rocprof_options, .validate = rocprof_validate,
 *       .wrap = rocprof_wrap, .parse = rocprof_parse)
 *
 * The module must be named NAME.so (NAME.la under libtool).
 */
#define AORTA_COLLECTOR_DEFINE(NAME, ...)                                        \
    static const struct aorta_collector aorta_collector_##NAME##_desc = {       \
        .abi_major = AORTA_COLLECTOR_ABI_MAJOR,                                  \
        .abi_minor = AORTA_COLLECTOR_ABI_MINOR,                                  \
        .name = #NAME,                                                           \
        __VA_ARGS__};                                                            \
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
