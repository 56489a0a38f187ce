/* SPDX-License-Identifier: MIT */
/* shell_quote.h - a command as a person pastes it into a shell: each word
 * quoted so that the shell gives back exactly that word, the words joined
 * by spaces.  The one quoting of commands for people (perf.md, report.html,
 * the comparison texts).
 *
 * A word of only characters no shell treats specially
 * (A-Z a-z 0-9 and @%+=:,./_-) is written as it is; an empty word is '';
 * any other word is single-quoted, a ' inside written as '"'"' (as
 * Python's shlex.quote() does).  A word that the escaping layer
 * (sys/text_escape.h) would have to show with a visible escape (a control
 * character, a bidi control, a byte that is not UTF-8) is written in
 * Bash's $'...' form instead, every byte outside printable ASCII as \xHH,
 * so that the escaped text still pastes to the same bytes (bash, zsh,
 * ksh; POSIX sh has no such form). */
#ifndef AR_SHELL_QUOTE_H
#define AR_SHELL_QUOTE_H

#include <stddef.h>

#include "sys/json.h"

/* One word, quoted as above; free it. */
char *ar_shell_quote(const char *word);

/* count words, each quoted, joined by single spaces (NULL words are
 * empty); "" for none; free it. */
char *ar_shell_join(const char *const *words, size_t count);

/* The same of a JSON array of strings (provenance's "command"; a word that
 * is not a string is empty); NULL when words is not a non-empty array. */
char *ar_shell_join_json(const ar_json_t *words);

#endif
