/* SPDX-License-Identifier: MIT */
/* text_escape.h - names for people: the one escaping layer per format.
 * Every name that comes from a capture, a recipe or the command line and
 * reaches a person (the terminal, perf.md, report.html) goes through one
 * of these.  The rule (docs/design.md, "Names for people"): a control
 * character (C0, DEL, C1), a bidi control (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069), a line or paragraph separator (U+2028,
 * U+2029) and every byte that is not valid UTF-8 is shown as a visible
 * escape: "\t", "\n", "\r", "\x1b" (below U+0080, and an invalid byte),
 * "\u202e" (a code point from U+0080 on).  The output is valid UTF-8. */
#ifndef AR_TEXT_ESCAPE_H
#define AR_TEXT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Plain text, for the terminal and the summary: the visible escapes and
 * nothing else (NULL writes nothing). */
void ar_text_put(FILE *out, const char *text);
char *ar_text_escape(const char *text);
/* The same into buf of size bytes (size > 0), cut before an escape or a
 * character that would not fit; returns the length written. */
size_t ar_text_escape_into(char *buf, size_t size, const char *text);

/* Markdown inline text (a table cell, a heading, a list item, a
 * paragraph): the visible escapes, then everything Markdown or inline
 * HTML would interpret escaped, so that cmark-gfm, pandoc and
 * Python-Markdown show the same characters. */
void ar_md_put(FILE *out, const char *text);
char *ar_md_escape(const char *text);
/* A Markdown code span of text (visible escapes inside), fenced by one
 * backtick more than the longest run of backticks in it. */
void ar_md_code_put(FILE *out, const char *text);
char *ar_md_code(const char *text);

/* HTML text or a quoted attribute's value: the visible escapes and the
 * entities for < > & " '. */
void ar_html_put(FILE *out, const char *text);
/* XML 1.0 text or attribute value (JUnit XML): the HTML layer, less the
 * characters XML 1.0 forbids outright (U+FFFE, U+FFFF), which are dropped. */
void ar_xml_put(FILE *out, const char *text);

#endif
