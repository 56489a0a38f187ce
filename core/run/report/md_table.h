/* SPDX-License-Identifier: MIT */
/* md_table.h - a Markdown table built cell by cell, rendered padded. */
#ifndef AR_MD_TABLE_H
#define AR_MD_TABLE_H

#include <stddef.h>
#include <stdio.h>

typedef struct ar_md_table {
    size_t columns;
    char **cells;       /* row-major; row 0 is the header */
    size_t count, capacity;
} ar_md_table_t;

/* Append cell (owned by the table from now on). */
void ar_md_table_add(ar_md_table_t *table, char *cell);
/* Write the table to out, then free its cells and empty it. */
void ar_md_table_render(FILE *out, ar_md_table_t *table);

#endif
