/* SPDX-License-Identifier: MIT */
/* registry.c - finds collector modules on the search path and checks each one
 * when it is needed, first in a child (a module that crashes while loading
 * costs only itself).  The only file that calls libltdl.  Modules are opened
 * on the main thread, with local symbol binding so two collectors never see
 * each other. */
#include "config.h"

#include "sys/diag.h"
#include "registry/registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <ltdl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sys/child.h"
#include "sys/knobs.h"
#include "xalloc.h"

#ifndef AR_COLLECTORDIR
#error "AR_COLLECTORDIR must be defined by the build"
#endif

/* Append each non-empty entry of a colon list. */
static void push_colon_list(char ***dirs, size_t *count, size_t *capacity, const char *list)
{
    const char *entry = list;
    for (;;) {
        const char *end = strchr(entry, ':');
        size_t len = end ? (size_t)(end - entry) : strlen(entry);
        if (len > 0) {
            ar_xgrow((void **)dirs, capacity, *count + 2, sizeof **dirs);
            (*dirs)[(*count)++] = ar_xstrndup(entry, len);
        }
        if (!end)
            break;
        entry = end + 1;
    }
}

char **ar_search_path(char *const *cli_dirs, size_t cli_count)
{
    char **dirs = NULL;
    size_t count = 0, capacity = 0;
    ar_xgrow((void **)&dirs, &capacity, 1, sizeof *dirs);
    for (size_t i = 0; i < cli_count; i++) {
        if (!cli_dirs[i][0])
            continue;
        ar_xgrow((void **)&dirs, &capacity, count + 2, sizeof *dirs);
        dirs[count++] = ar_xstrdup(cli_dirs[i]); /* a --plugin-dir is one directory */
    }
    const char *user = ar_knob_text("AORTA_PLUGIN_PATH");
    if (user)
        push_colon_list(&dirs, &count, &capacity, user);
    const char *system = ar_knob_text("AORTA_PLUGIN_SYSTEM_PATH");
    push_colon_list(&dirs, &count, &capacity, system ? system : AR_COLLECTORDIR);
    dirs[count] = NULL;
    return dirs;
}

void ar_search_path_free(char **dirs)
{
    for (size_t i = 0; dirs && dirs[i]; i++)
        free(dirs[i]);
    free(dirs);
}

static int compare_names(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

/* The stem of a module file name ("rocprof.so" -> "rocprof"), or NULL. */
static char *module_stem(const char *file)
{
    size_t len = strlen(file);
    if (len > 3 && (strcmp(file + len - 3, ".la") == 0 || strcmp(file + len - 3, ".so") == 0))
        return ar_xstrndup(file, len - 3);
    return NULL;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int is_identifier(const char *text)
{
    if (!text[0])
        return 0;
    for (const char *c = text; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
              || *c == '_'))
            return 0;
    return !(text[0] >= '0' && text[0] <= '9');
}

/* libltdl reports most failures as "file not found"; ask the dynamic linker
 * itself why a module that exists does not load (not an ELF file, a library
 * it needs is missing, an undefined symbol). */
static char *load_failure_reason(const char *path, const char *ltdl_error)
{
    size_t len = strlen(path);
    if (len > 3 && strcmp(path + len - 3, ".so") == 0) {
        dlerror();
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        const char *why = handle ? NULL : dlerror();
        if (handle)
            dlclose(handle);
        if (why)
            return ar_xasprintf("cannot load module: %s", why);
    }
    return ar_xasprintf("cannot load module: %s", ltdl_error ? ltdl_error : "unknown error");
}

static ar_module_t *new_candidate(ar_registry_t *registry, const char *name, char *path)
{
    ar_xgrow((void **)&registry->modules, &registry->capacity, registry->count + 1,
                sizeof *registry->modules);
    ar_module_t *module = &registry->modules[registry->count++];
    memset(module, 0, sizeof *module);
    module->name = ar_xstrdup(name);
    module->path = path;
    module->status = AR_MODULE_FAILED;
    return module;
}

static void fail(ar_module_t *module, char *reason)
{
    module->status = AR_MODULE_FAILED;
    module->reason = reason;
    if (module->handle) {
        lt_dlclose((lt_dlhandle)module->handle);
        module->handle = NULL;
    }
}

static int default_env(const aorta_options_t *options, const char *out_dir, aorta_env_t *bundle,
                       aorta_error_t *err)
{
    (void)options, (void)out_dir, (void)bundle, (void)err;
    return 0;
}

static int default_conflicts(const aorta_options_t *options, const char *other_name,
                             const aorta_options_t *other_options, aorta_error_t *err)
{
    (void)options, (void)other_name, (void)other_options, (void)err;
    return 0;
}

static int default_queue_interceptor(const aorta_options_t *options, char *why, size_t why_size,
                                     char *remedy, size_t remedy_size)
{
    (void)options, (void)why, (void)why_size, (void)remedy, (void)remedy_size;
    return 0;
}

/* Check the module's description; on success fill module->collector. */
static void check_collector(ar_module_t *module)
{
    char *symbol = ar_xasprintf("aorta_collector_%s_get", module->name);
    void *entry = is_identifier(module->name) ? lt_dlsym((lt_dlhandle)module->handle, symbol)
                                              : NULL;
    if (!entry) {
        fail(module, ar_xasprintf("no symbol %s (not an aorta collector, or its file was "
                                     "renamed)", symbol));
        free(symbol);
        return;
    }
    aorta_collector_get_fn get;
    memcpy(&get, &entry, sizeof get); /* object to function pointer, as dlsym() requires */
    const struct aorta_collector *desc = get();
    if (!desc) {
        fail(module, ar_xasprintf("%s returned no collector", symbol));
    } else if (desc->abi_major != AORTA_COLLECTOR_ABI_MAJOR) {
        fail(module, ar_xasprintf("collector ABI %u.%u, but this aorta speaks ABI %d.%d "
                                     "(rebuild the collector against this aorta)",
                                     desc->abi_major, desc->abi_minor, AORTA_COLLECTOR_ABI_MAJOR,
                                     AORTA_COLLECTOR_ABI_MINOR));
    } else if (desc->abi_minor > AORTA_COLLECTOR_ABI_MINOR) {
        fail(module, ar_xasprintf("collector ABI %u.%u is newer than this aorta's %d.%d "
                                     "(upgrade aorta)",
                                     desc->abi_major, desc->abi_minor, AORTA_COLLECTOR_ABI_MAJOR,
                                     AORTA_COLLECTOR_ABI_MINOR));
    } else if (!desc->name || strcmp(desc->name, module->name) != 0) {
        fail(module, ar_xasprintf("collector calls itself '%s', but its file is named '%s'",
                                     desc->name ? desc->name : "(null)", module->name));
    } else if (!desc->validate || !desc->wrap || !desc->parse) {
        fail(module, ar_xasprintf("missing mandatory callback '%s'",
                                     !desc->validate ? "validate"
                                     : !desc->wrap   ? "wrap"
                                                     : "parse"));
    } else {
        module->collector = *desc;
        module->has_env = desc->env != NULL;
        /* What a 1.0 collector has there is reserved space, never a slot. */
        if (desc->abi_minor < 1)
            module->collector.queue_interceptor_why = NULL;
        if (desc->abi_minor < 4) { /* the 1.4 slots: reserved space before */
            module->collector.resources = NULL;
            module->collector.takes = NULL;
            module->collector.profiler_version = NULL;
        }
        if (!module->collector.version)
            module->collector.version = "-";
        if (!module->collector.description)
            module->collector.description = "";
        if (!module->collector.env)
            module->collector.env = default_env;
        if (!module->collector.conflicts)
            module->collector.conflicts = default_conflicts;
        /* The core asks queue_interceptor_why first (recipe/resources.c); a
         * 1.4 collector that lists its resources says it there instead. */
        if (!module->collector.queue_interceptor && !module->collector.queue_interceptor_why
            && !module->collector.resources)
            module->collector.queue_interceptor = default_queue_interceptor;
        module->status = AR_MODULE_OK;
    }
    free(symbol);
}

/* The first usable module of that name, or NULL. */
static const ar_module_t *find_usable(const ar_registry_t *registry, const char *name,
                                         size_t before)
{
    for (size_t i = 0; i < before; i++)
        if (registry->modules[i].status == AR_MODULE_OK
            && strcmp(registry->modules[i].name, name) == 0)
            return &registry->modules[i];
    return NULL;
}

static void add_candidate(ar_registry_t *registry, const char *dir, const char *stem)
{
    /* A libtool archive (.la) also finds an uninstalled build's module in .libs/. */
    char *la = ar_xasprintf("%s/%s.la", dir, stem);
    char *so = ar_xasprintf("%s/%s.so", dir, stem);
    char *path = file_exists(la) ? la : so;
    free(path == la ? so : la);
    new_candidate(registry, stem, path)->status = AR_MODULE_UNCHECKED;
}

/* Open module->path here and check what it describes: OK or FAILED. */
static void open_module(ar_module_t *module)
{
    lt_dladvise advise;
    if (lt_dladvise_init(&advise) != 0 || lt_dladvise_local(&advise) != 0) {
        fail(module, ar_xstrdup("cannot set up the module loader"));
        return;
    }
    lt_dlhandle handle = lt_dlopenadvise(module->path, advise);
    lt_dladvise_destroy(&advise);
    if (!handle) {
        fail(module, load_failure_reason(module->path, lt_dlerror()));
        return;
    }
    module->handle = handle;
    check_collector(module);
}

/* ---- the load check, in a child ------------------------------------------ */

#define LOAD_CHECK_REPLY_LIMIT 65536
#define LOAD_TIMEOUT_DEFAULT 10.0

double ar_registry_load_timeout(void)
{
    return ar_knob_seconds("AORTA_LOAD_TIMEOUT", LOAD_TIMEOUT_DEFAULT, 0);
}

/* In the child: open and check the module as aorta-run would, and say how it
 * went in one line (tabs and line breaks of the reason made spaces). */
static void load_check_child(void *user, int reply_fd)
{
    ar_module_t probe = *(const ar_module_t *)user;
    probe.reason = NULL;
    probe.handle = NULL;
    open_module(&probe);
    if (probe.status == AR_MODULE_OK) {
        ar_child_reply(reply_fd, "ok\n", 3);
        return;
    }
    for (char *c = probe.reason; c && *c; c++)
        if (*c == '\n' || *c == '\t' || *c == '\r')
            *c = ' ';
    char *line = ar_xasprintf("failed\t%s\n", probe.reason ? probe.reason : "");
    ar_child_reply(reply_fd, line, strlen(line));
}

int ar_registry_parse_check_reply(const char *reply, size_t len, char **reason)
{
    *reason = NULL;
    if (!reply)
        return -1;
    if (len == 3 && memcmp(reply, "ok\n", 3) == 0)
        return 0;
    if (len < 9 || memcmp(reply, "failed\t", 7) != 0 || reply[len - 1] != '\n')
        return -1;
    size_t reason_len = len - 8;
    /* One line of text: no NUL, no second line, and valid UTF-8 is not
     * asked (dlerror() speaks the locale's encoding), but not empty. */
    if (reason_len == 0 || memchr(reply + 7, '\0', reason_len) || memchr(reply + 7, '\n', reason_len))
        return -1;
    *reason = ar_xstrndup(reply + 7, reason_len);
    return 0;
}

/* Whether module's load check in a child passed; if not, why (free it). */
static char *load_check(const ar_module_t *module)
{
    double timeout = ar_registry_load_timeout();
    ar_child_spec_t spec = {.fn = load_check_child, .user = (void *)module,
                               .timeout_sec = timeout, .reply_limit = LOAD_CHECK_REPLY_LIMIT};
    ar_child_result_t result;
    ar_child_run(&spec, &result);
    char *reason = NULL;
    if (result.end == AR_CHILD_REPLIED) {
        if (ar_registry_parse_check_reply(result.reply, result.len, &reason) != 0)
            reason = ar_xstrdup("gave the load check no answer it could read");
    } else if (result.end == AR_CHILD_CRASHED) {
        reason = ar_xasprintf("crashed while loading (signal %d)", result.signal);
    } else if (result.end == AR_CHILD_TIMED_OUT) {
        reason = ar_xasprintf("timed out while loading (after %g s; AORTA_LOAD_TIMEOUT)",
                                 timeout);
    } else if (result.end == AR_CHILD_FAILED) {
        reason = ar_xasprintf("exited while loading (status %d)", result.exit_code);
    } else {
        reason = ar_xasprintf("%s while loading", ar_child_problem(&result));
    }
    ar_child_result_free(&result);
    return reason;
}

/* Bring candidate index from UNCHECKED to what it is, the earlier ones of
 * its name first (whether it is shadowed depends on them). */
/* Once, as the collector is opened: each row of its metric table (ABI 1.2)
 * that declares nothing, and why; the metric is then compared and shown,
 * never gated. */
static void warn_metric_rows(const ar_module_t *module)
{
    const struct aorta_collector *collector = &module->collector;
    for (size_t i = 0; i < aorta_collector_metric_count(collector); i++) {
        aorta_error_t *why = aorta_error_new();
        if (aorta_collector_metric_check(collector, i, why) != 0)
            ar_diag_warn("%s: %s; that metric is compared and shown, never gated",
                            collector->name, aorta_error_message(why));
        aorta_error_free(why);
    }
}

static void check_candidate(const ar_registry_t *registry, size_t index)
{
    ar_module_t *module = &registry->modules[index];
    if (module->status != AR_MODULE_UNCHECKED)
        return;
    for (size_t i = 0; i < index; i++)
        if (strcmp(registry->modules[i].name, module->name) == 0)
            check_candidate(registry, i);
    char *reason = load_check(module);
    if (reason)
        fail(module, reason);
    else
        open_module(module);
    if (module->status == AR_MODULE_OK && find_usable(registry, module->name, index))
        module->status = AR_MODULE_SHADOWED;
    if (module->status == AR_MODULE_FAILED && registry->warn)
        ar_diag_warn("skipping %s: %s", module->path, module->reason);
    if (module->status == AR_MODULE_OK && registry->warn)
        warn_metric_rows(module);
}

void ar_registry_check_all(const ar_registry_t *registry)
{
    for (size_t i = 0; i < registry->count; i++)
        check_candidate(registry, i);
}

static void load_directory(ar_registry_t *registry, const char *dir)
{
    DIR *listing = opendir(dir);
    if (!listing)
        return;
    char **stems = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        char *stem = module_stem(entry->d_name);
        if (!stem)
            continue;
        if (stem[0] == '\0' || stem[0] == '.') {
            free(stem);
            continue;
        }
        ar_xgrow((void **)&stems, &capacity, count + 1, sizeof *stems);
        stems[count++] = stem;
    }
    closedir(listing);
    if (count > 1)
        qsort(stems, count, sizeof *stems, compare_names);
    for (size_t i = 0; i < count; i++) {
        /* "x.la" and "x.so" side by side are one candidate. */
        if (!(i > 0 && strcmp(stems[i], stems[i - 1]) == 0))
            add_candidate(registry, dir, stems[i]);
    }
    for (size_t i = 0; i < count; i++)
        free(stems[i]);
    free(stems);
}

ar_registry_t *ar_registry_load(char *const *dirs)
{
    ar_registry_t *registry = ar_xcalloc(1, sizeof *registry);
    /* Kept to say where nothing was found. */
    while (dirs && dirs[registry->dir_count])
        registry->dir_count++;
    registry->dirs = ar_xcalloc(registry->dir_count + 1, sizeof *registry->dirs);
    for (size_t i = 0; i < registry->dir_count; i++)
        registry->dirs[i] = ar_xstrdup(dirs[i]);
    if (lt_dlinit() != 0)
        return registry;
    for (size_t i = 0; dirs && dirs[i]; i++)
        load_directory(registry, dirs[i]);
    return registry;
}

void ar_registry_warn(ar_registry_t *registry)
{
    registry->warn = 1;
    for (size_t i = 0; i < registry->count; i++)
        if (registry->modules[i].status == AR_MODULE_FAILED)
            ar_diag_warn("skipping %s: %s", registry->modules[i].path,
                            registry->modules[i].reason);
}

const ar_module_t *ar_registry_open(const ar_registry_t *registry, const char *name)
{
    for (size_t i = 0; i < registry->count; i++)
        if (strcmp(registry->modules[i].name, name) == 0) {
            check_candidate(registry, i);
            if (registry->modules[i].status == AR_MODULE_OK)
                return &registry->modules[i];
        }
    return NULL;
}

const ar_module_t *ar_registry_find_failed(const ar_registry_t *registry,
                                                 const char *name)
{
    for (size_t i = 0; i < registry->count; i++)
        if (registry->modules[i].status == AR_MODULE_FAILED
            && strcmp(registry->modules[i].name, name) == 0)
            return &registry->modules[i];
    return NULL;
}

char *ar_registry_names(const ar_registry_t *registry)
{
    ar_registry_check_all(registry);
    const char **names = ar_xcalloc(registry->count + 1, sizeof *names);
    size_t count = 0, total = 1;
    for (size_t i = 0; i < registry->count; i++)
        if (registry->modules[i].status == AR_MODULE_OK) {
            names[count++] = registry->modules[i].name;
            total += strlen(registry->modules[i].name) + 2;
        }
    if (count == 0) {
        free(names);
        return ar_xstrdup("(none)");
    }
    qsort(names, count, sizeof *names, compare_names);
    char *joined = ar_xmalloc(total);
    joined[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            strcat(joined, ", ");
        strcat(joined, names[i]);
    }
    free(names);
    return joined;
}

void ar_registry_free(ar_registry_t *registry)
{
    if (!registry)
        return;
    for (size_t i = 0; i < registry->count; i++) {
        ar_module_t *module = &registry->modules[i];
        if (module->handle)
            lt_dlclose((lt_dlhandle)module->handle);
        free(module->name);
        free(module->path);
        free(module->reason);
    }
    free(registry->modules);
    for (size_t i = 0; i < registry->dir_count; i++)
        free(registry->dirs[i]);
    free(registry->dirs);
    free(registry);
    lt_dlexit();
}
