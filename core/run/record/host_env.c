/* SPDX-License-Identifier: MIT */
/* host_env.c - the run's environment snapshot (upstream schema "1.6"). */
#include "config.h"

#include "record/host_env.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sys/clock.h"
#include "sys/envp.h"
#include "sys/knobs.h"
#include "sys/spawn.h"
#include "xalloc.h"

#define SMALL_FILE_MAX 4096
#define TRITON_PROBE_GRACE_SEC 1.0

/* Device selection, runtime and profiler variables: value or null. */
static const char *const snapshot_vars[] = {
    "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL", "HSA_OVERRIDE_GFX_VERSION", "HSA_TOOLS_LIB", "HIP_LAUNCH_BLOCKING",
    "AMD_LOG_LEVEL", "AMD_SERIALIZE_KERNEL", "ROCM_PATH", "ROCPROF_BIN", "AORTA_PROTON_PYTHON",
    "LD_PRELOAD", "RANK", "LOCAL_RANK", "WORLD_SIZE",
    NULL,
};

/* Blocks of upstream's snapshot this tool does not probe. */
static const char *const null_blocks_before_host[] = {
    "hip", "hipblaslt", "rocblas", "miopen", "rccl", "gpu_arch", "nics", NULL,
};
static const char *const null_blocks_before_triton[] = {"composable_kernel", "tensile", NULL};
static const char *const null_blocks_before_runtime[] = {"fbgemm", "aiter", "aotriton", NULL};
static const char *const null_blocks_last[] = {"python_version", "pytorch_version",
                                               "pytorch_build", NULL};

/* The first line of a small text file, stripped; NULL when absent or empty. */
static char *first_line_fd(int fd)
{
    char buffer[SMALL_FILE_MAX + 1];
    size_t have = 0;
    while (have < SMALL_FILE_MAX) {
        ssize_t got = read(fd, buffer + have, SMALL_FILE_MAX - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        have += (size_t)got;
    }
    buffer[have] = '\0';
    char *end = strchr(buffer, '\n');
    if (end)
        *end = '\0';
    size_t len = 0;
    const char *text = aorta_text_strip(buffer, strlen(buffer), &len);
    return len ? ar_xstrndup(text, len) : NULL;
}

static char *first_line(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    char *line = first_line_fd(fd);
    close(fd);
    return line;
}

char *ar_host_env_ask(char *const *argv, double timeout_sec)
{
    FILE *capture = tmpfile();
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    ar_spawn_child_t child;
    ar_spawn_result_t result;
    char *line = NULL;
    if (capture && null_fd >= 0
        && ar_spawn_start_fds(argv, environ, fileno(capture), null_fd, &child, &result) == 0
        && result.launched) {
        ar_spawn_wait(&child, timeout_sec, TRITON_PROBE_GRACE_SEC, &result);
        if (!result.interrupted && !result.timed_out && result.exit_code == 0) {
            lseek(fileno(capture), 0, SEEK_SET);
            line = first_line_fd(fileno(capture));
        }
        /* The interrupt belongs to the sweep, as the probe's does. */
        if (result.interrupted)
            raise(result.interrupted);
    }
    if (null_fd >= 0)
        close(null_fd);
    if (capture)
        fclose(capture);
    return line;
}

static ar_json_t *string_or_null(char *text)
{
    ar_json_t *value = text ? ar_json_string(text) : NULL;
    free(text);
    return value;
}

int ar_host_env_is_python(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    if (strncmp(base, "python", 6) != 0)
        return 0;
    for (const char *c = base + 6; *c; c++)
        if (!((*c >= '0' && *c <= '9') || *c == '.'))
            return 0;
    return 1;
}

double ar_host_env_probe_timeout(void)
{
    return ar_knob_seconds("AORTA_PROBE_TIMEOUT", AR_PROBE_TIMEOUT_DEFAULT, 0);
}

struct ar_host_env {
    ar_json_t *snapshot;  /* complete once the probe is done */
    ar_json_t *reasons;   /* partial_reasons, the probe's still to come */
    ar_json_t *triton;    /* the block the probe fills */
    const char *python;      /* the interpreter asked, or NULL */
    ar_spawn_child_t probe;
    ar_spawn_result_t result;
    FILE *capture;           /* the probe's stdout */
    double timeout;
    int done;
};

/* Ask the payload's interpreter for triton.__version__ and return: it runs
 * beside the first trial (a Python start with Triton's import is most of a
 * run's own cost otherwise).  Sets a reason when it cannot start. */
static char *start_triton_probe(ar_host_env_t *env, char *const *envp)
{
    char *argv[] = {(char *)env->python, "-c", "import triton; print(triton.__version__)", NULL};
    env->capture = tmpfile();
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    env->timeout = ar_host_env_probe_timeout();
    char *reason = NULL;
    if (!env->capture || null_fd < 0
        || ar_spawn_start_fds(argv, envp, fileno(env->capture), null_fd, &env->probe,
                                 &env->result)
               != 0) {
        env->probe.pid = -1;
        reason = ar_xasprintf("triton: could not run %s: %s", env->python, strerror(errno));
    } else if (!env->result.launched) {
        reason = ar_xasprintf("triton: cannot execute %s: %s", env->python,
                                 strerror(env->result.exec_errno));
    }
    if (null_fd >= 0)
        close(null_fd);
    return reason;
}

/* The probe's answer: the version, or NULL with *reason set. */
static char *finish_triton_probe(ar_host_env_t *env, int stop, char **reason)
{
    const char *python = env->python;
    ar_spawn_result_t *result = &env->result;
    if (stop)
        ar_spawn_stop(&env->probe, TRITON_PROBE_GRACE_SEC, result);
    else
        ar_spawn_wait(&env->probe, env->timeout, TRITON_PROBE_GRACE_SEC, result);
    char *version = NULL;
    if (stop || result->interrupted) {
        *reason = ar_xasprintf("triton: the probe of %s was interrupted", python);
    } else if (result->timed_out) {
        *reason = ar_xasprintf("triton: %s did not answer within %g s", python, env->timeout);
    } else if (result->exit_code != 0) {
        *reason = ar_xasprintf("triton: %s cannot import triton (exit %d)", python,
                                  result->exit_code);
    } else {
        lseek(fileno(env->capture), 0, SEEK_SET);
        version = first_line_fd(fileno(env->capture));
        if (!version)
            *reason = ar_xasprintf("triton: %s printed no version", python);
    }
    /* The interrupt belongs to the sweep: left pending for it, so it stops
     * as it would have without the probe. */
    if (result->interrupted)
        raise(result->interrupted);
    return version;
}

static void add_nulls(ar_json_t *obj, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        ar_json_set(obj, names[i], NULL);
}

/* The rocm block: the version files of $ROCM_PATH (else /opt/rocm) and the
 * driver's; a reason into reasons when there is no version file. */
static ar_json_t *rocm_block(char *const *envp, ar_json_t *reasons)
{
    const char *rocm_root = ar_envp_get(envp, "ROCM_PATH");
    rocm_root = rocm_root && rocm_root[0] ? rocm_root : "/opt/rocm";
    char *version_path = ar_xasprintf("%s/.info/version", rocm_root);
    char *dev_path = ar_xasprintf("%s/.info/version-dev", rocm_root);
    char *rocm_version = first_line(version_path);
    if (!rocm_version)
        ar_json_append(reasons, ar_json_string("rocm: no ROCm version file"));
    ar_json_t *rocm = ar_json_object();
    ar_json_set(rocm, "version", string_or_null(rocm_version));
    ar_json_set(rocm, "version_dev", string_or_null(first_line(dev_path)));
    ar_json_set(rocm, "kmd_version", string_or_null(first_line("/sys/module/amdgpu/version")));
    free(version_path);
    free(dev_path);
    return rocm;
}

/* The host block: name, kernel, machine, glibc. */
static ar_json_t *host_block(void)
{
    ar_json_t *host = ar_json_object();
    struct utsname uts;
    int have_uts = uname(&uts) == 0;
    char hostname[256];
    if (gethostname(hostname, sizeof hostname) != 0)
        hostname[0] = '\0';
    hostname[sizeof hostname - 1] = '\0';
    ar_json_set(host, "hostname", hostname[0] ? ar_json_string(hostname) : NULL);
    ar_json_set(host, "kernel_release", have_uts ? ar_json_string(uts.release) : NULL);
    ar_json_set(host, "kernel_version", have_uts ? ar_json_string(uts.version) : NULL);
    ar_json_set(host, "machine", have_uts ? ar_json_string(uts.machine) : NULL);
    ar_json_set(host, "glibc_version", ar_json_string(gnu_get_libc_version()));
    return host;
}

/* The runtime_context block: a venv, a conda environment or the system. */
static ar_json_t *runtime_block(char *const *envp, const char *python)
{
    const char *venv = ar_envp_get(envp, "VIRTUAL_ENV");
    const char *conda = ar_envp_get(envp, "CONDA_DEFAULT_ENV");
    ar_json_t *runtime = ar_json_object();
    ar_json_set(runtime, "type",
                   ar_json_string(venv ? "venv" : conda ? "conda" : "system"));
    ar_json_set(runtime, "python_env", python ? ar_json_string(python) : NULL);
    ar_json_set(runtime, "venv_path", venv ? ar_json_string(venv) : NULL);
    ar_json_set(runtime, "conda_env_name", conda ? ar_json_string(conda) : NULL);
    return runtime;
}

ar_host_env_t *ar_host_env_start(char *const *envp, char *const *command)
{
    ar_host_env_t *env = ar_xcalloc(1, sizeof *env);
    env->probe.pid = -1;
    ar_json_t *reasons = env->reasons = ar_json_array();

    ar_json_t *rocm = rocm_block(envp, reasons);
    ar_json_t *host = host_block();

    const char *python = command && command[0] && ar_host_env_is_python(command[0])
                           ? command[0]
                           : NULL;
    env->python = python;
    char *reason = python ? start_triton_probe(env, envp)
                          : ar_xstrdup("triton: the command is not run by a Python interpreter");
    if (reason) {
        /* Nothing to wait for: the block is final now. */
        ar_json_append(reasons, ar_json_string(reason));
        env->python = NULL;
    }
    free(reason);
    ar_json_t *triton = env->triton = ar_json_object();

    ar_json_t *runtime = runtime_block(envp, python);
    ar_json_t *vars = ar_json_object();
    for (size_t i = 0; snapshot_vars[i]; i++) {
        const char *value = ar_envp_get(envp, snapshot_vars[i]);
        ar_json_set(vars, snapshot_vars[i], value ? ar_json_string(value) : NULL);
    }

    char captured[AR_CLOCK_TEXT];
    ar_clock_iso_utc(time(NULL), captured);
    ar_json_t *snapshot = ar_json_object();
    ar_json_set(snapshot, "schema_version", ar_json_string("1.6"));
    ar_json_set(snapshot, "captured_at", ar_json_string(captured));
    ar_json_set(snapshot, "partial", ar_json_bool(0)); /* set when finished */
    ar_json_set(snapshot, "partial_reasons", reasons);
    ar_json_set(snapshot, "system_health", NULL);
    ar_json_set(snapshot, "rocm", rocm);
    add_nulls(snapshot, null_blocks_before_host);
    ar_json_set(snapshot, "host", host);
    add_nulls(snapshot, null_blocks_before_triton);
    ar_json_set(snapshot, "triton", triton);
    add_nulls(snapshot, null_blocks_before_runtime);
    ar_json_set(snapshot, "runtime_context", runtime);
    ar_json_set(snapshot, "docker", NULL);
    ar_json_set(snapshot, "env_vars", vars);
    add_nulls(snapshot, null_blocks_last);
    env->snapshot = snapshot;
    return env;
}

int ar_host_env_finish(ar_host_env_t *env, int stop)
{
    if (env->done)
        return 0;
    env->done = 1;
    char *version = NULL;
    if (env->python) {
        char *reason = NULL;
        version = finish_triton_probe(env, stop, &reason);
        if (reason)
            ar_json_append(env->reasons, ar_json_string(reason));
        free(reason);
    }
    ar_json_set(env->triton, "package_version", string_or_null(version));
    ar_json_set(env->snapshot, "partial",
                   ar_json_bool(ar_json_length(env->reasons) > 0));
    if (env->capture) {
        fclose(env->capture);
        env->capture = NULL;
    }
    return 1;
}

ar_json_t *ar_host_env_snapshot(const ar_host_env_t *env)
{
    return env->snapshot;
}

void ar_host_env_free(ar_host_env_t *env)
{
    if (!env)
        return;
    if (!env->done)
        ar_host_env_finish(env, 1);
    ar_json_free(env->snapshot);
    free(env);
}

int ar_host_env_done(const ar_host_env_t *env)
{
    return env->done;
}
