/* SPDX-License-Identifier: MIT */
/* What a CI shows of a comparison, end to end (issue 34): two six-cell runs
 * under the stand-in rocprofv3 (examples/no-gpu/rocm/rocprofv3), B's add
 * kernel three times slower where the cell does not pin it, two cells
 * noisy enough to stay undecided, a kernel name that tries markup,
 * controls, bidi and a character XML forbids.  --compare writes --html (no
 * script, no URL; headless Chromium reads it, 77 without it), --markdown
 * (cmark-gfm renders its tables), --junit (valid against the Ant/Jenkins
 * JUnit schema, junit.xsd, by xmllint); its exit status stays the gate's,
 * and a file that cannot be written is one line and exit 1. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"
#include "testutil.h"

static char *dir, *path_env;

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

/* A kernel name that tries to be markup, a terminal escape, a reversed
 * line and a character XML 1.0 forbids (U+FFFF). */
#define HOSTILE "add<img src=x onerror=alert(1)>|`*_\x1b[2J\xe2\x80\xae\xef\xbf\xbf"

/* The payload dispatches its kernels through the stand-in's pipe: the add
 * kernel ADD_NS each (aorta-run's environment: the run's build) unless the
 * cell pins it (FIXED), with NOISE percent of noise (a cell's). */
#define PAYLOAD                                                                              \
    "printf '10:%s~%s:%s\\n20:500~1:Cijk_gemm\\n' \"${FIXED:-$ADD_NS}\" \"${NOISE:-1}\" "    \
    "\"$KNAME\" >&\"$AORTA_FAKE_KERNEL_FD\""

/* Six cells of five trials into out/TICKET: none and dbg follow ADD_NS,
 * pinned is fixed, wide is fixed and noisy. */
static void run(const char *ticket, const char *add_ns)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: 5\n"
                          "mitigation_axis: [none, pinned, wide]\ndiagnostic_axis: [none, dbg]\n"
                          "mitigations:\n  pinned: {FIXED: \"1000\"}\n"
                          "  wide: {FIXED: \"1000\", NOISE: \"60\"}\n  dbg: {DBG: \"1\"}\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel\"}}\n",
                          ticket);
    tu_write("r.yaml", recipe);
    char *env_add = tu_fmt("ADD_NS=%s", add_ns);
    char *env[] = {path_env, env_add, "KNAME=" HOSTILE, "ROCPROF_BIN", "AORTA_FAKE_KERNELS",
                   NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "r.yaml", "--output", "out", "-q", "--", "sh",
                             "-c", PAYLOAD, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    free(env_add);
    free(recipe);
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

static int have(const char *program)
{
    char *probe = tu_fmt("command -v %s", program);
    char *argv[] = {"sh", "-c", probe, NULL};
    char *found = NULL;
    int ok = tu_run(argv, NULL, &found, NULL) == 0;
    free(found);
    free(probe);
    return ok;
}

/* No raw ESC or bidi control: every name went through a layer; and in
 * XML, no U+FFFF (XML 1.0 forbids it). */
static void clean(const char *what, const char *text)
{
    ck_assert_msg(!strchr(text, '\x1b'), "%s holds a raw ESC", what);
    ck_assert_msg(!strstr(text, "\xe2\x80\xae"), "%s holds a raw U+202E", what);
    ck_assert_msg(!strstr(what, ".xml") || !strstr(text, "\xef\xbf\xbf"),
                  "%s holds a raw U+FFFF", what);
}

/* The two runs, made once for the suite (unchecked fixture); each test
 * works in the same directory and writes its own files. */
static void made_runs(void)
{
    setup();
    run("A", "1000");
    run("B", "3000");
}

START_TEST(the_three_outputs_tell_what_the_gate_decided)
{
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--html", "cmp.html",
                             "--markdown", "cmp.md", "--junit", "cmp.xml", NULL);
    /* The exit status stays the gate's: two cells regressed. */
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    ck_assert_str_eq(r.err, "");
    tu_result_free(&r);

    char *html = tu_read("cmp.html");
    ck_assert_ptr_nonnull(html);
    ck_assert_ptr_nonnull(strstr(html, "<!DOCTYPE html>"));
    /* Self-contained: no script, no URL, no image, no stylesheet link. */
    ck_assert_ptr_null(strstr(html, "<script"));
    ck_assert_ptr_null(strstr(html, "http"));
    ck_assert_ptr_null(strstr(html, "url("));
    ck_assert_ptr_null(strstr(html, "href"));
    ck_assert_ptr_null(strstr(html, "<img"));
    clean("cmp.html", html);
    ck_assert_ptr_nonnull(strstr(html, "add&lt;img src=x onerror=alert(1)&gt;|`*_\\x1b[2J\\u202e"));
    /* The gate first, its reasons, then the cells, mismatches, provenance. */
    const char *gate = strstr(html, "Gate: FAILED (exit 3)");
    const char *reason = strstr(html, "<li>cell none-none: rocprof GPU time regressed +");
    const char *cells = strstr(html, "<h2 id=\"cells\">");
    const char *mismatches = strstr(html, "<h2 id=\"mismatches\">");
    const char *provenance = strstr(html, "<h2 id=\"provenance\">");
    ck_assert_ptr_nonnull(gate);
    ck_assert_ptr_nonnull(reason);
    ck_assert_ptr_nonnull(cells);
    ck_assert(gate < reason && reason < cells && cells < mismatches && mismatches < provenance);
    ck_assert_uint_eq(count(html, "<h3>"), 6);
    ck_assert_ptr_nonnull(strstr(provenance, "<td class=\"name\">command</td>"));
    ck_assert_ptr_nonnull(strstr(html, "<span class=\"v-regressed\">regressed</span>"));
    ck_assert_ptr_nonnull(strstr(html, "<span class=\"undecided\">(undecided)</span>"));
    ck_assert_ptr_nonnull(strstr(html, "<code>Cijk_gemm</code>"));

    char *md = tu_read("cmp.md");
    ck_assert_ptr_nonnull(md);
    clean("cmp.md", md);
    ck_assert_ptr_nonnull(strstr(md, "### aorta: gate **FAILED** (exit 3)\n"));
    /* About twenty lines for six cells. */
    ck_assert_msg(count(md, "\n") <= 24, "%zu lines:\n%s", count(md, "\n"), md);
    /* A row per regressed or undecided headline measure: none-none and
     * none-dbg regressed, wide-none and wide-dbg undecided. */
    ck_assert_ptr_nonnull(strstr(md, "| none-none | rocprof GPU time (ms) | "));
    ck_assert_ptr_nonnull(strstr(md, "| none-dbg | rocprof GPU time (ms) | "));
    ck_assert_ptr_nonnull(strstr(md, "| wide-none | rocprof GPU time (ms) | "));
    ck_assert_ptr_nonnull(strstr(md, "| wide-dbg | rocprof GPU time (ms) | "));
    ck_assert_ptr_null(strstr(md, "| pinned-none | rocprof GPU time"));
    ck_assert_ptr_nonnull(strstr(md, "trials a side** would settle what is undecided"));
    ck_assert_ptr_nonnull(strstr(md, "**Largest kernel changes**"));

    char *xml = tu_read("cmp.xml");
    ck_assert_ptr_nonnull(xml);
    clean("cmp.xml", xml);
    ck_assert_ptr_nonnull(strstr(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    ck_assert_uint_eq(count(xml, "<testsuite "), 6);
    ck_assert_ptr_nonnull(strstr(xml, "<testcase classname=\"aorta.none-none\" name=\"rocprof GPU "
                                      "time\" time=\"0\">\n      <failure type=\"regressed\" "
                                      "message=\"regressed +"));
    ck_assert_ptr_nonnull(strstr(xml, "<testcase classname=\"aorta.wide-none\" name=\"rocprof GPU "
                                      "time\" time=\"0\">\n      <skipped>inconclusive, undecided"));
    ck_assert_ptr_nonnull(strstr(xml, "<testcase classname=\"aorta.pinned-none\" name=\"rocprof "
                                      "GPU time\" time=\"0\"/>"));
    free(xml);
    free(md);
    free(html);
}
END_TEST

/* cmark-gfm renders the summary's tables as tables, its names as text. */
START_TEST(the_summary_renders_as_github_does)
{
    if (!have("cmark-gfm"))
        exit(77);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--markdown", "cmp.md", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    tu_result_free(&r);
    char *argv[] = {"cmark-gfm", "--extension", "table", "cmp.md", NULL};
    char *out = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, NULL), 0);
    ck_assert_uint_eq(count(out, "<table>"), 2);
    /* The measures' table: a header and four rows; the kernels': five. */
    const char *second = strstr(strstr(out, "<table>") + 1, "<table>");
    size_t rows_first = count(out, "<tr>") - count(second, "<tr>");
    ck_assert_uint_eq(rows_first, 5);
    ck_assert_uint_eq(count(second, "<tr>"), 6);
    ck_assert_ptr_null(strstr(out, "raw HTML omitted"));
    ck_assert_ptr_null(strstr(out, "<img"));
    ck_assert_ptr_nonnull(strstr(out, "add&lt;img src=x onerror=alert(1)&gt;"));
    free(out);
}
END_TEST

/* xmllint validates the JUnit XML against the Ant/Jenkins schema. */
START_TEST(the_junit_xml_is_valid_against_the_schema)
{
    if (!have("xmllint"))
        exit(77);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--junit", "cmp.xml", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    tu_result_free(&r);
    char *schema = tu_srcdir("tests/run/compare/junit.xsd");
    char *argv[] = {"xmllint", "--noout", "--schema", schema, "cmp.xml", NULL};
    char *err = NULL;
    ck_assert_msg(tu_run(argv, NULL, NULL, &err) == 0, "%s", err);
    free(err);
    char *xml = tu_read("cmp.xml");
    ck_assert_ptr_nonnull(strstr(xml, "failures=\"2\""));
    free(xml);
    /* A broken candidate: a cell of B without its trials (in a copy of B). */
    char *copy[] = {"cp", "-a", "out/B", "out/C", NULL};
    ck_assert_int_eq(tu_run(copy, NULL, NULL, NULL), 0);
    tu_rmtree("out/C/none-dbg");
    r = tu_aorta(NULL, "--compare", "out/A", "out/C", "--junit", "broken.xml", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    tu_result_free(&r);
    argv[4] = "broken.xml";
    err = NULL;
    ck_assert_msg(tu_run(argv, NULL, NULL, &err) == 0, "%s", err);
    free(err);
    xml = tu_read("broken.xml");
    ck_assert_ptr_nonnull(strstr(xml, "<testsuite name=\"gate\" tests=\"1\" failures=\"1\""));
    ck_assert_ptr_nonnull(strstr(xml, "<failure type=\"broken candidate\" message=\"cell "
                                      "none-dbg: no trial passed in B"));
    free(xml);
    free(schema);
}
END_TEST

/* A file that cannot be written: one line, exit 1, the others written. */
START_TEST(an_output_that_cannot_be_written_is_one_line_and_exit_1)
{
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--html", "no/such/dir/x.html",
                             "--junit", "cmp.xml", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "aorta-run: --html no/such/dir/x.html: cannot write"));
    ck_assert_uint_eq(count(r.err, "\n"), 1);
    ck_assert(tu_exists("cmp.xml"));
    ck_assert(!tu_exists("no"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--report", "out/A", "--html", "x.html", NULL);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "apply only to --compare"));
    tu_result_free(&r);
}
END_TEST

/* The page in a real browser: its text is there, and it draws. */
START_TEST(the_page_renders_in_a_real_browser)
{
    if (!have("chromium"))
        exit(77);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--html", "cmp.html", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    tu_result_free(&r);
    char *url = tu_fmt("file://%s/cmp.html", dir);
    char *dump[] = {"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url,
                    NULL};
    char *dom = NULL;
    ck_assert_int_eq(tu_run(dump, NULL, &dom, NULL), 0);
    ck_assert_ptr_nonnull(strstr(dom, "Gate: FAILED (exit 3)"));
    ck_assert_ptr_nonnull(strstr(dom, "wide-dbg"));
    ck_assert_ptr_nonnull(strstr(dom, "Cijk_gemm"));
    ck_assert_ptr_null(strstr(dom, "<img"));
    char *shot = tu_fmt("--screenshot=%s/shot.png", dir);
    char *screenshot[] = {"chromium", "--headless", "--no-sandbox", "--disable-gpu", shot,
                          "--window-size=1200,1600", url, NULL};
    ck_assert_int_eq(tu_run(screenshot, NULL, NULL, NULL), 0);
    char *png = tu_read("shot.png");
    ck_assert_ptr_nonnull(png);
    ck_assert(memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    free(shot);
    free(dom);
    free(url);
}
END_TEST

static Suite *ci_outputs_suite(void)
{
    Suite *suite = suite_create("ci_outputs");
    TCase *tc = tcase_create("ci_outputs");
    tcase_add_unchecked_fixture(tc, made_runs, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, the_three_outputs_tell_what_the_gate_decided);
    tcase_add_test(tc, the_summary_renders_as_github_does);
    tcase_add_test(tc, the_junit_xml_is_valid_against_the_schema);
    tcase_add_test(tc, an_output_that_cannot_be_written_is_one_line_and_exit_1);
    tcase_add_test(tc, the_page_renders_in_a_real_browser);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(ci_outputs_suite)
