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

/* A small hash of data, to derive deterministic choices from an input. */
uint32_t fz_hash(const void *data, size_t len);

#endif
