/* SPDX-License-Identifier: MIT */
/* shell_quote.c - commands as a person pastes them (shell_quote.h). */
#include "config.h"

#include "sys/shell_quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/text_escape.h"
#include "xalloc.h"

static int is_safe(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || (c && strchr("@%+=:,./_-", c));
}

/* Whether the escaping layer shows word as it is. */
static int shows_as_itself(const char *word)
{
    char *shown = ar_text_escape(word);
    int same = strcmp(shown, word) == 0;
    free(shown);
    return same;
}

/* $'...': printable ASCII as itself (\ and ' escaped), every other byte
 * as \xHH. */
static void put_ansi_c(FILE *out, const char *word)
{
    fputs("$'", out);
    for (const unsigned char *c = (const unsigned char *)word; *c; c++) {
        if (*c == '\\' || *c == '\'')
            fprintf(out, "\\%c", *c);
        else if (*c >= 0x20 && *c < 0x7F)
            fputc(*c, out);
        else
            fprintf(out, "\\x%02x", *c);
    }
    fputc('\'', out);
}

static void put_word(FILE *out, const char *word)
{
    if (!word || !*word) {
        fputs("''", out);
        return;
    }
    size_t safe = 0;
    while (word[safe] && is_safe((unsigned char)word[safe]))
        safe++;
    if (!word[safe]) {
        fputs(word, out);
        return;
    }
    if (!shows_as_itself(word)) {
        put_ansi_c(out, word);
        return;
    }
    fputc('\'', out);
    for (const char *c = word; *c; c++) {
        if (*c == '\'')
            fputs("'\"'\"'", out);
        else
            fputc(*c, out);
    }
    fputc('\'', out);
}

char *ar_shell_join(const char *const *words, size_t count)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = ar_xcheck(open_memstream(&text, &len));
    for (size_t i = 0; i < count; i++) {
        if (i)
            fputc(' ', out);
        put_word(out, words[i]);
    }
    fclose(out);
    return text;
}

char *ar_shell_quote(const char *word)
{
    return ar_shell_join(&word, 1);
}

char *ar_shell_join_json(const ar_json_t *words)
{
    size_t count = ar_json_length(words);
    if (!count)
        return NULL;
    const char **items = ar_xcalloc(count, sizeof *items);
    for (size_t i = 0; i < count; i++)
        items[i] = ar_json_get_string(ar_json_at(words, i));
    char *text = ar_shell_join(items, count);
    free(items);
    return text;
}
