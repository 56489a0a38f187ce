/* SPDX-License-Identifier: MIT */
/* rptest.c - helpers of the rocprof Check suites (see rptest.h). */
#include "config.h"

#include "rptest.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ar_registry_t *registry;
static const ar_module_t *module;

void rp_setup(void)
{
    registry = tu_registry("plugins");
    module = tu_plugin(registry, "rocprof");
}

void rp_teardown(void)
{
    ar_registry_free(registry);
    registry = NULL;
    module = NULL;
}

const ar_module_t *rp_plugin(void)
{
    ck_assert_ptr_nonnull(module);
    return module;
}

const struct aorta_collector *rp_collector(void)
{
    return &rp_plugin()->collector;
}

int rp_validate(aorta_options_t *options, char **message)
{
    return tu_validate(rp_collector(), options, message);
}

aorta_metrics_t *rp_parse(const char *dir)
{
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    rp_collector()->parse(NULL, dir, metrics);
    return metrics;
}

static const aorta_metric_t *typed(const aorta_metrics_t *metrics, const char *key,
                                   aorta_metric_type_t type)
{
    const aorta_metric_t *metric = aorta_metrics_find(metrics, key);
    ck_assert_msg(metric != NULL, "no metric %s", key);
    ck_assert_msg(metric->type == type, "metric %s has type %d", key, (int)metric->type);
    return metric;
}

int64_t rp_int(const aorta_metrics_t *metrics, const char *key)
{
    return typed(metrics, key, AORTA_METRIC_INT)->int_value;
}

double rp_double(const aorta_metrics_t *metrics, const char *key)
{
    return typed(metrics, key, AORTA_METRIC_DOUBLE)->double_value;
}

const char *rp_string(const aorta_metrics_t *metrics, const char *key)
{
    return typed(metrics, key, AORTA_METRIC_STRING)->string_value;
}

const aorta_metric_t *rp_strings(const aorta_metrics_t *metrics, const char *key)
{
    return typed(metrics, key, AORTA_METRIC_STRINGS);
}

int rp_has(const aorta_metrics_t *metrics, const char *key)
{
    return aorta_metrics_find(metrics, key) != NULL;
}

void rp_assert_only_artifact_dir(const aorta_metrics_t *metrics, const char *dir)
{
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    ck_assert_str_eq(rp_string(metrics, "rocprof_artifact_dir"), dir);
}

char *rp_fixture(const char *rel)
{
    char *base = tu_srcdir("tests/collectors/rocprof/fixtures");
    char *path = tu_join(base, rel);
    free(base);
    return path;
}

void rp_copy(const char *src, const char *dst)
{
    char *text = tu_read(src);
    ck_assert_msg(text != NULL, "cannot read %s", src);
    tu_write(dst, text);
    free(text);
}

void rp_write_bytes(const char *dir, const char *rel, const char *data, size_t len)
{
    char *path = tu_join(dir, rel);
    tu_write(path, ""); /* parents */
    int fd = open(path, O_WRONLY | O_TRUNC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
    free(path);
}

void rp_write(const char *dir, const char *rel, const char *text)
{
    rp_write_bytes(dir, rel, text, strlen(text));
}

void rp_remove(const char *dir, const char *rel)
{
    char *path = tu_join(dir, rel);
    ck_assert_int_eq(unlink(path), 0);
    free(path);
}
