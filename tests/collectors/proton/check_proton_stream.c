/* SPDX-License-Identifier: MIT */
/* The streaming .hatchet reader (plugins/proton/hatchet_stream.c on
 * json_stream.c) held to the json-c reader (hatchet_read.c + the walk of
 * hatchet_walk.c), and its strictness to Python's json module.
 *
 * On every input Python reads, the streaming reader must give the json-c
 * reader's kernel table bit for bit (names, totals, launches, order), by
 * itself or through its fallback; on every input Python refuses, it must
 * refuse.  Python (Debian's /usr/bin/python3 running json_verdicts.py; the
 * suites that need it skip without it) gives the verdicts.  The inputs:
 * 8,000 generated trees from Proton's own shape to hostile (escapes, \u0000,
 * lone and paired surrogates, repeated keys, numbers of every form, strings
 * as numbers, Unicode whitespace, single quotes, "1.", "-01", raw control
 * characters, invalid UTF-8, a BOM, trailing bytes, cut short), read in
 * blocks of every size from one byte; a real capture cut at every offset;
 * nesting at and past the depth limit; the window masks of every byte value
 * at every position against a byte loop.  It links the collector's
 * sources, to reach its readers below the module's one exported symbol. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hatchet.h"
#include "json_stream.h"
#include "json_window.h"
#include "sessions.h"
#include "testutil.h"

#define PYTHON "/usr/bin/python3"

/* ---- the generator ------------------------------------------------------- */

/* A growing text, as testutil's but without an assertion per piece (Check
 * records each one, and the generator adds millions). */
typedef struct text {
    char *data;
    size_t len, cap;
} text_t;

static void add(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text_t *t, const char *fmt, ...)
{
    for (;;) {
        va_list args;
        va_start(args, fmt);
        int n = vsnprintf(t->data ? t->data + t->len : NULL, t->cap - t->len, fmt, args);
        va_end(args);
        if (n < 0)
            abort();
        if (t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 256;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        t->data = realloc(t->data, cap);
        if (!t->data)
            abort();
        t->cap = cap;
    }
}

static uint64_t state = 0x2545f4914f6cdd1dull;
static unsigned pick(unsigned n)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % n);
}

#define PICK(array) (array)[pick(sizeof(array) / sizeof((array)[0]))]

/* How far a tree strays from what Proton writes. */
enum level {
    CLEAN,   /* Proton's shape, Proton's spelling */
    ODD,     /* valid JSON of every kind in every place */
    HOSTILE, /* also what Python refuses */
};

typedef struct gen {
    enum level level;
    text_t t;
} gen_t;

static int chance(const gen_t *g, unsigned one_in)
{
    return g->level != CLEAN && pick(one_in) == 0;
}

static int hostile(const gen_t *g, unsigned one_in)
{
    return g->level == HOSTILE && pick(one_in) == 0;
}

static void ws(gen_t *g)
{
    static const char *const spaces[] = {"", "", "", " ", "\n    ", "\t", "\r\n", " \t\r\n "};
    /* Not JSON's whitespace: form feed, vertical tab, NBSP, U+3000. */
    static const char *const not_spaces[] = {"\f", "\v", "\xc2\xa0", "\xe3\x80\x80"};
    if (hostile(g, 200))
        add(&g->t, "%s", PICK(not_spaces));
    else
        add(&g->t, "%s", PICK(spaces));
}

/* A string's content, as written between the quotes. */
static const char *const clean_texts[] = {
    "add_kernel", "matmul_kernel", "k", "train.py:10@step", "function", "0", "CUDA",
};
static const char *const odd_texts[] = {
    "", " k ", "   ", "]}[{,:", "a\\\"b", "back\\\\", "\\\\\\\"]", "\\u00e9t\\u00e9",
    "\\u0000", "a\\u0000b", "k\\u0000", "\\ud83d\\ude00", "\\ud800", "\\udc00x", "\\ud800\\ud800",
    "\\ud800\\n", "\\ud800\\u0041", "\\uDBFF\\uDFFF", "\\ud800\\udc00\\udc00", "\xc3\xa9\xe2\x9c\x93",
    "\xf0\x9f\x98\x80", "tab\\tnl\\n", "\\/slash", "'quote'", "\\b\\f\\r", "\\u3000k\\u3000",
    "\\u001ck\\u001f", "\\u0085k", "\x7f", "\\u007f", "12", " 12 ", "\\u001c12", "12\\u001f",
    "\\u000b12\\u000c", "1_000", "1e3", "-0.0", "nan", "inf", "0x10", "\\u0660", "\\u30003",
    "2.5", "1e400", "\\u0031\\u0032",
};
/* Python refuses these inside a string. */
static const char *const hostile_texts[] = {
    "raw\ttab", "raw\x01", "line\nbreak", "\\x41", "\\u12g4", "\\u12", "\\", "\\'",
    "\xff", "\xc0\x80", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\x80",
};

static void string(gen_t *g)
{
    const char *text;
    if (g->level == CLEAN)
        text = PICK(clean_texts);
    else if (hostile(g, 20))
        text = PICK(hostile_texts);
    else
        text = pick(3) ? PICK(odd_texts) : PICK(clean_texts);
    add(&g->t, "\"%s\"", text);
}

static const char *const clean_numbers[] = {"0", "1", "2", "7", "1000", "123456", "98765"};
static const char *const odd_numbers[] = {
    "-5", "2.5", "1e3", "1E-2", "1E+2", "-0", "-0.0", "3.0", "0.1", "1e22", "4.9e-324",
    "1e-400", "1.5e400", "-1e400", "NaN", "Infinity", "-Infinity", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
    "12345678901234567890.5", "0e0", "1.0000000000000002", "true", "false", "null",
    "9007199254740993",
};
/* Python refuses these. */
static const char *const hostile_numbers[] = {
    "1.", "1.e5", "-01", "01", "+1", ".5", "1e", "1e+", "-", "0x10", "nan", "-NaN", "Inf",
    "1_0", "tru", "nul", "True", "1 2", "--1", "1.5.5", "infinity", "-infinity", "NaNx",
};

static void number(gen_t *g)
{
    const char *text;
    if (g->level == CLEAN)
        text = PICK(clean_numbers);
    else if (hostile(g, 20))
        text = PICK(hostile_numbers);
    else
        text = pick(2) ? PICK(odd_numbers) : PICK(clean_numbers);
    add(&g->t, "%s", text);
}

static void value(gen_t *g, int depth);

/* A key spelt plainly or in a way json-c reads as the same or another key:
 * with an escape, ending in an escaped NUL (json-c keeps a key up to it);
 * and what Python refuses: in single quotes, a raw NUL. */
static void key(gen_t *g, const char *name)
{
    unsigned how = g->level == CLEAN ? 0 : pick(30);
    int at = (int)pick((unsigned)strlen(name));
    if (how == 1 && !strchr(name, '\\'))
        add(&g->t, "\"%.*s\\u00%02x%s\"", at, name, (unsigned char)name[at], name + at + 1);
    else if (how == 2)
        add(&g->t, "\"%s\\u0000%s\"", name, pick(2) ? "x" : "");
    else if (how == 3 && hostile(g, 2))
        add(&g->t, "'%s'", name);
    else if (how == 4 && hostile(g, 2))
        add(&g->t, "%s", name); /* unquoted */
    else
        add(&g->t, "\"%s\"", name);
    ws(g);
    add(&g->t, ":");
    ws(g);
}

/* Between members: a comma, or (hostile) none, two, or a trailing one. */
static void comma(gen_t *g)
{
    if (hostile(g, 150))
        add(&g->t, "%s", pick(2) ? "" : ",,");
    else
        add(&g->t, ",");
    ws(g);
}

static void object(gen_t *g, int depth, const char *const *keys, size_t nkeys)
{
    add(&g->t, "{");
    ws(g);
    size_t n = pick((unsigned)nkeys + 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            comma(g);
        key(g, keys[pick((unsigned)nkeys)]);
        value(g, depth + 1);
        ws(g);
    }
    if (n && hostile(g, 100))
        add(&g->t, ",");
    add(&g->t, "}");
}

static void list(gen_t *g, int depth)
{
    add(&g->t, "[");
    ws(g);
    size_t n = pick(3);
    for (size_t i = 0; i < n; i++) {
        if (i)
            comma(g);
        value(g, depth + 1);
        ws(g);
    }
    if (n && hostile(g, 100))
        add(&g->t, ",");
    add(&g->t, "]");
}

static void value(gen_t *g, int depth)
{
    static const char *const keys[] = {"name", "type", "count", "time (ns)", "x", "children",
                                       "frame", "metrics"};
    switch (depth > 6 ? pick(2) : pick(5)) {
    case 0:
        string(g);
        break;
    case 1:
        number(g);
        break;
    case 2:
        object(g, depth, keys, sizeof keys / sizeof keys[0]);
        break;
    case 3:
        list(g, depth);
        break;
    default:
        string(g);
        break;
    }
}

static void node(gen_t *g, int depth);

static void children(gen_t *g, int depth)
{
    if (chance(g, 12)) {
        value(g, depth); /* children that may not be a list */
        return;
    }
    add(&g->t, "[");
    ws(g);
    size_t n = depth > 4 ? 0 : pick(4);
    for (size_t i = 0; i < n; i++) {
        if (i)
            comma(g);
        if (chance(g, 10))
            value(g, depth + 1); /* an element that is no node */
        else
            node(g, depth + 1);
        ws(g);
    }
    add(&g->t, "]");
}

static void frame(gen_t *g)
{
    if (chance(g, 30)) {
        value(g, 3); /* a frame that may not be an object */
        return;
    }
    add(&g->t, "{");
    ws(g);
    int names = chance(g, 10) ? (int)pick(3) : 1; /* none, or repeated */
    for (int i = 0; i < names; i++) {
        key(g, "name");
        if (pick(6) == 0)
            number(g);
        else if (chance(g, 20))
            value(g, 5);
        else
            string(g);
        ws(g);
        comma(g);
    }
    key(g, "type");
    add(&g->t, "\"function\"}");
}

static void metrics(gen_t *g)
{
    static const char *const times[] = {"time (ns)", "time (us)", "Time (MS)", "time (s)",
                                        "cpu_time (ns)", "time (ns) (inc)", " time\\u3000( ns ))",
                                        "time (ns))", "time(ns)", "time (min)"};
    if (chance(g, 30)) {
        value(g, 3);
        return;
    }
    add(&g->t, "{");
    ws(g);
    int members = 0;
    for (int i = 0, n = 2 + (int)pick(g->level == CLEAN ? 1 : 4); i < n; i++) {
        if (members++)
            comma(g);
        switch (i == 0 ? 0 : i == 1 ? 1 : (int)pick(3)) {
        case 0:
            key(g, "count");
            if (chance(g, 4))
                value(g, 4);
            else
                number(g);
            break;
        case 1:
            key(g, g->level == CLEAN ? "time (ns)" : PICK(times));
            if (chance(g, 4))
                string(g);
            else if (chance(g, 4))
                number(g);
            else
                add(&g->t, "%u", 1 + pick(100000));
            break;
        default:
            key(g, pick(2) ? "time (ns)" : PICK(times));
            if (chance(g, 3))
                value(g, 4);
            else
                add(&g->t, "%u", pick(5000));
            break;
        }
        ws(g);
    }
    if (g->level != CLEAN && pick(3) == 0) {
        comma(g);
        key(g, "device_id");
        add(&g->t, "\"0\"");
    }
    add(&g->t, "}");
}

/* A node: its members in any order, sometimes one of them twice. */
static void node(gen_t *g, int depth)
{
    int order[6] = {0, 1, 2};
    int members = 3;
    for (int i = 2; i > 0; i--) {
        int j = (int)pick((unsigned)i + 1), swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    if (chance(g, 6))
        order[members++] = (int)pick(3); /* a repeated member */
    if (chance(g, 20))
        order[members++] = 3; /* a member the walk ignores */
    add(&g->t, "{");
    ws(g);
    for (int i = 0; i < members; i++) {
        if (i)
            comma(g);
        switch (order[i]) {
        case 0:
            key(g, "children");
            children(g, depth);
            break;
        case 1:
            key(g, "frame");
            frame(g);
            break;
        case 2:
            key(g, "metrics");
            metrics(g);
            break;
        default:
            key(g, "x");
            value(g, depth + 2);
            break;
        }
        ws(g);
    }
    add(&g->t, "}");
}

/* A profile: a list of a tree and device metadata (or, sometimes, one node
 * or a scalar), sometimes with a BOM, trailing bytes or cut short. */
static char *profile(enum level level, size_t *len)
{
    gen_t g = {.level = level};
    if (hostile(&g, 80))
        add(&g.t, "\xef\xbb\xbf");
    ws(&g);
    unsigned shape = pick(10);
    if (shape == 0) {
        node(&g, 0);
    } else if (shape == 1 && level != CLEAN) {
        value(&g, 0);
    } else {
        add(&g.t, "[");
        ws(&g);
        node(&g, 0);
        ws(&g);
        add(&g.t, ",");
        ws(&g);
        add(&g.t, "{\"CUDA\":{\"0\":{\"arch\":\"90\",\"num_sms\":132}}}");
        if (chance(&g, 6)) {
            add(&g.t, ",");
            value(&g, 1);
        }
        ws(&g);
        add(&g.t, "]");
    }
    ws(&g);
    if (hostile(&g, 15)) {
        static const char *const trailing[] = {" x", "{}", "\0", " 1", "]", ","};
        const char *tail = PICK(trailing);
        add(&g.t, "%s", *tail ? tail : "N");
        if (!*tail)
            g.t.data[g.t.len - 1] = '\0'; /* a NUL after the value */
    }
    if (hostile(&g, 15) && g.t.len > 1)
        g.t.len = 1 + pick((unsigned)g.t.len - 1);
    *len = g.t.len;
    return g.t.data;
}

/* ---- the readers --------------------------------------------------------- */

static int same_kernels(const aorta_kernels_t *a, const aorta_kernels_t *b)
{
    if (aorta_kernels_count(a) != aorta_kernels_count(b))
        return 0;
    for (size_t i = 0; i < aorta_kernels_count(a); i++) {
        size_t len_a, len_b;
        const char *name_a = aorta_kernels_name_at(a, i, &len_a);
        const char *name_b = aorta_kernels_name_at(b, i, &len_b);
        double time_a = aorta_kernels_time_at(a, i), time_b = aorta_kernels_time_at(b, i);
        if (len_a != len_b || memcmp(name_a, name_b, len_a) != 0
            || memcmp(&time_a, &time_b, sizeof time_a) != 0
            || aorta_kernels_launches_at(a, i) != aorta_kernels_launches_at(b, i))
            return 0;
    }
    return 1;
}

/* Whether the text is the JSON null and whitespace: json-c gives NULL for
 * it, Python reads it (and finds no leaves). */
static int is_null_document(const char *data, size_t len)
{
    size_t at = 0;
    while (at < len && (data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r'))
        at++;
    if (len - at < 4 || memcmp(data + at, "null", 4) != 0)
        return 0;
    for (at += 4; at < len; at++)
        if (data[at] != ' ' && data[at] != '\t' && data[at] != '\n' && data[at] != '\r')
            return 0;
    return 1;
}

/* The json-c reader's leaves, or NULL when it refuses the file. */
static aorta_kernels_t *reference(const char *data, size_t len)
{
    struct json_object *root = proton_hatchet_read_bytes((const unsigned char *)data, len);
    if (!root && !is_null_document(data, len))
        return NULL;
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    if (root)
        proton_hatchet_walk(root, kernels);
    proton_json_free(root);
    return kernels;
}

/* A descriptor on a copy of the bytes, at its start (a regular file: the
 * fallback reads it again). */
static int file_of(const char *data, size_t len)
{
    int fd = memfd_create("hatchet", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    for (size_t at = 0; at < len;) {
        ssize_t done = write(fd, data + at, len - at);
        ck_assert_int_gt(done, 0);
        at += (size_t)done;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

static size_t some_block(void)
{
    static const size_t blocks[] = {1, 2, 3, 7, 31, 63, 64, 65, 100, 127, 1000, 4096,
                                    JSON_STREAM_BLOCK};
    return PICK(blocks);
}

/* The streaming reader alone, in reads of block bytes. */
static proton_read_t streamed(const char *data, size_t len, size_t block, aorta_kernels_t *out)
{
    int fd = file_of(data, len);
    proton_read_t status = proton_hatchet_stream(fd, out, block);
    close(fd);
    return status;
}

/* The collector's reader: the stream, and json-c where it is unsure. */
static proton_read_t counted(const char *data, size_t len, aorta_kernels_t *out)
{
    int fd = file_of(data, len);
    proton_read_t status = proton_hatchet_count(fd, out);
    close(fd);
    return status;
}

static void show(const char *what, unsigned round, const char *data, size_t len)
{
    fprintf(stderr, "%s (round %u, %zu bytes):\n", what, round, len);
    fwrite(data, 1, len < 600 ? len : 600, stderr);
    fputc('\n', stderr);
}

/* ---- Python's verdicts --------------------------------------------------- */

static int have_python(void)
{
    return access(PYTHON, X_OK) == 0;
}

/* A fresh directory holding inputs[0..n) as files named by their index, in
 * order (remove it, and free its path). */
static char *inputs_dir(char **inputs, const size_t *lens, size_t n)
{
    char *dir = tu_tmpdir();
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "%08zu", i);
        char *path = tu_join(dir, name);
        FILE *out = fopen(path, "wb");
        ck_assert_ptr_nonnull(out);
        ck_assert_uint_eq(fwrite(inputs[i], 1, lens[i], out), lens[i]);
        fclose(out);
        free(path);
    }
    return dir;
}

/* Python's verdicts on inputs[0..n): 1 reads, 0 refuses. */
static unsigned char *python_verdicts(char **inputs, const size_t *lens, size_t n)
{
    char *dir = inputs_dir(inputs, lens, n);
    char *script = tu_srcdir("tests/collectors/proton/json_verdicts.py");
    char *argv[] = {PYTHON, script, dir, NULL};
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, NULL, &out, &err);
    ck_assert_msg(status == 0, "json_verdicts.py: %d %s", status, err ? err : "");
    unsigned char *verdicts = malloc(n);
    const char *line = out;
    for (size_t i = 0; i < n; i++) {
        size_t index;
        int verdict;
        ck_assert_int_eq(sscanf(line, "%zu %d", &index, &verdict), 2);
        ck_assert_uint_eq(index, i);
        verdicts[i] = (unsigned char)verdict;
        line = strchr(line, '\n');
        ck_assert_ptr_nonnull(line);
        line++;
    }
    free(out);
    free(err);
    free(script);
    tu_rmtree(dir);
    free(dir);
    return verdicts;
}

/* ---- the comparison ------------------------------------------------------ */

typedef struct tally {
    unsigned ok, unsure, refused;
} tally_t;

/* One input, Python's verdict on it known: the streaming reader refuses
 * exactly what Python refuses, and otherwise gives json-c's table. */
static void compare(const char *data, size_t len, int python_reads, unsigned round, tally_t *tally)
{
    aorta_kernels_t *expected = reference(data, len);
    aorta_kernels_t *stream = aorta_kernels_new(0);
    proton_read_t status = streamed(data, len, some_block(), stream);
    if (!python_reads) {
        if (status != PROTON_READ_REFUSED)
            show("read what Python refuses", round, data, len);
        ck_assert_int_eq(status, PROTON_READ_REFUSED);
        tally->refused++;
    } else {
        if (status == PROTON_READ_REFUSED || !expected)
            show(status == PROTON_READ_REFUSED ? "refused what Python reads"
                                               : "json-c refuses what Python reads",
                 round, data, len);
        ck_assert_int_ne(status, PROTON_READ_REFUSED);
        ck_assert_ptr_nonnull(expected);
        if (status == PROTON_READ_OK) {
            if (!same_kernels(expected, stream))
                show("the streamed leaves differ", round, data, len);
            ck_assert(same_kernels(expected, stream));
            tally->ok++;
        } else {
            ck_assert_int_eq(status, PROTON_READ_UNSURE);
            tally->unsure++;
        }
    }
    /* The collector's reader: the same, the fallback included. */
    aorta_kernels_t *collector = aorta_kernels_new(0);
    proton_read_t whole = counted(data, len, collector);
    ck_assert_int_eq(whole == PROTON_READ_OK, python_reads);
    if (python_reads)
        ck_assert(same_kernels(expected, collector));
    aorta_kernels_free(collector);
    aorta_kernels_free(stream);
    aorta_kernels_free(expected);
}

static void generated(enum level level, unsigned rounds, tally_t *tally)
{
    char **inputs = malloc(rounds * sizeof *inputs);
    size_t *lens = malloc(rounds * sizeof *lens);
    for (unsigned i = 0; i < rounds; i++)
        inputs[i] = profile(level, &lens[i]);
    unsigned char *verdicts = python_verdicts(inputs, lens, rounds);
    for (unsigned i = 0; i < rounds; i++) {
        compare(inputs[i], lens[i], verdicts[i], i, tally);
        free(inputs[i]);
    }
    free(verdicts);
    free(inputs);
    free(lens);
}

START_TEST(clean_trees_stream_and_count_what_json_c_counts)
{
    if (!have_python())
        return;
    tally_t tally = {0};
    generated(CLEAN, 2000, &tally);
    /* Proton's own shape never needs the fallback. */
    ck_assert_uint_eq(tally.ok, 2000);
}
END_TEST

START_TEST(odd_trees_count_what_json_c_counts)
{
    if (!have_python())
        return;
    tally_t tally = {0};
    generated(ODD, 3000, &tally);
    ck_assert_uint_eq(tally.refused, 0); /* all of it valid JSON */
    ck_assert_uint_gt(tally.ok, 2000);
    ck_assert_uint_gt(tally.unsure, 10); /* a repeated "children" after leaves */
}
END_TEST

START_TEST(hostile_trees_are_refused_where_python_refuses_them)
{
    if (!have_python())
        return;
    tally_t tally = {0};
    generated(HOSTILE, 3500, &tally);
    ck_assert_uint_gt(tally.ok, 500);
    ck_assert_uint_gt(tally.refused, 1000);
}
END_TEST

/* Each listed text: Python's verdict, then the comparison. */
static void listed(const char *const *texts, size_t n)
{
    char **inputs = malloc(n * sizeof *inputs);
    size_t *lens = malloc(n * sizeof *lens);
    for (size_t i = 0; i < n; i++) {
        inputs[i] = (char *)texts[i];
        lens[i] = strlen(texts[i]);
    }
    unsigned char *verdicts = python_verdicts(inputs, lens, n);
    tally_t tally = {0};
    for (size_t i = 0; i < n; i++)
        compare(inputs[i], lens[i], verdicts[i], (unsigned)i, &tally);
    free(verdicts);
    free(inputs);
    free(lens);
}

#define LEAF(name, metrics) \
    "[{\"frame\":{\"name\":" name "},\"metrics\":{" metrics "},\"children\":[]}]"

START_TEST(strictness_is_python_s)
{
    if (!have_python())
        return;
    /* What json-c takes and Python refuses (a differential fuzz against
     * upstream found each), and their valid neighbours. */
    static const char *const texts[] = {
        LEAF("\"k\"", "'time (ns)':5"),
        LEAF("\"k\"", "\"time (ns)\":1."),
        LEAF("\"k\"", "\"time (ns)\":1.e5"),
        LEAF("\"k\"", "\"time (ns)\":-01"),
        LEAF("\"k\"", "\"time (ns)\":01"),
        LEAF("\"k\"", "\"time (ns)\":1.0"),
        LEAF("\"k\"", "\"time (ns)\":1e5"),
        LEAF("\"k\"", "\"time (ns)\":-0"),
        LEAF("\"k\tx\"", "\"time (ns)\":5"),
        LEAF("\"k\x01\"", "\"time (ns)\":5"),
        LEAF("\"k\x1f\"", "\"time (ns)\":5"),
        LEAF("\"k\x7f\"", "\"time (ns)\":5"),
        LEAF("\"k\\tx\"", "\"time (ns)\":5"),
        "\xef\xbb\xbf" LEAF("\"k\"", "\"time (ns)\":5"),
        LEAF("\"k\"", "\"time (ns)\":5") " ",
        LEAF("\"k\"", "\"time (ns)\":5") "\n\r\t ",
        LEAF("\"k\"", "\"time (ns)\":5") " x",
        LEAF("\"k\"", "\"time (ns)\":5") "\f",
        LEAF("\"k\"", "\"time (ns)\":5") "[]",
        "\f" LEAF("\"k\"", "\"time (ns)\":5"),
        LEAF("\"k\"", "\"time (ns)\":NaN"),
        LEAF("\"k\"", "\"time (ns)\":-Infinity,\"time (us)\":2"),
        LEAF("\"k\"", "\"time (ns)\":-NaN"),
        LEAF("\"k\"", "\"time (ns)\":infinity"),
        LEAF("\"k\"", "\"time (ns)\":5,}"),
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":5},\"children\":[],}]",
        "[{\"frame\":{\"name\":\"k\"} \"metrics\":{\"time (ns)\":5}}]",
        "{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":5}}",
        "5", "null", "\"x\"", "[]", "{}", "", " ", "[", "]", "[1]]", "{\"a\" 1}",
    };
    listed(texts, sizeof texts / sizeof texts[0]);
}
END_TEST

/* The streaming reader's table of one valid text (asserted OK). */
static aorta_kernels_t *stream_of(const char *text)
{
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    ck_assert_int_eq(streamed(text, strlen(text), JSON_STREAM_BLOCK, kernels), PROTON_READ_OK);
    return kernels;
}

START_TEST(numeric_strings_edged_with_x1c_x1f_are_no_number)
{
    /* Python's float() strips only " \t\n\v\f\r" and Unicode spaces, not
     * the \x1c-\x1f that str.strip() takes off. */
    static const struct {
        const char *time;
        int read;
    } cases[] = {
        {"\"5\"", 1}, {"\" 5\\n\"", 1}, {"\"\\u000b5\\u000c\"", 1}, {"\"\\u30005\\u3000\"", 1},
        {"\"\\u00855\"", 1}, {"\"\\u001c5\"", 0}, {"\"5\\u001d\"", 0}, {"\"\\u001e5\"", 0},
        {"\"5\\u001f\"", 0}, {"\"5\\u001c5\"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, LEAF("\"k\"", "\"time (ms)\":%s,\"time (us)\":2000"),
                 cases[i].time);
        aorta_kernels_t *kernels = stream_of(text);
        aorta_kernels_t *expected = reference(text, strlen(text));
        ck_assert(same_kernels(kernels, expected));
        ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
        /* 5 ms when the string is a number, else the next key's 2 ms. */
        ck_assert_double_eq(aorta_kernels_time_at(kernels, 0), cases[i].read ? 5.0 : 2.0);
        aorta_kernels_free(kernels);
        aorta_kernels_free(expected);
    }
}
END_TEST

START_TEST(names_decode_as_json_c_decodes_them)
{
    static const struct {
        const char *json;
        const char *bytes;
        size_t len;
    } cases[] = {
        {"\"a\\u0000b\"", "a\0b", 3},
        {"\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4},
        {"\"\\ud800\"", "\xef\xbf\xbd", 3},
        {"\"\\udc00x\"", "\xef\xbf\xbdx", 4},
        {"\"\\ud800\\ud800\"", "\xef\xbf\xbd\xef\xbf\xbd", 6},
        {"\"\\ud800\\ud800\\udc00\"", "\xef\xbf\xbd\xf0\x90\x80\x80", 7},
        {"\"\\ud800\\nk\"", "\xef\xbf\xbd\nk", 5},
        {"\"\\ud800\\u0041\"", "\xef\xbf\xbd" "A", 4},
        {"\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf", 4},
        {"\"\\u00e9\\u20ac\"", "\xc3\xa9\xe2\x82\xac", 5},
        {"\"\\\"\\\\\\/\\b\\f\\n\\r\\tk\"", "\"\\/\b\f\n\r\tk", 9},
        {"1e400", "inf", 3},
        {"-1e400", "-inf", 4},
        {"NaN", "nan", 3},
        {"2.5", "2.5", 3},
        {"1e22", "1e+22", 5},
        {"1e16", "1e+16", 5},
        {"123456789012345678901234567890", "18446744073709551615", 20},
        {"-123456789012345678901234567890", "-9223372036854775808", 20},
        {"9223372036854775808", "9223372036854775808", 19},
        {"true", "True", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, LEAF("%s", "\"time (ns)\":5"), cases[i].json);
        aorta_kernels_t *kernels = stream_of(text);
        aorta_kernels_t *expected = reference(text, strlen(text));
        ck_assert_msg(same_kernels(kernels, expected), "case %zu", i);
        size_t len;
        const char *name = aorta_kernels_name_at(kernels, 0, &len);
        ck_assert_msg(len == cases[i].len && memcmp(name, cases[i].bytes, len) == 0,
                      "case %zu: %.*s", i, (int)len, name);
        aorta_kernels_free(kernels);
        aorta_kernels_free(expected);
    }
}
END_TEST

START_TEST(repeated_members_take_the_last_value_in_the_first_place)
{
    static const struct {
        const char *json;
        double ms;
        int64_t count;
    } cases[] = {
        /* The first usable time key in the object's order: a repeated key
         * keeps its first place with its last value. */
        {LEAF("\"k\"", "\"time (ns)\":\"x\",\"time (us)\":5,\"time (ns)\":7000000"), 7.0, -1},
        {LEAF("\"k\"", "\"time (ns)\":7000000,\"time (us)\":5,\"time (ns)\":\"x\""), 0.005, -1},
        {LEAF("\"k\"", "\"count\":1,\"time (ms)\":2,\"count\":3"), 2.0, 3},
        {LEAF("\"k\"", "\"count\":1,\"time (ms)\":2,\"count\":[]"), 2.0, -1},
        {LEAF("\"k\"", "\"time (ms)\":2,\"time (ms)\\u0000x\":4"), 4.0, -1},
        {"[{\"frame\":{\"name\":\"a\",\"name\":\"k\"},\"metrics\":{\"time (ms)\":1}}]", 1.0, -1},
        {"[{\"frame\":{\"name\":\"a\"},\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":1}}]",
         1.0, -1},
        {"[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":9},\"metrics\":{\"time (ms)\":1}}]",
         1.0, -1},
        {"[{\"children\":[1],\"children\":[],\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":1}}]",
         1.0, -1},
        {"[{\"children\\u0000\":[1],\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":1}},"
         "{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":0}}]",
         0.0, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        aorta_kernels_t *kernels = stream_of(cases[i].json);
        aorta_kernels_t *expected = reference(cases[i].json, strlen(cases[i].json));
        ck_assert_msg(same_kernels(kernels, expected), "case %zu", i);
        ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
        ck_assert_msg(aorta_kernels_time_at(kernels, 0) == cases[i].ms, "case %zu: %g", i,
                      aorta_kernels_time_at(kernels, 0));
        ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), cases[i].count);
        aorta_kernels_free(kernels);
        aorta_kernels_free(expected);
    }
}
END_TEST

/* Up to 32 distinct time keys in one metrics object are read in the one
 * pass; more go to json-c (TIME_KEYS_MAX). */
static char *time_keys(int n)
{
    text_t t = {0};
    add(&t, "[{\"frame\":{\"name\":\"k\"},\"metrics\":{");
    for (int i = 0; i < n; i++)
        add(&t, "%s\"time%*s(ns)\":%s", i ? "," : "", i, "", i == n - 1 ? "7" : "\"x\"");
    add(&t, "}}]");
    return t.data;
}

START_TEST(thirty_two_time_keys_are_read_in_one_pass)
{
    for (int n = 31; n <= 33; n++) {
        char *text = time_keys(n);
        aorta_kernels_t *kernels = aorta_kernels_new(0);
        ck_assert_int_eq(streamed(text, strlen(text), JSON_STREAM_BLOCK, kernels),
                         n <= 32 ? PROTON_READ_OK : PROTON_READ_UNSURE);
        aorta_kernels_t *expected = reference(text, strlen(text));
        if (n <= 32)
            ck_assert(same_kernels(kernels, expected));
        ck_assert_uint_eq(aorta_kernels_count(expected), 1);
        aorta_kernels_free(expected);
        aorta_kernels_free(kernels);
        free(text);
    }
}
END_TEST

/* A phase number has at most 18 digits; missing phases are named in at
 * most 8 runs. */
START_TEST(phase_names_and_missing_runs)
{
    long long phase;
    const char *p18 = "a/proton.part_123456789012345678";
    ck_assert_uint_eq(proton_profile_name(p18, strlen(p18), &phase), strlen("a/proton"));
    ck_assert_int_eq(phase, 123456789012345678LL);
    const char *p19 = "a/proton.part_1234567890123456789";
    ck_assert_uint_eq(proton_profile_name(p19, strlen(p19), &phase), strlen(p19));
    ck_assert_int_eq(phase, -1);
    const char *whole = "a/proton";
    ck_assert_uint_eq(proton_profile_name(whole, strlen(whole), &phase), strlen(whole));
    ck_assert_int_eq(phase, -1);

    proton_sessions_t *sessions = proton_sessions_new();
    proton_session_t *session = proton_sessions_get(sessions, "a/proton", 8);
    for (long long i = 20; i >= 0; i -= 2)
        proton_session_add_phase(session, i);
    char *missing = proton_session_missing(session);
    ck_assert_str_eq(missing, "1, 3, 5, 7, 9, 11, 13, 15, ...");
    free(missing);
    proton_session_t *other = proton_sessions_get(sessions, "b", 1);
    proton_session_add_phase(other, 0);
    proton_session_add_phase(other, 4);
    proton_session_add_phase(other, 2);
    proton_session_add_phase(other, 3);
    missing = proton_session_missing(other);
    ck_assert_str_eq(missing, "1");
    free(missing);
    proton_session_add_phase(other, 7);
    missing = proton_session_missing(other);
    ck_assert_str_eq(missing, "1, 5-6");
    free(missing);
    proton_sessions_free(sessions);
}
END_TEST

START_TEST(leaves_replaced_by_a_second_children_go_to_json_c)
{
    const char *text = "[{\"children\":[{\"frame\":{\"name\":\"a\"},\"metrics\":{\"time (ms)\":1}}],"
                       "\"children\":[],\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ms)\":2}}]";
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    ck_assert_int_eq(streamed(text, strlen(text), 64, kernels), PROTON_READ_UNSURE);
    aorta_kernels_free(kernels);
    kernels = aorta_kernels_new(0);
    ck_assert_int_eq(counted(text, strlen(text), kernels), PROTON_READ_OK);
    aorta_kernels_t *expected = reference(text, strlen(text));
    ck_assert(same_kernels(kernels, expected));
    ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
    ck_assert_str_eq(aorta_kernels_name_at(kernels, 0, NULL), "k");
    aorta_kernels_free(expected);
    aorta_kernels_free(kernels);
    /* Unsure, and then invalid further on: refused, never handed to json-c. */
    const char *bad = "[{\"children\":[{\"frame\":{\"name\":\"a\"},\"metrics\":{\"time (ms)\":1}}],"
                      "\"children\":[],\"frame\":{\"name\":'k'}}]";
    kernels = aorta_kernels_new(0);
    ck_assert_int_eq(streamed(bad, strlen(bad), 64, kernels), PROTON_READ_REFUSED);
    ck_assert_int_eq(counted(bad, strlen(bad), kernels), PROTON_READ_REFUSED);
    aorta_kernels_free(kernels);
}
END_TEST

/* A chain of nodes putting innermost at level 2 * frames - 1. */
static char *chain(int frames, const char *innermost, size_t *len)
{
    text_t t = {0};
    add(&t, "[");
    for (int i = 0; i < frames - 1; i++)
        add(&t, "{\"children\":[");
    add(&t, "%s", innermost);
    for (int i = 0; i < frames - 1; i++)
        add(&t, "]}");
    add(&t, "]");
    *len = t.len;
    return t.data;
}

START_TEST(the_depth_limit_is_json_c_s)
{
    /* A container at level 9999 may only be empty: json-c refuses any value
     * at level 10,000.  (Python's own limit is its recursion limit, about
     * 1,000: docs/design.md, Deviation 3.) */
    static const struct {
        int frames;
        const char *innermost;
        int readable;
    } cases[] = {
        {4999, "{\"children\":[{}]},{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":5}}", 1},
        {4999, "{\"children\":[[ ]]}", 1},
        {4999, "{\"children\":[5]}", 1},
        {4999, "{\"children\":[\"s\"]}", 1},
        {4995, "{\"metrics\":{\"a\":[[[[[[[[[]]]]]]]]]}}", 1},
        {4999, "{\"children\":[{\"frame\":{}}]}", 0},
        {4999, "{\"children\":[[1]]}", 0},
        {4999, "{\"children\":[[\"s\"]]}", 0},
        {4999, "{\"children\":[[{}]]}", 0},
        {4995, "{\"metrics\":{\"a\":[[[[[[[[[0]]]]]]]]]}}", 0},
        {5500, "{}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *data = chain(cases[i].frames, cases[i].innermost, &len);
        aorta_kernels_t *expected = reference(data, len);
        ck_assert_msg((expected != NULL) == cases[i].readable, "case %zu", i);
        aorta_kernels_t *kernels = aorta_kernels_new(0);
        proton_read_t status = streamed(data, len, some_block(), kernels);
        ck_assert_int_eq(status, cases[i].readable ? PROTON_READ_OK : PROTON_READ_REFUSED);
        if (expected)
            ck_assert(same_kernels(expected, kernels));
        if (i == 0)
            ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
        aorta_kernels_free(kernels);
        aorta_kernels_free(expected);
        free(data);
    }
}
END_TEST

START_TEST(a_capture_cut_at_every_offset_is_read_only_whole)
{
    if (!have_python())
        return;
    char *path = tu_srcdir("tests/collectors/proton/fixtures/h200_env/proton.hatchet");
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    size_t len = strlen(text);
    char **inputs = malloc((len + 1) * sizeof *inputs);
    size_t *lens = malloc((len + 1) * sizeof *lens);
    for (size_t i = 0; i <= len; i++) {
        inputs[i] = text;
        lens[i] = i;
    }
    unsigned char *verdicts = python_verdicts(inputs, lens, len + 1);
    tally_t tally = {0};
    for (size_t i = 0; i <= len; i++)
        compare(text, i, verdicts[i], (unsigned)i, &tally);
    /* Whole (with or without its last newline) and nothing shorter. */
    ck_assert_uint_ge(tally.ok, 1);
    ck_assert_uint_le(tally.ok, 2);
    ck_assert(verdicts[len]);
    free(verdicts);
    free(inputs);
    free(lens);
    free(text);
    free(path);
}
END_TEST

START_TEST(every_block_size_reads_the_same)
{
    char *path = tu_srcdir("tests/collectors/proton/fixtures/h200_cli/proton.hatchet");
    char *text = tu_read(path);
    size_t len = strlen(text);
    aorta_kernels_t *expected = reference(text, len);
    ck_assert_ptr_nonnull(expected);
    ck_assert_uint_eq(aorta_kernels_count(expected), 5);
    for (size_t block = 1; block <= 300; block++) {
        aorta_kernels_t *kernels = aorta_kernels_new(0);
        ck_assert_int_eq(streamed(text, len, block, kernels), PROTON_READ_OK);
        ck_assert_msg(same_kernels(expected, kernels), "block %zu", block);
        aorta_kernels_free(kernels);
    }
    aorta_kernels_free(expected);
    free(text);
    free(path);
}
END_TEST

START_TEST(a_token_longer_than_the_block_is_held_whole)
{
    /* A name of 300,000 bytes read in 4 KiB blocks. */
    size_t n = 300000;
    text_t t = {0};
    add(&t, "[{\"frame\":{\"name\":\"");
    for (size_t i = 0; i < n; i++)
        add(&t, "%c", 'a' + (char)(i % 26));
    add(&t, "\"},\"metrics\":{\"x\":");
    for (size_t i = 0; i < 5000; i++)
        add(&t, "%c", i ? '0' : '1');
    add(&t, ".5,\"time (ns)\":5}}]");
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    ck_assert_int_eq(streamed(t.data, t.len, 4096, kernels), PROTON_READ_OK);
    aorta_kernels_t *expected = reference(t.data, t.len);
    ck_assert(same_kernels(expected, kernels));
    size_t len;
    aorta_kernels_name_at(kernels, 0, &len);
    ck_assert_uint_eq(len, n);
    aorta_kernels_free(kernels);
    aorta_kernels_free(expected);
    free(t.data);
}
END_TEST

/* ---- hatchet_msgpack against Python's msgpack ---------------------------- */

#if HAVE_MSGPACK
/* Python's reading of inputs[0..n) (msgpack_verdicts.py): per input, read,
 * launches, ms and kernels; NULL when python3-msgpack is missing. */
typedef struct mp_verdict {
    int read;
    long long launches;
    double ms;
    size_t kernels;
} mp_verdict_t;

static mp_verdict_t *msgpack_verdicts(char **inputs, const size_t *lens, size_t n)
{
    char *dir = inputs_dir(inputs, lens, n);
    char *script = tu_srcdir("tests/collectors/proton/msgpack_verdicts.py");
    char *argv[] = {PYTHON, script, dir, NULL};
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, NULL, &out, &err);
    mp_verdict_t *verdicts = NULL;
    if (status != 77) {
        ck_assert_msg(status == 0, "msgpack_verdicts.py: %d %s", status, err ? err : "");
        verdicts = calloc(n, sizeof *verdicts);
        const char *line = out;
        for (size_t i = 0; i < n; i++) {
            size_t index;
            int got = sscanf(line, "%zu %d %lld %lf %zu", &index, &verdicts[i].read,
                             &verdicts[i].launches, &verdicts[i].ms, &verdicts[i].kernels);
            ck_assert_int_ge(got, 2);
            ck_assert_uint_eq(index, i);
            line = strchr(line, '\n');
            ck_assert_ptr_nonnull(line);
            line++;
        }
    }
    free(out);
    free(err);
    free(script);
    tu_rmtree(dir);
    free(dir);
    return verdicts;
}

/* The msgpack reader's verdict and table of one input. */
static proton_read_t msgpack_read(const char *data, size_t len, aorta_kernels_t *kernels)
{
    int fd = file_of(data, len);
    proton_read_t status = proton_msgpack_read(fd, kernels);
    close(fd);
    return status;
}

START_TEST(hatchet_msgpack_is_read_as_python_s_msgpack_reads_it)
{
    if (!have_python())
        return;
    char *path = tu_srcdir("tests/collectors/proton/fixtures/generated/msgpack/proton.hatchet_msgpack");
    FILE *in = fopen(path, "rb");
    ck_assert_ptr_nonnull(in);
    char base[16384];
    size_t base_len = fread(base, 1, sizeof base, in);
    fclose(in);
    free(path);
    ck_assert_uint_gt(base_len, 1000);
    /* The bytes a mutation writes: types next to each other, and a few
     * Python refuses (0xc1, an int map key, a string not UTF-8). */
    static const unsigned char special[] = {0xc1, 0xc0, 0xc2, 0xc3, 0xc4, 0xd4, 0xd6, 0xd7,
                                            0xc7, 0xff, 0x80, 0x81, 0x90, 0x91, 0xa0, 0xa1,
                                            0xa8, 0xd9, 0xcc, 0xcd, 0xce, 0xcf, 0xd3, 0xca,
                                            0xcb, 0xde, 0xdc, 0xed, 0xe0, 0x00, 0x7f};
    /* One leaf beside an extension value: msgpack's timestamp (type -1)
     * is 4, 8 or 12 bytes with nanoseconds below 10^9, or Python refuses
     * the file; other types are any bytes. */
    static const struct {
        const char *ext;
        size_t len;
    } exts[] = {
        {"\xd6\xff\x00\x00\x00\x00", 6},
        {"\xd4\xff\x00", 3},
        {"\xd5\xff\x00\x00", 4},
        {"\xd7\xff\x00\x00\x00\x14\x00\x00\x00\x07", 10},
        {"\xd7\xff\xee\x6b\x28\x00\x00\x00\x00\x07", 10},
        {"\xc7\x0c\xff\x3b\x9a\xc9\xff\x00\x00\x00\x00\x00\x00\x00\x07", 15},
        {"\xc7\x0c\xff\x3b\x9a\xca\x00\x00\x00\x00\x00\x00\x00\x00\x07", 15},
        {"\xd4\x05\x00", 3},
    };
    enum { ROUNDS = 800, EXTS = sizeof exts / sizeof exts[0] };
    char *inputs[ROUNDS + 1 + EXTS];
    size_t lens[ROUNDS + 1 + EXTS];
    static const char head[] = "\x91\x83\xa5" "frame\x81\xa4" "name\xa1k\xa7" "metrics\x82\xa9"
                               "time (ns)\x05\xa1x";
    static const char tail[] = "\xa8" "children\x90";
    for (size_t e = 0; e < EXTS; e++) {
        size_t len = sizeof head - 1 + exts[e].len + sizeof tail - 1;
        char *data = malloc(len);
        memcpy(data, head, sizeof head - 1);
        memcpy(data + sizeof head - 1, exts[e].ext, exts[e].len);
        memcpy(data + sizeof head - 1 + exts[e].len, tail, sizeof tail - 1);
        inputs[ROUNDS + 1 + e] = data;
        lens[ROUNDS + 1 + e] = len;
    }
    for (unsigned r = 0; r < ROUNDS; r++) {
        char *data = malloc(base_len + 8);
        memcpy(data, base, base_len);
        size_t len = base_len;
        for (unsigned m = 0, n = 1 + pick(3); m < n && len > 2; m++) {
            size_t at = pick((unsigned)len);
            if (pick(2) && (unsigned char)data[at] >= 0x20 && (unsigned char)data[at] < 0x7f) {
                /* Text stays text: a name or a key changes, the structure
                 * stays (a control character or a multibyte lead now and
                 * then). */
                static const char text[] = " \t\x1c\xc3\xe2" "aZ09_.()nsumt-+";
                data[at] = text[pick(sizeof text - 1)];
                continue;
            }
            switch (pick(6)) {
            case 0:
                len = at + 1; /* cut short */
                break;
            case 1:
                memmove(data + at + 1, data + at, len - at);
                data[at] = (char)PICK(special);
                len++;
                break;
            case 2:
                memmove(data + at, data + at + 1, len - at - 1);
                len--;
                break;
            case 3:
                data[at] = (char)pick(256);
                break;
            default:
                data[at] = (char)PICK(special);
                break;
            }
        }
        inputs[r] = data;
        lens[r] = len;
    }
    /* A leaf name that is not UTF-8: Python refuses the whole file. */
    inputs[ROUNDS] = malloc(base_len);
    memcpy(inputs[ROUNDS], base, base_len);
    lens[ROUNDS] = base_len;
    char *add = memmem(inputs[ROUNDS], base_len, "add_kernel", 10);
    ck_assert_ptr_nonnull(add);
    add[0] = (char)0xff;
    mp_verdict_t *verdicts = msgpack_verdicts(inputs, lens, ROUNDS + 1 + EXTS);
    if (!verdicts) {
        fprintf(stderr, "check_proton_stream: no python3-msgpack: msgpack verdicts skipped\n");
    } else {
        unsigned read = 0, refused = 0;
        for (unsigned r = 0; r < ROUNDS + 1 + EXTS; r++) {
            aorta_kernels_t *kernels = aorta_kernels_new(0);
            proton_read_t status = msgpack_read(inputs[r], lens[r], kernels);
            if (!verdicts[r].read) {
                ck_assert_msg(status == PROTON_READ_REFUSED, "round %u: read what Python refuses", r);
                refused++;
            } else if (status != PROTON_READ_UNSURE) {
                ck_assert_msg(status == PROTON_READ_OK, "round %u: refused what Python reads", r);
                int64_t launches = 0;
                double ms = 0;
                for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
                    int64_t n = aorta_kernels_launches_at(kernels, i);
                    launches = launches < 0 || n < 0 ? -1 : launches + n;
                    ms += aorta_kernels_time_at(kernels, i);
                }
                ck_assert_msg(verdicts[r].kernels == aorta_kernels_count(kernels)
                                  && verdicts[r].launches == launches && verdicts[r].ms == ms,
                              "round %u: %lld launches, %.17g ms, %zu kernels; Python %lld, %.17g, %zu",
                              r, (long long)launches, ms, aorta_kernels_count(kernels),
                              verdicts[r].launches, verdicts[r].ms, verdicts[r].kernels);
                read++;
            }
            aorta_kernels_free(kernels);
        }
        ck_assert(!verdicts[ROUNDS].read);
        /* Valid and invalid timestamps, and another extension type. */
        ck_assert(verdicts[ROUNDS + 1].read && !verdicts[ROUNDS + 2].read);
        ck_assert(verdicts[ROUNDS + 4].read && !verdicts[ROUNDS + 5].read);
        ck_assert(verdicts[ROUNDS + 6].read && !verdicts[ROUNDS + 7].read);
        ck_assert(verdicts[ROUNDS + EXTS].read);
        ck_assert_uint_gt(read, 50);
        ck_assert_uint_gt(refused, 200);
        free(verdicts);
    }
    for (unsigned r = 0; r < ROUNDS + 1 + EXTS; r++)
        free(inputs[r]);
}
END_TEST
#endif

START_TEST(the_window_masks_are_the_byte_loop_s)
{
    unsigned char bytes[JSON_WINDOW];
    for (unsigned value = 0; value < 256; value++) {
        for (unsigned at = 0; at < JSON_WINDOW; at++) {
            for (unsigned i = 0; i < JSON_WINDOW; i++)
                bytes[i] = (unsigned char)(i == at ? value : 'a' + i % 3);
            json_window_t loop, fast;
            json_window_bytes(&loop, bytes);
            json_window_load(&fast, bytes);
            ck_assert(memcmp(&loop, &fast, sizeof loop) == 0);
#if defined(JSON_WINDOW_WORDS)
            json_window_words(&fast, bytes);
            ck_assert(memcmp(&loop, &fast, sizeof loop) == 0);
#endif
        }
    }
    ck_assert_uint_eq(json_prefix_xor(0x11), 0xf);
}
END_TEST

static Suite *proton_stream_suite(void)
{
    Suite *suite = suite_create("proton_stream");
    TCase *tc = tcase_create("differential");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, clean_trees_stream_and_count_what_json_c_counts);
    tcase_add_test(tc, odd_trees_count_what_json_c_counts);
    tcase_add_test(tc, hostile_trees_are_refused_where_python_refuses_them);
    tcase_add_test(tc, strictness_is_python_s);
    tcase_add_test(tc, a_capture_cut_at_every_offset_is_read_only_whole);
    suite_add_tcase(suite, tc);
    TCase *rules = tcase_create("rules");
    tcase_set_timeout(rules, 120);
    tcase_add_test(rules, numeric_strings_edged_with_x1c_x1f_are_no_number);
    tcase_add_test(rules, names_decode_as_json_c_decodes_them);
    tcase_add_test(rules, repeated_members_take_the_last_value_in_the_first_place);
    tcase_add_test(rules, thirty_two_time_keys_are_read_in_one_pass);
    tcase_add_test(rules, phase_names_and_missing_runs);
    tcase_add_test(rules, leaves_replaced_by_a_second_children_go_to_json_c);
    tcase_add_test(rules, the_depth_limit_is_json_c_s);
    tcase_add_test(rules, every_block_size_reads_the_same);
    tcase_add_test(rules, a_token_longer_than_the_block_is_held_whole);
    tcase_add_test(rules, the_window_masks_are_the_byte_loop_s);
#if HAVE_MSGPACK
    tcase_add_test(tc, hatchet_msgpack_is_read_as_python_s_msgpack_reads_it);
#endif
    suite_add_tcase(suite, rules);
    return suite;
}

int main(void)
{
    /* The differential needs Python's verdicts; the rules do not. */
    if (!have_python())
        fprintf(stderr, "check_proton_stream: no %s: Python's verdicts skipped\n", PYTHON);
    SRunner *runner = srunner_create(proton_stream_suite());
    srunner_run_all(runner, CK_ENV);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    if (failed)
        return 1;
    return have_python() ? 0 : 77;
}
