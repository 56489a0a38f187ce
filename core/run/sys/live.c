/* SPDX-License-Identifier: MIT */
/* live.c - the sweep's progress display (live.h). */
#include "config.h"

#include "sys/live.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sys/clock.h"
#include "sys/text_escape.h"

/* One sweep per process: the display is process state, like stderr. */
static struct {
    FILE *out;
    int fd;                   /* out's descriptor, asked for its width */
    int on, tty, shown;       /* shown: the live line is on the terminal */
    size_t cells, cell;
    long budget, trial, planned, done;
    char name[128];
    size_t pass, fail, error;
    double started, trial_sum, last_print;
    int pending;              /* a finished trial not printed yet (rate limit) */
    const char *last_verdict;
    char state[32];           /* what the live line says of the trial */
} live;

/* "12.3s", "4:05", "1:02:03". */
static void duration(char *buf, size_t size, double sec)
{
    if (sec < 0)
        sec = 0;
    if (sec < 60) {
        snprintf(buf, size, "%.1fs", sec);
        return;
    }
    long whole = (long)(sec + 0.5);
    if (whole < 3600)
        snprintf(buf, size, "%ld:%02ld", whole / 60, whole % 60);
    else
        snprintf(buf, size, "%ld:%02ld:%02ld", whole / 3600, whole / 60 % 60, whole % 60);
}

/* The status text, without the line's framing. */
static void status(char *buf, size_t size, const char *state)
{
    char elapsed[32], eta[32] = "--";
    duration(elapsed, sizeof elapsed, ar_clock_monotonic() - live.started);
    long left = live.planned - live.done;
    /* From the trials so far: their mean time for each trial still due. */
    if (live.done > 0)
        duration(eta, sizeof eta, live.trial_sum / (double)live.done * (double)(left > 0 ? left : 0));
    snprintf(buf, size,
             "cell %zu/%zu %s, trial %ld/%ld %s | elapsed %s, ETA %s | %zu pass, %zu fail, "
             "%zu error",
             live.cell + 1, live.cells, live.name, live.trial + 1, live.budget, state, elapsed,
             eta, live.pass, live.fail, live.error);
}

/* The columns a code point takes: 2 for the East Asian wide and emoji
 * ranges, else 1 (the text is escaped: no control character reaches it). */
static size_t code_point_width(unsigned long c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF)
                   || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF)
                   || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60)
                   || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1FAFF)
                   || (c >= 0x20000 && c <= 0x3FFFD)
               ? 2
               : 1;
}

size_t ar_live_fit(char *text, size_t columns)
{
    size_t used = 0, i = 0;
    while (text[i]) {
        unsigned char lead = (unsigned char)text[i];
        size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        unsigned long c = len == 1 ? lead : lead & (0x7F >> len);
        size_t k = 1;
        for (; k < len && ((unsigned char)text[i + k] & 0xC0) == 0x80; k++)
            c = c << 6 | ((unsigned char)text[i + k] & 0x3F);
        size_t width = code_point_width(c);
        if (used + width > columns)
            break;
        used += width;
        i += k; /* a cut-short sequence moves on by what it has */
    }
    text[i] = '\0';
    return used;
}

/* The terminal's width: TIOCGWINSZ on the display's descriptor, else
 * COLUMNS; 0 when neither says. */
static size_t terminal_columns(void)
{
    struct winsize size;
    if (ioctl(live.fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return size.ws_col;
    const char *columns = getenv("COLUMNS");
    char *end = NULL;
    long value = columns ? strtol(columns, &end, 10) : 0;
    return columns && *end == '\0' && value > 0 && value < 100000 ? (size_t)value : 0;
}

static void draw(const char *state)
{
    char text[600];
    if (state != live.state)
        snprintf(live.state, sizeof live.state, "%s", state);
    memcpy(text, "aorta-run: ", sizeof "aorta-run: ");
    status(text + strlen(text), sizeof text - strlen(text), live.state);
    /* Cut to the terminal: a wrapped line would not be rewritten in
     * place.  One column spare, so the cursor never waits in the last. */
    size_t columns = terminal_columns();
    if (columns > 1)
        ar_live_fit(text, columns - 1);
    /* \r and erase-to-end: the line rewrites itself. */
    fprintf(live.out, "\r\033[K%s", text);
    fflush(live.out);
    live.shown = 1;
}

static void print_done(void)
{
    char text[512], state[32];
    snprintf(state, sizeof state, "done (%s)", live.last_verdict ? live.last_verdict : "?");
    status(text, sizeof text, state);
    fprintf(live.out, "aorta-run: %s\n", text);
    fflush(live.out);
    live.last_print = ar_clock_monotonic();
    live.pending = 0;
}

/* Shown as text_escape.h shows it, so a cell name cannot carry a control
 * character, a bidi control or a byte that is not UTF-8. */
static void copy_name(const char *name)
{
    ar_text_escape_into(live.name, sizeof live.name, name);
}

void ar_live_begin(FILE *out, int fd, int quiet, size_t cells, long trials_per_cell)
{
    memset(&live, 0, sizeof live);
    live.out = out;
    live.fd = fd;
    live.on = !quiet;
    live.tty = isatty(fd);
    live.cells = cells;
    live.budget = trials_per_cell;
    live.planned = (long)cells * trials_per_cell;
    live.started = ar_clock_monotonic();
    live.last_print = -1;
}

void ar_live_trial_start(size_t cell, const char *name, long trial)
{
    live.cell = cell;
    live.trial = trial;
    copy_name(name);
    if (live.on && live.tty)
        draw("running");
}

void ar_live_trial_done(const char *verdict, double sec)
{
    live.done++;
    live.trial_sum += sec;
    live.last_verdict = !strcmp(verdict, "pass")   ? "pass"
                        : !strcmp(verdict, "fail") ? "fail"
                                                   : "error";
    live.pass += live.last_verdict[0] == 'p';
    live.fail += live.last_verdict[0] == 'f';
    live.error += live.last_verdict[0] == 'e';
    if (!live.on)
        return;
    if (live.tty) {
        char state[32];
        snprintf(state, sizeof state, "done (%s)", live.last_verdict);
        draw(state);
        return;
    }
    live.pending = 1;
    if (live.last_print < 0 || ar_clock_monotonic() - live.last_print >= 1.0)
        print_done();
}

void ar_live_cell_done(long ran)
{
    if (ran < live.budget)
        live.planned -= live.budget - ran;
}

void ar_live_end(void)
{
    if (!live.on)
        return;
    if (live.tty && live.shown) {
        fputc('\n', live.out);
        fflush(live.out);
        live.shown = 0;
    } else if (!live.tty && live.pending) {
        print_done();
    }
    live.on = 0;
}

void ar_live_suspend(void)
{
    if (live.on && live.tty && live.shown) {
        fputs("\r\033[K", live.out);
        fflush(live.out);
    }
}

void ar_live_resume(void)
{
    if (live.on && live.tty && live.shown)
        draw(live.state);
}
