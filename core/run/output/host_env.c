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
#include "sweep/spawn.h"
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

static const char *env_get(char *const *envp, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; envp && envp[i]; i++)
        if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
            return envp[i] + len + 1;
    return NULL;
}

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
    const char *text = getenv("AORTA_PROBE_TIMEOUT");
    char *end = NULL;
    double value = text ? strtod(text, &end) : 0;
    return text && end != text && !*end && isfinite(value) && value > 0
             ? value
             : AORTA_PROBE_TIMEOUT_DEFAULT;
}

/* Ask the payload's interpreter for triton.__version__.  Returns the
 * version, or NULL with *reason set. */
static char *triton_version(const char *python, char *const *envp, int *interrupted,
                            char **reason)
{
    char *argv[] = {(char *)python, "-c", "import triton; print(triton.__version__)", NULL};
    FILE *capture = tmpfile();
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    char *version = NULL;
    aorta_spawn_result_t result;
    double timeout = probe_timeout();
    if (!capture || null_fd < 0
        || aorta_spawn_run_fds(argv, envp, fileno(capture), null_fd, timeout,
                               TRITON_PROBE_GRACE_SEC, &result)
               != 0) {
        *reason = aorta_xasprintf("triton: could not run %s: %s", python, strerror(errno));
    } else if (result.interrupted) {
        *interrupted = result.interrupted;
        *reason = aorta_xasprintf("triton: the probe of %s was interrupted", python);
    } else if (!result.launched) {
        *reason = aorta_xasprintf("triton: cannot execute %s: %s", python,
                                  strerror(result.exec_errno));
    } else if (result.timed_out) {
        *reason = aorta_xasprintf("triton: %s did not answer within %g s", python, timeout);
    } else if (result.exit_code != 0) {
        *reason = aorta_xasprintf("triton: %s cannot import triton (exit %d)", python,
                                  result.exit_code);
    } else {
        lseek(fileno(capture), 0, SEEK_SET);
        version = first_line_fd(fileno(capture));
        if (!version)
            *reason = aorta_xasprintf("triton: %s printed no version", python);
    }
    if (capture)
        fclose(capture);
    if (null_fd >= 0)
        close(null_fd);
    return version;
}

static void add_nulls(aorta_json_t *obj, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        aorta_json_set(obj, names[i], NULL);
}

aorta_json_t *aorta_host_env_capture(char *const *envp, char *const *command, int *interrupted)
{
    *interrupted = 0;
    aorta_json_t *reasons = aorta_json_array();

    const char *rocm_root = env_get(envp, "ROCM_PATH");
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

    const char *python = command && command[0] && aorta_host_env_is_python(command[0])
                           ? command[0]
                           : NULL;
    char *reason = NULL, *triton_text = NULL;
    if (python)
        triton_text = triton_version(python, envp, interrupted, &reason);
    else
        reason = aorta_xstrdup("triton: the command is not run by a Python interpreter");
    if (reason)
        aorta_json_append(reasons, aorta_json_string(reason));
    free(reason);
    aorta_json_t *triton = aorta_json_object();
    aorta_json_set(triton, "package_version", string_or_null(triton_text));

    const char *venv = env_get(envp, "VIRTUAL_ENV");
    const char *conda = env_get(envp, "CONDA_DEFAULT_ENV");
    aorta_json_t *runtime = aorta_json_object();
    aorta_json_set(runtime, "type",
                   aorta_json_string(venv ? "venv" : conda ? "conda" : "system"));
    aorta_json_set(runtime, "python_env", python ? aorta_json_string(python) : NULL);
    aorta_json_set(runtime, "venv_path", venv ? aorta_json_string(venv) : NULL);
    aorta_json_set(runtime, "conda_env_name", conda ? aorta_json_string(conda) : NULL);

    aorta_json_t *vars = aorta_json_object();
    for (size_t i = 0; snapshot_vars[i]; i++) {
        const char *value = env_get(envp, snapshot_vars[i]);
        aorta_json_set(vars, snapshot_vars[i], value ? aorta_json_string(value) : NULL);
    }

    char captured[AORTA_CLOCK_TEXT];
    aorta_clock_iso_utc(time(NULL), captured);
    aorta_json_t *snapshot = aorta_json_object();
    aorta_json_set(snapshot, "schema_version", aorta_json_string("1.6"));
    aorta_json_set(snapshot, "captured_at", aorta_json_string(captured));
    aorta_json_set(snapshot, "partial", aorta_json_bool(aorta_json_length(reasons) > 0));
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
    return snapshot;
}
