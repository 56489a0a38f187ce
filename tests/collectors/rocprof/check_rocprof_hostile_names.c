/* SPDX-License-Identifier: MIT */
/* Names that try to forge a report (issue 27, items 1, 2 and 7): two runs
 * under the stand-in rocprofv3 whose trial tables then name a kernel with
 * CR, LF, a backtick, raw HTML, ESC [2J, an OSC title, U+202E and invalid
 * UTF-8; --report writes perf.md and report.html from them again and
 * --compare reads both.  perf.md rendered by cmark-gfm (77 without it)
 * keeps every table's shape and grows no element; no output carries a raw
 * ESC, CR or bidi control; every file is valid UTF-8. */
#include "config.h"

#include <check.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"
#include "testutil.h"

static char *dir, *path_env;

/* The hostile name as a JSON string's body: escapes for the controls,
 * raw bytes 0xff 0xfe that are not UTF-8. */
#define HOSTILE                                                                              \
    "evil\\r| 9 | 9 |\\n+0.0% forged\\n<img src=x onerror=alert(1)>`tick`"                  \
    "\\u001b[2J\\u001b]0;pwned\\u0007\\u202eexe.txt\xff\xfe"

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(standin);
    free(text);
    free(source);
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(path_env);
}

static void sweep(const char *output, long add_ns)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: K\ntrials: 2\n"
                          "mitigation_axis: [none, slow]\ndiagnostic_axis: [none]\n"
                          "mitigations:\n  slow: {AORTA_FAKE_KERNELS: \"10:%ld:addk\\n"
                          "2:500:gemm\\n\"}\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel,hip\"}}\n",
                          add_ns);
    tu_write("recipe.yaml", recipe);
    char *env[] = {path_env, "AORTA_FAKE_KERNELS=10:1000:addk\n2:500:gemm\n", "ROCPROF_BIN",
                   NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", output, "--", "sh",
                             "-c", "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    free(recipe);
}

/* Every trial table of run names addk the hostile way. */
static void poison(const char *run)
{
    char *pattern = tu_fmt("%s/*/_subprocess/*.kernels.json", run);
    glob_t found;
    ck_assert_int_eq(glob(pattern, 0, NULL, &found), 0);
    ck_assert_uint_ge(found.gl_pathc, 4);
    for (size_t i = 0; i < found.gl_pathc; i++) {
        char *text = tu_read(found.gl_pathv[i]);
        char *at = strstr(text, "\"addk\"");
        ck_assert_ptr_nonnull(at);
        *at = '\0';
        char *poisoned = tu_fmt("%s\"%s\"%s", text, HOSTILE, at + 6);
        tu_write(found.gl_pathv[i], poisoned);
        free(poisoned);
        free(text);
    }
    globfree(&found);
    free(pattern);
    tu_result_t r = tu_aorta(NULL, "--report", run, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
}

/* Strict UTF-8: no overlong form, no surrogate, nothing past U+10FFFF. */
static int valid_utf8(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t len = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3
                   : (*s & 0xF8) == 0xF0 ? 4 : 0;
        if (!len)
            return 0;
        unsigned long cp = len == 1 ? *s : *s & (0x7Fu >> len);
        for (size_t i = 1; i < len; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3F);
        }
        static const unsigned long min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        s += len;
    }
    return 1;
}

/* No raw ESC, CR, BEL or bidi control; valid UTF-8. */
static void clean(const char *what, const char *text)
{
    ck_assert_msg(valid_utf8(text), "%s is not valid UTF-8", what);
    ck_assert_msg(!strchr(text, '\x1b'), "%s holds a raw ESC", what);
    ck_assert_msg(!strchr(text, '\r'), "%s holds a raw CR", what);
    ck_assert_msg(!strchr(text, '\a'), "%s holds a raw BEL", what);
    ck_assert_msg(!strstr(text, "\xe2\x80\xae"), "%s holds a raw U+202E", what);
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* Every row of every table of html has as many cells as its header, and
 * every kernel table (11 columns) has its two kernels' rows, ranked. */
static void same_shape(const char *html)
{
    size_t kernel_tables = 0;
    for (const char *table = strstr(html, "<table>"); table; table = strstr(table + 1, "<table>")) {
        const char *end = strstr(table, "</table>");
        ck_assert_ptr_nonnull(end);
        char *body = strndup(table, (size_t)(end - table));
        size_t columns = 0, rows = 0;
        for (char *row = strstr(body, "<tr>"); row; row = strstr(row + 1, "<tr>")) {
            char *close = strstr(row, "</tr>");
            ck_assert_ptr_nonnull(close);
            *close = '\0';
            size_t cells = count(row, "<th") + count(row, "<td");
            if (!rows++)
                columns = cells;
            ck_assert_uint_eq(cells, columns);
            *close = '<';
        }
        if (columns == 11) {
            kernel_tables++;
            ck_assert_uint_eq(rows, 3);
            ck_assert_ptr_nonnull(strstr(body, "<td>1</td>"));
            ck_assert_ptr_nonnull(strstr(body, "<td>2</td>"));
        }
        free(body);
    }
    ck_assert_uint_eq(kernel_tables, 2);
}

START_TEST(a_hostile_kernel_name_forges_no_report)
{
    char *argv0[] = {"sh", "-c", "command -v cmark-gfm", NULL};
    char *found = NULL;
    if (tu_run(argv0, NULL, &found, NULL) != 0) {
        free(found);
        exit(77);
    }
    free(found);
    sweep("A", 1000);
    sweep("B", 5000);
    poison("A/K");
    poison("B/K");

    char *perf = tu_read("A/K/perf.md");
    clean("perf.md", perf);
    ck_assert_ptr_null(strstr(perf, "\n+0.0% forged"));
    char *render[] = {"cmark-gfm", "--extension", "table", "A/K/perf.md", NULL};
    char *html = NULL;
    ck_assert_int_eq(tu_run(render, NULL, &html, NULL), 0);
    ck_assert_ptr_null(strstr(html, "<img"));
    ck_assert_ptr_null(strstr(html, "<script"));
    ck_assert_ptr_null(strstr(html, "<h1>+0.0% forged"));
    same_shape(html);
    /* The name as a person reads it, the escapes visible. */
    ck_assert_ptr_nonnull(strstr(html, "evil\\r| 9 | 9 |\\n+0.0% forged\\n"
                                       "&lt;img src=x onerror=alert(1)&gt;`tick`"
                                       "\\x1b[2J\\x1b]0;pwned\\x07\\u202eexe.txt"));
    free(html);
    free(perf);

    char *report = tu_read("A/K/report.html");
    clean("report.html", report);
    ck_assert_ptr_null(strstr(report, "<img"));
    ck_assert_ptr_nonnull(strstr(report, "\\x1b[2J\\x1b]0;pwned\\x07\\u202eexe.txt"));
    free(report);

    tu_result_t r = tu_aorta(NULL, "--compare", "A/K", "B/K", NULL);
    clean("--compare's output", r.out);
    ck_assert_ptr_null(strstr(r.out, "\n+0.0% forged"));
    ck_assert_msg(strstr(r.out, "\\x1b[2J\\x1b]0;pwned\\x07") != NULL, "%s", r.out);
    tu_result_free(&r);
}
END_TEST

static Suite *hostile_names_suite(void)
{
    Suite *suite = suite_create("rocprof_hostile_names");
    TCase *tc = tcase_create("hostile_names");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_hostile_kernel_name_forges_no_report);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(hostile_names_suite)
