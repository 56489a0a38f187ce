/* SPDX-License-Identifier: MIT */
/* proton.h - what the files of the Proton collector share.  The module is
 * compiled with hidden visibility: nothing here leaves proton.so, only the
 * entry symbol that AORTA_COLLECTOR_DEFINE exports. */
#ifndef AORTA_PROTON_H
#define AORTA_PROTON_H

#include <stdarg.h>
#include <stddef.h>

#include "aorta/collector.h"
#include "collector_common.h"

/* Proton's CLI front-end module, and the profile stem inside the output
 * directory (Proton appends ".hatchet" for data: tree). */
#define PROTON_MODULE "triton.profiler.proton"
#define PROTON_PROFILE_STEM "proton"
#define PROTON_PYTHON_VAR "AORTA_PROTON_PYTHON"
/* The mode: env example that pins roctracer, for the message that points at it. */
#define PROTON_ROCTRACER_EXAMPLE "examples/profiling/proton/amd-roctracer"

/* ---- util.c: small path/env helpers (allocation and the text buffer are
 * plugins/common's) ---- */

/* Last path component the way pathlib's PurePosixPath(text).name reads it. */
char *proton_basename(const char *path);

/* Value of name in env, or NULL; a NULL env has no variables. */
const char *proton_env_lookup(const aorta_env_t *env, const char *name);

/* ---- float_str.c: Python's str() of a float, for names ------------------- */

/* str(value) of a Python float: "1.5", "100.0", "1e+16", "nan", "-inf". */
char *proton_float_str(double value);

/* ---- options.c: the eight options --------------------------------------- */

extern const aorta_option_spec_t proton_option_table[];

/* The effective options, borrowed from the map (defaults where absent). */
typedef struct proton_opts {
    const char *mode;                 /* "cli" or "env" */
    const char *backend;              /* "auto", "cupti", ... */
    const char *backend_mode;         /* NULL when unset */
    const char *context;
    const char *data;
    const char *instrumentation_mode; /* NULL when unset */
    const char *granularity;          /* NULL when unset */
    const char *hook;                 /* NULL when unset */
} proton_opts_t;

int proton_validate(aorta_options_t *options, aorta_error_t *err);
void proton_opts_read(const aorta_options_t *options, proton_opts_t *out);
/* Proton's single --mode value (docs/collectors/proton.md), or NULL when there is none. */
char *proton_mode_argument(const proton_opts_t *opts);
/* The exclusive resources Proton may take (ABI 1.4): an HSA queue
 * interceptor (backends auto, rocprofiler, roctracer on AMD) and CUPTI's
 * subscriber (backends auto, cupti on NVIDIA); whether these options take
 * one, with the phrase and remedy of the refusal. */
extern const char *const proton_resources[];
int proton_takes(const aorta_options_t *options, const char *resource, aorta_error_t *why,
                 aorta_error_t *remedy);

/* ---- vars.c: a small sorted NAME=VALUE list ---------------------------- */

typedef struct proton_var {
    char *name;
    char *value;
} proton_var_t;

typedef struct proton_vars {
    proton_var_t *items;   /* sorted by name, byte order */
    size_t count;
    size_t cap;
} proton_vars_t;

/* Set name (replacing an earlier value), keeping the list sorted. */
void proton_vars_set(proton_vars_t *vars, const char *name, const char *value);
/* Set name only when it is not there yet. */
void proton_vars_setdefault(proton_vars_t *vars, const char *name, const char *value);
const char *proton_vars_get(const proton_vars_t *vars, const char *name);
void proton_vars_free(proton_vars_t *vars);

/* ---- env_bundle.c: mode env and the env callback ------------------------ */

/* The AORTA_PROTON_* bundle (docs/collectors/proton.md) for out_dir. */
void proton_bundle_build(const proton_opts_t *opts, const char *out_dir, proton_vars_t *bundle);
int proton_env(const aorta_options_t *options, const char *out_dir, aorta_env_t *bundle,
               aorta_error_t *err);
int proton_wrap_env(const proton_opts_t *opts, const char *out_dir, const aorta_argv_t *command,
                    const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err);

/* ---- devices.c: HIP/CUDA -> ROCR translation and the env(1) prefix ------ */

/* Push onto out the env(1) prefix carrying assignments (may be NULL) plus
 * the device translation of docs/collectors/proton.md; nothing when there is nothing to
 * carry.  -1 with err set when env(1) is needed and not on the PATH. */
int proton_env_prefix(const char *backend, const aorta_env_t *env,
                      const proton_vars_t *assignments, aorta_argv_t *out, aorta_error_t *err);

/* ---- wrap_cli.c / interpreter.c: mode cli ------------------------------- */

int proton_wrap_cli(const proton_opts_t *opts, const char *out_dir, const aorta_argv_t *command,
                    const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err);
/* Whether a path's last component names a Python interpreter
 * (^python(\d+(\.\d+)?)?$, ASCII digits). */
int proton_is_python(const char *path);
/* The interpreter that runs Proton's front-end for command (docs/collectors/proton.md with
 * docs/design.md, Deviation 1); NULL with err set when there is none.  Free it. */
char *proton_resolve_python(const aorta_argv_t *command, const aorta_env_t *env,
                            aorta_error_t *err);

/* ---- parse.c: the .hatchet summary -------------------------------------- */

void proton_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics);

#endif
