/* SPDX-License-Identifier: MIT */
/* The core's whole-file helpers: the atomic write every JSON file and
 * perf.md go through, the no-follow read of a bounded regular file, and the
 * read of a file the user names (recipe, sidecar). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/files.h"
#include "testutil.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
}

/* Names in dir other than "." and "..", counted. */
static size_t entries(void)
{
    char *out = NULL;
    char *argv[] = {"ls", "-A", dir, NULL};
    ck_assert_int_eq(tu_run(argv, NULL, &out, NULL), 0);
    size_t count = 0;
    for (const char *c = out; *c; c++)
        count += *c == '\n';
    free(out);
    return count;
}

START_TEST(atomic_write_replaces_the_file_whole)
{
    char *path = tu_join(dir, "matrix.json");
    ck_assert_int_eq(ar_write_file_atomic(path, "a\0b", 3), 0);
    size_t len = 0;
    char *back = ar_read_file_at(AT_FDCWD, path, 16, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(memcmp(back, "a\0b", 4), 0); /* NUL-terminated too */
    free(back);
    ck_assert_int_eq(ar_write_file_atomic(path, "new", 3), 0);
    char *text = tu_read(path);
    ck_assert_str_eq(text, "new");
    free(text);
    ck_assert_uint_eq(entries(), 1); /* no temporary left */
    free(path);
}
END_TEST

START_TEST(atomic_write_never_writes_through_a_symlink)
{
    char *victim = tu_join(dir, "victim");
    tu_write(victim, "untouched");
    /* A link at the destination is replaced, not followed. */
    char *path = tu_join(dir, "perf.md");
    ck_assert_int_eq(symlink(victim, path), 0);
    ck_assert_int_eq(ar_write_file_atomic(path, "report", 6), 0);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    /* A link or a FIFO (whose open would block) planted at the temporary
     * name is left alone: the write takes another name. */
    char *other = tu_join(dir, "host_env.json");
    char *temporary = malloc(strlen(other) + 32), *fifo = malloc(strlen(other) + 32);
    sprintf(temporary, "%s.tmp.%ld.0", other, (long)getpid());
    sprintf(fifo, "%s.tmp.%ld.1", other, (long)getpid());
    ck_assert_int_eq(symlink(victim, temporary), 0);
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    ck_assert_int_eq(ar_write_file_atomic(other, "x", 1), 0);
    char *text = tu_read(other);
    ck_assert_str_eq(text, "x");
    free(text);
    text = tu_read(victim);
    ck_assert_str_eq(text, "untouched");
    free(text);
    ck_assert_int_eq(lstat(temporary, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    free(fifo);
    free(temporary);
    free(other);
    free(path);
    free(victim);
}
END_TEST

/* A file that already holds the bytes is left as it is (the same inode);
 * anything else, a link or a FIFO at the name included, is replaced. */
START_TEST(update_leaves_an_identical_file_and_replaces_the_rest)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(fd, 0);
    char big[40000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", big, sizeof big), 0);
    char *path = tu_join(dir, "kernels.json");
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", big, sizeof big), 0);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_uint_eq(before.st_ino, after.st_ino);
    /* The last byte differs, then the length: replaced each time. */
    big[sizeof big - 1] = '!';
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", big, sizeof big), 0);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_uint_ne(before.st_ino, after.st_ino);
    size_t len = 0;
    char *back = ar_read_file_at(fd, "kernels.json", sizeof big, &len);
    ck_assert_uint_eq(len, sizeof big);
    ck_assert_int_eq(memcmp(back, big, len), 0);
    free(back);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", "x", 1), 0);
    char *text = tu_read(path);
    ck_assert_str_eq(text, "x");
    free(text);
    /* A second link to it: not ours alone, so replaced, the other name
     * untouched. */
    char *other = tu_join(dir, "other");
    ck_assert_int_eq(link(path, other), 0);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", "x", 1), 0);
    struct stat linked;
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_int_eq(stat(other, &linked), 0);
    ck_assert_uint_ne(after.st_ino, linked.st_ino);
    ck_assert_uint_eq(after.st_nlink, 1);
    /* A symlink to a file with the bytes, and a FIFO: replaced, never read
     * through or waited on. */
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(symlink(other, path), 0);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", "x", 1), 0);
    ck_assert_int_eq(lstat(path, &after), 0);
    ck_assert(S_ISREG(after.st_mode));
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    ck_assert_int_eq(ar_update_file_at(fd, "kernels.json", "x", 1), 0);
    ck_assert_int_eq(lstat(path, &after), 0);
    ck_assert(S_ISREG(after.st_mode));
    ck_assert_uint_eq(entries(), 2); /* kernels.json, other: no temporary left */
    free(other);
    free(path);
    close(fd);
}
END_TEST

START_TEST(atomic_write_fails_cleanly)
{
    char *path = tu_join(dir, "missing/result.json");
    errno = 0;
    ck_assert_int_eq(ar_write_file_atomic(path, "x", 1), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_uint_eq(entries(), 0);
    free(path);
}
END_TEST

static void expect_refused(int dir_fd, const char *name, size_t max_bytes, int expected_errno)
{
    size_t len = 12345;
    errno = 0;
    ck_assert_ptr_null(ar_read_file_at(dir_fd, name, max_bytes, &len));
    ck_assert_msg(errno == expected_errno, "%s: errno %d, expected %d", name, errno,
                  expected_errno);
}

START_TEST(bounded_read_takes_only_a_regular_file)
{
    char *path = tu_join(dir, "artifacts.json");
    tu_write(path, "{\"artifacts\": []}");
    char *empty = tu_join(dir, "empty");
    tu_write(empty, "");
    char *link = tu_join(dir, "link.json");
    ck_assert_int_eq(symlink(path, link), 0);
    char *sub = tu_join(dir, "sub");
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    char *fifo = tu_join(dir, "fifo");
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);

    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ck_assert_int_ge(dir_fd, 0);
    size_t len = 0;
    char *text = ar_read_file_at(dir_fd, "artifacts.json", 17, &len);
    ck_assert_uint_eq(len, 17);
    ck_assert_str_eq(text, "{\"artifacts\": []}");
    free(text);
    text = ar_read_file_at(dir_fd, "empty", 0, &len);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(text, "");
    free(text);
    expect_refused(dir_fd, "artifacts.json", 16, EFBIG);
    expect_refused(dir_fd, "link.json", 1 << 20, ELOOP);
    expect_refused(dir_fd, "sub", 1 << 20, EINVAL);
    expect_refused(dir_fd, "fifo", 1 << 20, EINVAL); /* and does not hang */
    expect_refused(dir_fd, "missing", 1 << 20, ENOENT);
    expect_refused(AT_FDCWD, link, 1 << 20, ELOOP);
    close(dir_fd);
    free(fifo);
    free(sub);
    free(link);
    free(empty);
    free(path);
}
END_TEST

START_TEST(user_file_read_follows_links_and_refuses_what_is_not_a_file)
{
    char *path = tu_join(dir, "recipe.yaml");
    tu_write(path, "schema_version: 1\n");
    char *link = tu_join(dir, "link.yaml");
    ck_assert_int_eq(symlink(path, link), 0);
    size_t len = 0;
    char *text = ar_read_user_file(link, 18, &len); /* the user's symlink is theirs */
    ck_assert_uint_eq(len, 18);
    ck_assert_str_eq(text, "schema_version: 1\n");
    free(text);
    errno = 0;
    ck_assert_ptr_null(ar_read_user_file(path, 17, &len));
    ck_assert_int_eq(errno, EFBIG);
    ck_assert_ptr_null(ar_read_user_file(dir, 1 << 20, &len));
    ck_assert_int_eq(errno, EISDIR);
    char *missing = tu_join(dir, "missing.yaml");
    ck_assert_ptr_null(ar_read_user_file(missing, 1 << 20, &len));
    ck_assert_int_eq(errno, ENOENT);
    /* A pipe, a FIFO with no writer (its open would block) and a device
     * are refused before they are opened. */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(write(fds[1], "a: 1\n", 5), 5);
    close(fds[1]);
    char pipe_path[64];
    snprintf(pipe_path, sizeof pipe_path, "/proc/self/fd/%d", fds[0]);
    errno = 0;
    ck_assert_ptr_null(ar_read_user_file(pipe_path, 5, &len));
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_str_eq(ar_path_kind(pipe_path), "a FIFO");
    close(fds[0]);
    char *fifo = tu_join(dir, "fifo.yaml");
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    errno = 0;
    ck_assert_ptr_null(ar_read_user_file(fifo, 1 << 20, &len));
    ck_assert_int_eq(errno, EINVAL);
    free(fifo);
    ck_assert_ptr_null(ar_read_user_file("/dev/zero", 1 << 20, &len));
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_str_eq(ar_path_kind("/dev/zero"), "a character device");
    free(missing);
    free(link);
    free(path);
}
END_TEST

static Suite *fsutil_suite(void)
{
    Suite *suite = suite_create("fsutil");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 30);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, atomic_write_replaces_the_file_whole);
    tcase_add_test(tc, atomic_write_never_writes_through_a_symlink);
    tcase_add_test(tc, atomic_write_fails_cleanly);
    tcase_add_test(tc, update_leaves_an_identical_file_and_replaces_the_rest);
    tcase_add_test(tc, bounded_read_takes_only_a_regular_file);
    tcase_add_test(tc, user_file_read_follows_links_and_refuses_what_is_not_a_file);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(fsutil_suite)
