// SPDX-License-Identifier: MIT
// cxxdemo.cc - a collector written in C++ the way the header says: its
// entry point from AORTA_COLLECTOR_DEFINE (extern "C"), designated
// initializers in the order struct aorta_collector declares its fields,
// callbacks that are static, noexcept functions with the fields' types, and
// static tables of the C row types.  C++ inside (std::string, a lambda as
// the walk's callback).  Built with g++ by tests/sdk/check-cxx-collector.sh
// and, with the man page's C++ build line, by tests/docs/check-collector-build.sh.
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "aorta/collector.h"

namespace {

const char *const scale_values[] = {"1", "10", nullptr};

const aorta_option_spec_t cxx_options[] = {
    {"scale", scale_values, "1", "multiply every line count by this"},
    {nullptr, nullptr, nullptr, nullptr},
};

const aorta_metric_spec_t cxx_metrics[] = {
    {"cxxdemo_lines", "count", AORTA_BETTER_NONE, "lines in the *.cxx files"},
    {"cxxdemo_lines_per_file", "lines", AORTA_BETTER_HIGHER, "lines per *.cxx file"},
    {nullptr, nullptr, AORTA_BETTER_NONE, nullptr},
};

int cxx_validate(aorta_options_t *options, aorta_error_t *err) noexcept
{
    return aorta_options_apply_table(options, cxx_options, "cxxdemo", err);
}

// "env CXXDEMO_DIR=<out_dir> COMMAND...".
int cxx_wrap(const aorta_options_t *, const char *out_dir, const aorta_argv_t *command,
             const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err) noexcept
{
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "cxxdemo: env(1) is not on PATH");
        return -1;
    }
    const std::string setting = std::string("CXXDEMO_DIR=") + out_dir;
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting.c_str());
    aorta_argv_push_all(out, command);
    return 0;
}

struct tally {
    long long lines = 0;
    long long files = 0;
};

void cxx_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics) noexcept
{
    tally counted;
    aorta_walk_fn count_lines = [](const char *, int fd, void *user) -> int {
        char chunk[4096];
        ssize_t got;
        static_cast<tally *>(user)->files++;
        while ((got = read(fd, chunk, sizeof chunk)) > 0)
            for (ssize_t i = 0; i < got; i++)
                static_cast<tally *>(user)->lines += chunk[i] == '\n';
        return 0;
    };
    const aorta_walk_status_t status = aorta_walk_files(dir, ".cxx", count_lines, &counted);
    if (status != AORTA_WALK_OK && status != AORTA_WALK_NO_FDS)
        return;
    char *artifact_dir = aorta_path_join(dir, nullptr);
    aorta_metrics_set_string(metrics, "cxxdemo_artifact_dir", artifact_dir);
    aorta_free(artifact_dir);
    if (status == AORTA_WALK_NO_FDS) // partial counts would look complete
        return;
    const long long lines =
        counted.lines * std::strtoll(aorta_options_get(options, "scale"), nullptr, 10);
    aorta_metrics_set_int(metrics, "cxxdemo_lines", lines);
    if (counted.files > 0)
        aorta_metrics_set_double(metrics, "cxxdemo_lines_per_file",
                                 static_cast<double>(lines) / static_cast<double>(counted.files));
}

} // namespace

AORTA_COLLECTOR_DEFINE(cxxdemo,
    .version = "1.0",
    .description = "a collector written in C++",
    .wrap_rank = 45,
    .options = cxx_options,
    .validate = cxx_validate,
    .wrap = cxx_wrap,
    .parse = cxx_parse,
    .metrics = cxx_metrics)
