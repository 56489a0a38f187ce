/* SPDX-License-Identifier: MIT */
/* fuzz_util.h - what the fuzz harnesses share: a scratch directory, files
 * written into it, and a descriptor that hands a buffer back in small reads
 * (so a reader's chunk boundaries fall everywhere).
 *
 * Every harness defines LLVMFuzzerTestOneInput().  Under libFuzzer
 * (tests/fuzz/run.sh) that is the fuzz target; under make check,
 * replay.c calls it over the checked-in inputs of tests/fuzz/corpus/. */
#ifndef AORTA_FUZZ_UTIL_H
#define AORTA_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop the process (abort) with a message: a harness's own check failed. */
void fz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* A directory for this process's files, made on first use under $TMPDIR
 * and removed at exit. */
const char *fz_scratch(void);
/* scratch/rel, malloc'd. */
char *fz_path(const char *rel);
/* Write len bytes to scratch/rel (parents made), replacing it. */
void fz_write(const char *rel, const void *data, size_t len);
/* rm -rf scratch/rel (no symlink followed); rel "" empties the scratch. */
void fz_remove(const char *rel);

/* A descriptor to read data from: its reads return the bytes cut into at
 * most max_pieces pieces at places drawn from seed (one read each), then
 * end of file.  Close it with close(). */
int fz_chunked_fd(const void *data, size_t len, unsigned max_pieces, uint32_t seed);

struct aorta_collector;

/* Write data into each of the NULL-terminated scratch paths under out/, run
 * the collector's parse() over out/ with default options, and check what
 * every parse promises: <name>_artifact_dir for an existing directory, no
 * negative or non-finite number, at most five names in a list, and the two
 * timings reported together. */
void fz_parse_collector(const struct aorta_collector *collector, const char *const *paths,
                        const uint8_t *data, size_t size);

/* A small hash of data, to derive deterministic choices from an input. */
uint32_t fz_hash(const void *data, size_t len);

#endif
