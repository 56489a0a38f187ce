/* SPDX-License-Identifier: MIT */
/* md_table.c - Markdown tables as perf.md writes them: left-justified
 * columns padded to the widest cell, counted in characters (as Python's
 * str.ljust counts them). */
#include "config.h"

#include "report/md_table.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void ar_md_table_add(ar_md_table_t *table, char *cell)
{
    ar_xgrow((void **)&table->cells, &table->capacity, table->count + 1, sizeof *table->cells);
    table->cells[table->count++] = cell;
}

/* Characters of UTF-8 text (continuation bytes do not count). */
static size_t text_width(const char *text)
{
    size_t width = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        width += (*c & 0xC0) != 0x80;
    return width;
}

void ar_md_table_render(FILE *out, ar_md_table_t *table)
{
    size_t *widths = ar_xcalloc(table->columns, sizeof *widths);
    for (size_t i = 0; i < table->count; i++) {
        size_t width = text_width(table->cells[i]);
        if (width > widths[i % table->columns])
            widths[i % table->columns] = width;
    }
    for (size_t row = 0; row * table->columns < table->count; row++) {
        fputs("|", out);
        for (size_t col = 0; col < table->columns; col++) {
            const char *cell = table->cells[row * table->columns + col];
            fprintf(out, " %s%*s |", cell, (int)(widths[col] - text_width(cell)), "");
        }
        fputs("\n", out);
        if (row == 0) {
            fputs("|", out);
            for (size_t col = 0; col < table->columns; col++) {
                for (size_t i = 0; i < widths[col] + 2; i++)
                    fputc('-', out);
                fputc('|', out);
            }
            fputs("\n", out);
        }
    }
    for (size_t i = 0; i < table->count; i++)
        free(table->cells[i]);
    free(table->cells);
    free(widths);
    memset(table, 0, sizeof *table);
}
