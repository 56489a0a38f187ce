/* SPDX-License-Identifier: MIT */
/* Names for people (sys/text_escape.h): control characters, bidi controls
 * and invalid UTF-8 shown as visible escapes in every format; Markdown
 * inline text with nothing a renderer would interpret; a code span that a
 * backtick cannot end; HTML with its entities; ordinary names unchanged.
 * Commands shell-quoted (sys/shell_quote.h): what is shown, escaped as
 * every name is, pastes into bash as the same words. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/shell_quote.h"
#include "sys/text_escape.h"
#include "testutil.h"

static char *html(const char *text)
{
    char *result = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&result, &len);
    ar_html_put(out, text);
    fclose(out);
    return result;
}

static char *xml(const char *text)
{
    char *result = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&result, &len);
    ar_xml_put(out, text);
    fclose(out);
    return result;
}

#define EXPECT(fn, in, want)                                                                 \
    do {                                                                                     \
        char *got_ = fn(in);                                                                 \
        ck_assert_str_eq(got_, want);                                                        \
        free(got_);                                                                          \
    } while (0)

START_TEST(text_shows_controls_visibly)
{
    EXPECT(ar_text_escape, "a\x1b[2Jb", "a\\x1b[2Jb");
    EXPECT(ar_text_escape, "t\tl\nc\r", "t\\tl\\nc\\r");
    EXPECT(ar_text_escape, "\x1b]0;title\x07", "\\x1b]0;title\\x07");
    EXPECT(ar_text_escape, "del\x7f", "del\\x7f");
    EXPECT(ar_text_escape, "c1\xc2\x9b" "2J", "c1\\u009b2J");
    EXPECT(ar_text_escape, "ls\xe2\x80\xa8ps\xe2\x80\xa9", "ls\\u2028ps\\u2029");
}
END_TEST

START_TEST(text_shows_bidi_visibly)
{
    EXPECT(ar_text_escape, "abc\xe2\x80\xae" "fed", "abc\\u202efed");
    EXPECT(ar_text_escape, "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
           "\\u202a\\u202b\\u202c\\u202d");
    EXPECT(ar_text_escape, "\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
           "\\u2066\\u2067\\u2068\\u2069");
    EXPECT(ar_text_escape, "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c");
}
END_TEST

START_TEST(text_shows_invalid_utf8_visibly)
{
    EXPECT(ar_text_escape, "k\xff\xfe", "k\\xff\\xfe");
    EXPECT(ar_text_escape, "\x88\xbd", "\\x88\\xbd");
    EXPECT(ar_text_escape, "over\xc0\xaflong", "over\\xc0\\xaflong");
    EXPECT(ar_text_escape, "sur\xed\xa0\x80", "sur\\xed\\xa0\\x80");
    EXPECT(ar_text_escape, "cut\xe2\x80", "cut\\xe2\\x80");
    EXPECT(ar_text_escape, "big\xf4\x90\x80\x80", "big\\xf4\\x90\\x80\\x80");
}
END_TEST

START_TEST(text_keeps_ordinary_names)
{
    const char *names[] = {"add_kernel", "void gemm<float, 2>(float*, int const&)",
                           "\xce\x94 ms \xe2\x80\x94 caf\xc3\xa9 \xf0\x9f\x9a\x80", "a\\b", ""};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        EXPECT(ar_text_escape, names[i], names[i]);
    char *none = ar_text_escape(NULL);
    ck_assert_str_eq(none, "");
    free(none);
}
END_TEST

START_TEST(text_into_cuts_before_an_escape)
{
    char buf[8];
    ck_assert_uint_eq(ar_text_escape_into(buf, sizeof buf, "abcd\x1b"), 4);
    ck_assert_str_eq(buf, "abcd");
    ck_assert_uint_eq(ar_text_escape_into(buf, sizeof buf, "ab\x1b"), 6);
    ck_assert_str_eq(buf, "ab\\x1b");
    ck_assert_uint_eq(ar_text_escape_into(buf, sizeof buf, "abcde\xc3\xa9"), 7);
    ck_assert_str_eq(buf, "abcde\xc3\xa9");
    ck_assert_uint_eq(ar_text_escape_into(buf, sizeof buf, "abcdef\xc3\xa9"), 6);
    ck_assert_str_eq(buf, "abcdef");
}
END_TEST

START_TEST(md_escapes_what_renderers_interpret)
{
    EXPECT(ar_md_escape, "a|b", "a\\|b");
    EXPECT(ar_md_escape, "<img src=x onerror=alert(1)>",
           "&lt;img src=x onerror=alert(1)&gt;");
    EXPECT(ar_md_escape, "x`y*z*[l](u)", "x\\`y\\*z\\*\\[l\\](u)");
    EXPECT(ar_md_escape, "# h \\ &amp;", "\\# h \\\\ &amp;amp;");
    EXPECT(ar_md_escape, "_em_ a_b", "\\_em\\_ a_b");
    EXPECT(ar_md_escape, "$x$ ~s~ ^u^", "&#36;x&#36; &#126;s&#126; &#94;u&#94;");
    EXPECT(ar_md_escape, "\"q\" 'q' a--b c...", "\"q\" 'q' a\\--b c...");
}
END_TEST

START_TEST(md_shows_line_breaks_visibly)
{
    EXPECT(ar_md_escape, "row\r| x |\n# head", "row\\\\r\\| x \\|\\\\n\\# head");
    EXPECT(ar_md_escape, "\x1b[2J\xe2\x80\xae\xff", "\\\\x1b\\[2J\\\\u202e\\\\xff");
}
END_TEST

START_TEST(md_keeps_ordinary_names)
{
    EXPECT(ar_md_escape, "add_kernel", "add_kernel");
    EXPECT(ar_md_escape, "baseline (x=1, y: 2)", "baseline (x=1, y: 2)");
    EXPECT(ar_md_escape, "\xce\x94 %", "\xce\x94 %");
}
END_TEST

START_TEST(md_code_spans_outlast_backticks)
{
    EXPECT(ar_md_code, "python3 train.py", "`python3 train.py`");
    EXPECT(ar_md_code, "a`b", "``a`b``");
    EXPECT(ar_md_code, "a``b`c", "```a``b`c```");
    EXPECT(ar_md_code, "`x`", "`` `x` ``");
    EXPECT(ar_md_code, "", "`  `");
    EXPECT(ar_md_code, "<b>|\n", "`<b>|\\n`");
}
END_TEST

START_TEST(html_escapes_and_shows)
{
    EXPECT(html, "<img src=x onerror=\"a('1')\">&",
           "&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt;&amp;");
    EXPECT(html, "k\xff\x1b[2J\xe2\x80\xae", "k\\xff\\x1b[2J\\u202e");
    EXPECT(html, "void f<int>()", "void f&lt;int&gt;()");
    EXPECT(html, "caf\xc3\xa9", "caf\xc3\xa9");
}
END_TEST

START_TEST(shell_quote_keeps_plain_words_and_quotes_the_rest)
{
    EXPECT(ar_shell_quote, "examples/no-gpu/gemm", "examples/no-gpu/gemm");
    EXPECT(ar_shell_quote, "--size=512,K:a@b%c+d", "--size=512,K:a@b%c+d");
    EXPECT(ar_shell_quote, "", "''");
    EXPECT(ar_shell_quote, "echo hello from a trial", "'echo hello from a trial'");
    EXPECT(ar_shell_quote, "it's", "'it'\"'\"'s'");
    EXPECT(ar_shell_quote, "$HOME;`x`*", "'$HOME;`x`*'");
    EXPECT(ar_shell_quote, "caf\xc3\xa9", "'caf\xc3\xa9'");
    EXPECT(ar_shell_quote, "a\nb's\\", "$'a\\x0ab\\'s\\\\'");
    EXPECT(ar_shell_quote, "\xe2\x80\xae" "evil", "$'\\xe2\\x80\\xaeevil'");
    const char *words[] = {"sh", "-c", "echo hello from a trial"};
    char *joined = ar_shell_join(words, 3);
    ck_assert_str_eq(joined, "sh -c 'echo hello from a trial'");
    free(joined);
    joined = ar_shell_join(NULL, 0);
    ck_assert_str_eq(joined, "");
    free(joined);
}
END_TEST

/* bash, given the quoted text as the escaping layer shows it, prints each
 * word NUL-terminated: the same bytes as the words. */
START_TEST(shell_quoted_text_pastes_to_the_same_words)
{
    if (access("/bin/bash", X_OK) != 0)
        return;
    const char *words[] = {"printf", "%s\\0", "plain", "", "two words", "it's", "$(id)",
                           "tab\there", "line\nbreak", "\x1b[2J", "bad\xff\xfeutf8",
                           "bidi\xe2\x80\xae", "caf\xc3\xa9", "back\\slash", "!x", "~", "#c"};
    size_t count = sizeof words / sizeof words[0];
    char *joined = ar_shell_join(words, count);
    char *shown = ar_text_escape(joined);
    /* Nothing needed a visible escape: what a person sees is what ran. */
    ck_assert_str_eq(shown, joined);
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execl("/bin/bash", "bash", "--norc", "-c", shown, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fds[0], buf + len, sizeof buf - len)) > 0)
        len += (size_t)n;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t at = 0;
    for (size_t i = 2; i < count; i++) {
        size_t wlen = strlen(words[i]);
        ck_assert_msg(at + wlen < len && memcmp(buf + at, words[i], wlen) == 0
                          && buf[at + wlen] == '\0',
                      "word %zu", i);
        at += wlen + 1;
    }
    ck_assert_uint_eq(at, len);
    free(shown);
    free(joined);
}
END_TEST

/* JUnit XML: what XML 1.0 forbids never reaches the file (U+FFFE and
 * U+FFFF dropped, controls shown visibly), the markup escaped. */
START_TEST(xml_drops_what_xml_forbids)
{
    EXPECT(xml, "k\xef\xbf\xbe<T>\xef\xbf\xbf&\x01", "k&lt;T&gt;&amp;\\x01");
    EXPECT(xml, "a\xef\xbf\xbd" "b\xee\x80\x80", "a\xef\xbf\xbd" "b\xee\x80\x80");
    EXPECT(xml, "\"x\" 'y'", "&quot;x&quot; &#39;y&#39;");
}
END_TEST

static Suite *text_escape_suite(void)
{
    Suite *suite = suite_create("text_escape");
    TCase *tc = tcase_create("text_escape");
    tcase_add_test(tc, text_shows_controls_visibly);
    tcase_add_test(tc, text_shows_bidi_visibly);
    tcase_add_test(tc, text_shows_invalid_utf8_visibly);
    tcase_add_test(tc, text_keeps_ordinary_names);
    tcase_add_test(tc, text_into_cuts_before_an_escape);
    tcase_add_test(tc, md_escapes_what_renderers_interpret);
    tcase_add_test(tc, md_shows_line_breaks_visibly);
    tcase_add_test(tc, md_keeps_ordinary_names);
    tcase_add_test(tc, md_code_spans_outlast_backticks);
    tcase_add_test(tc, html_escapes_and_shows);
    tcase_add_test(tc, shell_quote_keeps_plain_words_and_quotes_the_rest);
    tcase_add_test(tc, shell_quoted_text_pastes_to_the_same_words);
    tcase_add_test(tc, xml_drops_what_xml_forbids);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(text_escape_suite)
