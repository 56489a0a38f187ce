/* SPDX-License-Identifier: MIT */
/* README.md's first command ends with a sweep: its last step, read from the
 * README itself, is run as a user would after building (core/aorta-run and
 * plugins/ taken from this build tree), and what it prints must be the
 * summary the README describes.  The build section tells what a user runs
 * into: make clean after another --prefix, and make check's time with the
 * machine it was measured on. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"

static char *dir;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

/* The first command of the README's first ```sh block (comments skipped;
 * free it). */
static char *first_command(const char *readme)
{
    const char *block = strstr(readme, "```sh\n");
    ck_assert_ptr_nonnull(block);
    for (const char *line = strchr(block, '\n') + 1; *line && strncmp(line, "```", 3) != 0;
         line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        if (line[0] != '#' && end > line)
            return strndup(line, (size_t)(end - line));
    }
    ck_abort_msg("no command in the README's first sh block");
    return NULL;
}

/* Split a shell command of plain words and '...' strings (all the README
 * uses) into words; returns the count. */
static size_t shell_words(char *text, char **words, size_t max)
{
    size_t n = 0;
    char *out = text;
    for (char *at = text; *at;) {
        while (*at == ' ')
            at++;
        if (!*at)
            break;
        ck_assert_uint_lt(n, max - 1);
        words[n++] = out;
        while (*at && *at != ' ') {
            if (*at == '\'') {
                char *close = strchr(at + 1, '\'');
                ck_assert_ptr_nonnull(close);
                memmove(out, at + 1, (size_t)(close - at - 1));
                out += close - at - 1;
                at = close + 1;
            } else {
                ck_assert_msg(strchr("\"\\$`;|&<>", *at) == NULL, "unexpected '%c'", *at);
                *out++ = *at++;
            }
        }
        if (*at)
            at++;
        *out++ = '\0';
    }
    words[n] = NULL;
    return n;
}

START_TEST(the_first_commands_sweep_prints_the_summary_the_readme_promises)
{
    char *path = tu_srcdir("README.md");
    char *readme = tu_read(path);
    ck_assert_ptr_nonnull(readme);
    char *command = first_command(readme);
    char *last = command;
    for (char *and = strstr(command, " && "); and; and = strstr(and + 4, " && "))
        last = and + 4;
    char *words[32];
    size_t n = shell_words(last, words, 32);
    /* The build's own program and collectors stand for the README's
     * relative core/aorta-run and modules. */
    ck_assert_uint_ge(n, 4);
    ck_assert_str_eq(words[0], "core/aorta-run");
    char *program = tu_builddir(words[0]);
    char *modules = NULL;
    char *argv[32] = {program};
    for (size_t i = 1; i < n; i++) {
        argv[i] = words[i];
        if (strcmp(words[i - 1], "--plugin-dir") == 0)
            argv[i] = modules = tu_builddir(words[i]);
    }
    ck_assert_msg(modules != NULL, "the README's sweep names no --plugin-dir");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, &err), 0);
    /* Without a terminal, the progress is one line for the one trial. */
    const char *progress = "aorta-run: cell 1/1 none-none, trial 1/1 done (pass) | elapsed ";
    ck_assert_msg(strncmp(err, progress, strlen(progress)) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
                  "%s", err);
    tu_assert_summary(out, "Sweep summary: all 1 cell(s) passed.\n"
                          "Wall time: T\n"
                          "Full matrix: demo_results/_no_ticket_/matrix.json\n"
                          "Performance report: demo_results/_no_ticket_/perf.md\n"
                          "Wrote run artifacts to demo_results/_no_ticket_\n");
    /* The README quotes the last line. */
    char *end = out + strlen(out) - 1;
    char *start = end;
    while (start > out && start[-1] != '\n')
        start--;
    char *quoted = tu_fmt("`%.*s`", (int)(end - start), start);
    ck_assert_msg(strstr(readme, quoted) != NULL, "the README does not quote %s", quoted);
    free(quoted);
    char *log = tu_read("demo_results/_no_ticket_/none-none/trial_0/stdout.log");
    ck_assert_str_eq(log, "hello from a trial\n");
    free(log);
    json_object *result = tu_json("demo_results/_no_ticket_/none-none/trial_0/result.json");
    ck_assert_str_eq(tu_str(result, "verdict", NULL), "pass");
    json_object_put(result);
    free(out);
    free(err);
    free(modules);
    free(program);
    free(command);
    free(readme);
    free(path);
}
END_TEST

/* The text of README's section whose heading starts with heading, up to
 * the next "## " heading; free it. */
static char *section(const char *readme, const char *heading)
{
    const char *start = strstr(readme, heading);
    ck_assert_msg(start != NULL, "README has no '%s'", heading);
    const char *end = strstr(start + strlen(heading), "\n## ");
    return strndup(start, end ? (size_t)(end - start) : strlen(start));
}

START_TEST(the_build_sections_say_what_a_user_runs_into)
{
    char *path = tu_srcdir("README.md");
    char *readme = tu_read(path);
    ck_assert_ptr_nonnull(readme);
    /* A built tree keeps the old library directory in its programs' run
     * path: another --prefix needs make clean first. */
    char *building = section(readme, "## Building by hand");
    ck_assert_msg(strstr(building, "make clean") && strstr(building, "--prefix")
                      && strstr(building, "libaorta.so.0"),
                  "%s", building);
    /* make check's time comes with its machine: "N s on ... N cores". */
    char *development = section(readme, "## Development");
    const char *item = strstr(development, "- `make check`:");
    ck_assert_ptr_nonnull(item);
    const char *next = strstr(item + 1, "\n- ");
    char *bullet = strndup(item, next ? (size_t)(next - item) : strlen(item));
    const char *seconds = strstr(bullet, " s on ");
    ck_assert_msg(seconds && seconds > bullet && seconds[-1] >= '0' && seconds[-1] <= '9'
                      && strstr(seconds, " cores"),
                  "%s", bullet);
    free(bullet);
    free(development);
    free(building);
    free(readme);
    free(path);
}
END_TEST

static Suite *readme_suite(void)
{
    Suite *suite = suite_create("readme");
    TCase *tc = tcase_create("first_command");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, the_first_commands_sweep_prints_the_summary_the_readme_promises);
    suite_add_tcase(suite, tc);
    TCase *text = tcase_create("text");
    tcase_add_test(text, the_build_sections_say_what_a_user_runs_into);
    suite_add_tcase(suite, text);
    return suite;
}

AORTA_CHECK_MAIN(readme_suite)
