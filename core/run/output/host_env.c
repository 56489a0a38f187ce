/* SPDX-License-Identifier: MIT */
/* host_env.c - the run's environment snapshot (upstream schema "1.6"). */
#include "config.h"

#include "output/host_env.h"

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
    return len ? aorta_xstrndup(text, len) : NULL;
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

char *aorta_host_env_ask(char *const *argv, double timeout_sec)
{
    FILE *capture = tmpfile();
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    aorta_spawn_child_t child;
    aorta_spawn_result_t result;
    char *line = NULL;
    if (capture && null_fd >= 0
        && aorta_spawn_start_fds(argv, environ, fileno(capture), null_fd, &child, &result) == 0
        && result.launched) {
        aorta_spawn_wait(&child, timeout_sec, TRITON_PROBE_GRACE_SEC, &result);
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

static aorta_json_t *string_or_null(char *text)
{
    aorta_json_t *value = text ? aorta_json_string(text) : NULL;
    free(text);
    return value;
}

int aorta_host_env_is_python(const char *argv0)
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

static double probe_timeout(void)
{
    return aorta_knob_seconds("AORTA_PROBE_TIMEOUT", AORTA_PROBE_TIMEOUT_DEFAULT, 0);
}

struct aorta_host_env {
    aorta_json_t *snapshot;  /* complete once the probe is done */
    aorta_json_t *reasons;   /* partial_reasons, the probe's still to come */
    aorta_json_t *triton;    /* the block the probe fills */
    const char *python;      /* the interpreter asked, or NULL */
    aorta_spawn_child_t probe;
    aorta_spawn_result_t result;
    FILE *capture;           /* the probe's stdout */
    double timeout;
    int done;
};

/* Ask the payload's interpreter for triton.__version__ and return: it runs
 * beside the first trial (a Python start with Triton's import is most of a
 * run's own cost otherwise).  Sets a reason when it cannot start. */
static char *start_triton_probe(aorta_host_env_t *env, char *const *envp)
{
    char *argv[] = {(char *)env->python, "-c", "import triton; print(triton.__version__)", NULL};
    env->capture = tmpfile();
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    env->timeout = probe_timeout();
    char *reason = NULL;
    if (!env->capture || null_fd < 0
        || aorta_spawn_start_fds(argv, envp, fileno(env->capture), null_fd, &env->probe,
                                 &env->result)
               != 0) {
        env->probe.pid = -1;
        reason = aorta_xasprintf("triton: could not run %s: %s", env->python, strerror(errno));
    } else if (!env->result.launched) {
        reason = aorta_xasprintf("triton: cannot execute %s: %s", env->python,
                                 strerror(env->result.exec_errno));
    }
    if (null_fd >= 0)
        close(null_fd);
    return reason;
}

/* The probe's answer: the version, or NULL with *reason set. */
static char *finish_triton_probe(aorta_host_env_t *env, int stop, char **reason)
{
    const char *python = env->python;
    aorta_spawn_result_t *result = &env->result;
    if (stop)
        aorta_spawn_stop(&env->probe, TRITON_PROBE_GRACE_SEC, result);
    else
        aorta_spawn_wait(&env->probe, env->timeout, TRITON_PROBE_GRACE_SEC, result);
    char *version = NULL;
    if (stop || result->interrupted) {
        *reason = aorta_xasprintf("triton: the probe of %s was interrupted", python);
    } else if (result->timed_out) {
        *reason = aorta_xasprintf("triton: %s did not answer within %g s", python, env->timeout);
    } else if (result->exit_code != 0) {
        *reason = aorta_xasprintf("triton: %s cannot import triton (exit %d)", python,
                                  result->exit_code);
    } else {
        lseek(fileno(env->capture), 0, SEEK_SET);
        version = first_line_fd(fileno(env->capture));
        if (!version)
            *reason = aorta_xasprintf("triton: %s printed no version", python);
    }
    /* The interrupt belongs to the sweep: left pending for it, so it stops
     * as it would have without the probe. */
    if (result->interrupted)
        raise(result->interrupted);
    return version;
}

static void add_nulls(aorta_json_t *obj, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        aorta_json_set(obj, names[i], NULL);
}

/* The rocm block: the version files of $ROCM_PATH (else /opt/rocm) and the
 * driver's; a reason into reasons when there is no version file. */
static aorta_json_t *rocm_block(char *const *envp, aorta_json_t *reasons)
{
    const char *rocm_root = aorta_envp_get(envp, "ROCM_PATH");
    rocm_root = rocm_root && rocm_root[0] ? rocm_root : "/opt/rocm";
    char *version_path = aorta_xasprintf("%s/.info/version", rocm_root);
    char *dev_path = aorta_xasprintf("%s/.info/version-dev", rocm_root);
    char *rocm_version = first_line(version_path);
    if (!rocm_version)
        aorta_json_append(reasons, aorta_json_string("rocm: no ROCm version file"));
    aorta_json_t *rocm = aorta_json_object();
    aorta_json_set(rocm, "version", string_or_null(rocm_version));
    aorta_json_set(rocm, "version_dev", string_or_null(first_line(dev_path)));
    aorta_json_set(rocm, "kmd_version", string_or_null(first_line("/sys/module/amdgpu/version")));
    free(version_path);
    free(dev_path);
    return rocm;
}

/* The host block: name, kernel, machine, glibc. */
static aorta_json_t *host_block(void)
{
    aorta_json_t *host = aorta_json_object();
    struct utsname uts;
    int have_uts = uname(&uts) == 0;
    char hostname[256];
    if (gethostname(hostname, sizeof hostname) != 0)
        hostname[0] = '\0';
    hostname[sizeof hostname - 1] = '\0';
    aorta_json_set(host, "hostname", hostname[0] ? aorta_json_string(hostname) : NULL);
    aorta_json_set(host, "kernel_release", have_uts ? aorta_json_string(uts.release) : NULL);
    aorta_json_set(host, "kernel_version", have_uts ? aorta_json_string(uts.version) : NULL);
    aorta_json_set(host, "machine", have_uts ? aorta_json_string(uts.machine) : NULL);
    aorta_json_set(host, "glibc_version", aorta_json_string(gnu_get_libc_version()));
    return host;
}

/* The runtime_context block: a venv, a conda environment or the system. */
static aorta_json_t *runtime_block(char *const *envp, const char *python)
{
    const char *venv = aorta_envp_get(envp, "VIRTUAL_ENV");
    const char *conda = aorta_envp_get(envp, "CONDA_DEFAULT_ENV");
    aorta_json_t *runtime = aorta_json_object();
    aorta_json_set(runtime, "type",
                   aorta_json_string(venv ? "venv" : conda ? "conda" : "system"));
    aorta_json_set(runtime, "python_env", python ? aorta_json_string(python) : NULL);
    aorta_json_set(runtime, "venv_path", venv ? aorta_json_string(venv) : NULL);
    aorta_json_set(runtime, "conda_env_name", conda ? aorta_json_string(conda) : NULL);
    return runtime;
}

aorta_host_env_t *aorta_host_env_start(char *const *envp, char *const *command)
{
    aorta_host_env_t *env = aorta_xcalloc(1, sizeof *env);
    env->probe.pid = -1;
    aorta_json_t *reasons = env->reasons = aorta_json_array();

    aorta_json_t *rocm = rocm_block(envp, reasons);
    aorta_json_t *host = host_block();

    const char *python = command && command[0] && aorta_host_env_is_python(command[0])
                           ? command[0]
                           : NULL;
    env->python = python;
    char *reason = python ? start_triton_probe(env, envp)
                          : aorta_xstrdup("triton: the command is not run by a Python interpreter");
    if (reason) {
        /* Nothing to wait for: the block is final now. */
        aorta_json_append(reasons, aorta_json_string(reason));
        env->python = NULL;
    }
    free(reason);
    aorta_json_t *triton = env->triton = aorta_json_object();

    aorta_json_t *runtime = runtime_block(envp, python);
    aorta_json_t *vars = aorta_json_object();
    for (size_t i = 0; snapshot_vars[i]; i++) {
        const char *value = aorta_envp_get(envp, snapshot_vars[i]);
        aorta_json_set(vars, snapshot_vars[i], value ? aorta_json_string(value) : NULL);
    }

    char captured[AORTA_CLOCK_TEXT];
    aorta_clock_iso_utc(time(NULL), captured);
    aorta_json_t *snapshot = aorta_json_object();
    aorta_json_set(snapshot, "schema_version", aorta_json_string("1.6"));
    aorta_json_set(snapshot, "captured_at", aorta_json_string(captured));
    aorta_json_set(snapshot, "partial", aorta_json_bool(0)); /* set when finished */
    aorta_json_set(snapshot, "partial_reasons", reasons);
    aorta_json_set(snapshot, "system_health", NULL);
    aorta_json_set(snapshot, "rocm", rocm);
    add_nulls(snapshot, null_blocks_before_host);
    aorta_json_set(snapshot, "host", host);
    add_nulls(snapshot, null_blocks_before_triton);
    aorta_json_set(snapshot, "triton", triton);
    add_nulls(snapshot, null_blocks_before_runtime);
    aorta_json_set(snapshot, "runtime_context", runtime);
    aorta_json_set(snapshot, "docker", NULL);
    aorta_json_set(snapshot, "env_vars", vars);
    add_nulls(snapshot, null_blocks_last);
    env->snapshot = snapshot;
    return env;
}

int aorta_host_env_finish(aorta_host_env_t *env, int stop)
{
    if (env->done)
        return 0;
    env->done = 1;
    char *version = NULL;
    if (env->python) {
        char *reason = NULL;
        version = finish_triton_probe(env, stop, &reason);
        if (reason)
            aorta_json_append(env->reasons, aorta_json_string(reason));
        free(reason);
    }
    aorta_json_set(env->triton, "package_version", string_or_null(version));
    aorta_json_set(env->snapshot, "partial",
                   aorta_json_bool(aorta_json_length(env->reasons) > 0));
    if (env->capture) {
        fclose(env->capture);
        env->capture = NULL;
    }
    return 1;
}

aorta_json_t *aorta_host_env_snapshot(const aorta_host_env_t *env)
{
    return env->snapshot;
}

void aorta_host_env_free(aorta_host_env_t *env)
{
    if (!env)
        return;
    if (!env->done)
        aorta_host_env_finish(env, 1);
    aorta_json_free(env->snapshot);
    free(env);
}

int aorta_host_env_done(const aorta_host_env_t *env)
{
    return env->done;
}
