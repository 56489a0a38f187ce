/* SPDX-License-Identifier: MIT */
/* wrap_cli.c - mode cli: `<python> [flags] script.py args` becomes
 * `<python> [flags] -m triton.profiler.proton -n <out>/proton ... script.py
 * args` (docs/collectors/proton.md).
 *
 * Proton's front-end runs a *script* (runpy.run_path) or, for a target named
 * pytest, pytest.main(args); it is not a generic command runner.  So only
 * those launches are wrapped, and every other shape is refused with the way
 * out (mode: env) rather than run unprofiled. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proton.h"

/* Interpreter flags that take no argument and can stay before -m. */
static const char *const safe_flags[] = {"-B", "-E", "-I", "-O", "-OO", "-S",
                                         "-b", "-q", "-s", "-u", NULL};

/* Where the parts of an accepted launch are in the command. */
typedef struct launch {
    size_t flags_end;      /* interpreter flags are command[1, flags_end) */
    int pytest_module;     /* `python -m pytest`: the target is "pytest" + ... */
    size_t target_start;   /* ... command[target_start, count) */
} launch_t;

static int is_safe_flag(const char *arg)
{
    for (size_t i = 0; safe_flags[i]; i++)
        if (strcmp(safe_flags[i], arg) == 0)
            return 1;
    return 0;
}

static size_t count_of(const char *const *items)
{
    size_t n = 0;
    while (items[n])
        n++;
    return n;
}

static int refuse(aorta_error_t *err, cc_buf_t *msg)
{
    char *text = cc_buf_take(msg);
    aorta_error_set(err, "%s", text);
    free(text);
    return -1;
}

/* repr() of the whole command, as upstream's messages show it. */
static void add_command(cc_buf_t *msg, const aorta_argv_t *command)
{
    size_t n = aorta_argv_count(command);
    const char **items = cc_xmalloc((n ? n : 1) * sizeof *items);
    for (size_t i = 0; i < n; i++)
        items[i] = aorta_argv_at(command, i);
    cc_buf_add_repr_list(msg, items, n);
    free(items);
}

/* `-m <module>`: only pytest has an equivalent Proton can run. */
static int module_target(const aorta_argv_t *command, const char *module, launch_t *launch,
                         aorta_error_t *err)
{
    cc_buf_t msg = {0};
    if (!module[0]) {
        cc_buf_adds(&msg, "proton mode 'cli' saw '-m' with no module name in ");
        add_command(&msg, command);
        cc_buf_adds(&msg, ". Name the script to run after the interpreter, or use "
                          "'proton: {mode: env}'.");
        return refuse(err, &msg);
    }
    if (strcmp(module, "pytest") != 0) {
        cc_buf_addf(&msg,
                        "proton mode 'cli' cannot wrap 'python -m %s'. Proton's front-end runs "
                        "its target through runpy.run_path, which resolves a script path and "
                        "not a module name; the only module it also accepts is ['pytest']. "
                        "Invoke the module's script by path, or use 'proton: {mode: env}'.",
                        module);
        return refuse(err, &msg);
    }
    launch->pytest_module = 1;
    return 0;
}

static int split_launch(const aorta_argv_t *command, launch_t *launch, aorta_error_t *err)
{
    const char *argv0 = aorta_argv_at(command, 0);
    size_t count = aorta_argv_count(command);
    cc_buf_t msg = {0};
    *launch = (launch_t){.flags_end = 1, .pytest_module = 0, .target_start = 0};
    char *base = proton_basename(argv0);
    int pytest = strcmp(base, "pytest") == 0;
    free(base);
    if (pytest)
        return 0; /* the whole command is the target, argv[0] as given */
    if (!proton_is_python(argv0)) {
        cc_buf_adds(&msg, "proton mode 'cli' needs a Python script launch, got ");
        cc_buf_add_repr(&msg, argv0, strlen(argv0));
        cc_buf_adds(&msg, ". Proton's command front-end executes a script, not an arbitrary "
                              "command. Either invoke the workload as '<python> <script.py> "
                              "...', or switch the recipe to 'proton: {mode: env}' and have the "
                              "workload call proton.start()/finalize() itself.");
        return refuse(err, &msg);
    }
    for (size_t i = 1; i < count; i++) {
        const char *arg = aorta_argv_at(command, i);
        if (is_safe_flag(arg))
            continue;
        launch->flags_end = i;
        /* -m before the generic option check: a module launch is a target. */
        if (strcmp(arg, "-m") == 0) {
            launch->target_start = i + 2 < count ? i + 2 : count;
            return module_target(command, i + 1 < count ? aorta_argv_at(command, i + 1) : "",
                                 launch, err);
        }
        if (strncmp(arg, "-m", 2) == 0) {
            launch->target_start = i + 1;
            return module_target(command, arg + 2, launch, err);
        }
        if (arg[0] == '-') {
            cc_buf_adds(&msg, "proton mode 'cli' cannot wrap interpreter option ");
            cc_buf_add_repr(&msg, arg, strlen(arg));
            cc_buf_adds(&msg, " (supported: ");
            cc_buf_add_repr_list(&msg, safe_flags, count_of(safe_flags));
            cc_buf_adds(&msg, ", plus '-m' with ['pytest']). Invoke the script directly, or "
                                  "use 'proton: {mode: env}'.");
            return refuse(err, &msg);
        }
        launch->target_start = i; /* the script; nothing after it is read */
        return 0;
    }
    cc_buf_adds(&msg, "proton mode 'cli' needs a script path after the interpreter; got ");
    add_command(&msg, command);
    cc_buf_adds(&msg, ". Add the script ('<python> <script.py> ...'), or use "
                      "'proton: {mode: env}'.");
    return refuse(err, &msg);
}

int proton_wrap_cli(const proton_opts_t *opts, const char *out_dir, const aorta_argv_t *command,
                    const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err)
{
    /* Checked before the shape: an unwrappable argv at least stops the trial,
     * while this pin exits 0 with an empty profile. */
    if (strcmp(opts->backend, "roctracer") == 0) {
        aorta_error_set(err,
                        "proton mode 'cli' cannot pin backend 'roctracer'. Proton's command "
                        "front-end calls _select_backend() only when '-b' is absent, and that "
                        "call is what initialises the GPU runtime, so roctracer's interceptor "
                        "is installed before the first HSA queue exists and records nothing: "
                        "the profile comes back as an empty ROOT frame and the trial reports "
                        "no proton metrics while exiting 0. Use 'proton: {mode: env}' with a "
                        "payload that calls proton.start() after the runtime is up (see "
                        PROTON_ROCTRACER_EXAMPLE "), or leave 'backend: auto', which omits '-b' and "
                        "is unaffected. This applies to roctracer only -- rocprofiler "
                        "configures itself when libproton loads, so its CLI pin is allowed.");
        return -1;
    }
    launch_t launch;
    if (split_launch(command, &launch, err) != 0)
        return -1;
    char *python = proton_resolve_python(command, env, err);
    if (!python)
        return -1;
    if (proton_env_prefix(opts->backend, env, NULL, out, err) != 0) {
        free(python);
        return -1;
    }
    aorta_argv_push(out, python);
    free(python);
    /* Interpreter flags belong to the interpreter: before -m. */
    for (size_t i = 1; i < launch.flags_end; i++)
        aorta_argv_push(out, aorta_argv_at(command, i));
    aorta_argv_push(out, "-m");
    aorta_argv_push(out, PROTON_MODULE);
    char *name = aorta_path_join(out_dir, PROTON_PROFILE_STEM);
    aorta_argv_push(out, "-n");
    aorta_argv_push(out, name);
    aorta_free(name);
    /* auto: no -b, so Proton's own _select_backend() picks. */
    if (strcmp(opts->backend, "auto") != 0) {
        aorta_argv_push(out, "-b");
        aorta_argv_push(out, opts->backend);
    }
    aorta_argv_push(out, "--context");
    aorta_argv_push(out, opts->context);
    aorta_argv_push(out, "--data");
    aorta_argv_push(out, opts->data);
    char *mode = proton_mode_argument(opts);
    if (mode) {
        /* The long form: Proton's -m would read like Python's. */
        aorta_argv_push(out, "--mode");
        aorta_argv_push(out, mode);
        free(mode);
    }
    if (opts->hook) {
        aorta_argv_push(out, "-k");
        aorta_argv_push(out, opts->hook);
    }
    /* No "--": Proton takes the rest with argparse.REMAINDER. */
    if (launch.pytest_module)
        aorta_argv_push(out, "pytest");
    aorta_argv_push_from(out, command, launch.target_start);
    return 0;
}
