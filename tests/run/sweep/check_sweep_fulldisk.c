/* SPDX-License-Identifier: MIT */
/* A run on a real full filesystem: a 1 MiB tmpfs mounted in a private mount
 * namespace (unshare(1), as root or through a user namespace), filled by the
 * payload's own output.  Every file aorta-run then fails to write is one
 * line with the kernel's ENOSPC, the summary claims none of them, and the
 * exit status is 1.  (check_sweep_hostile covers each file in turn through
 * RLIMIT_FSIZE, which needs no mount.)  Skips with 77 where no tmpfs can be
 * mounted. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweeputil.h"
#include "sweeptest.h"
#include "xalloc.h"

static char *dir;

/* Whether argv runs and exits 0 (outside a test: no ck_assert here). */
static int succeeds(char *const *argv)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        dup2(null_fd, 1);
        dup2(null_fd, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
        && WEXITSTATUS(status) == 0;
}

/* The unshare(1) options that let this process mount a tmpfs, or NULL. */
static const char *const *mount_namespace(void)
{
    static const char *const as_user[] = {"--user", "--map-root-user", "--mount", NULL};
    static const char *const as_root[] = {"--mount", NULL};
    const char *const *ways[] = {as_root, as_user};
    char *target = ar_xasprintf("%s/probe", dir);
    mkdir(target, 0755);
    const char *const *found = NULL;
    for (size_t w = 0; w < 2 && !found; w++) {
        char *argv[8];
        size_t n = 0;
        argv[n++] = "unshare";
        for (size_t i = 0; ways[w][i]; i++)
            argv[n++] = (char *)ways[w][i];
        argv[n++] = "sh";
        argv[n++] = "-c";
        argv[n++] = "mount -t tmpfs -o size=64k tmpfs \"$0\"";
        argv[n++] = target;
        argv[n] = NULL;
        if (succeeds(argv))
            found = ways[w];
    }
    free(target);
    return found;
}

static const char *const *namespace_options;

START_TEST(a_full_disk_is_one_line_per_file_and_exit_1)
{
    char *unshare = tu_which("unshare");
    char *aorta = tu_aorta_run();
    char *disk = tu_fmt("%s/disk", dir);
    ck_assert_int_eq(mkdir(disk, 0755), 0);
    char *argv[24];
    size_t n = 0;
    argv[n++] = unshare;
    for (size_t i = 0; namespace_options[i]; i++)
        argv[n++] = (char *)namespace_options[i];
    argv[n++] = "sh";
    argv[n++] = "-c";
    argv[n++] = "mount -t tmpfs -o size=1m tmpfs \"$0\" && cd \"$0\" && exec \"$@\"";
    argv[n++] = disk;
    char *rest[] = {aorta, "--output", "out", "--ticket", "F", "--", "sh", "-c",
                    "head -c 3000000 /dev/zero", NULL};
    for (size_t i = 0; rest[i]; i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, NULL, &out, &err);
    ck_assert_msg(status == 1, "exit %d; stderr: %s", status, err);
    /* The payload's output that did not fit is aorta-run's failure to
     * capture it, said once. */
    ck_assert_msg(strstr(err, "aorta-run: cannot write out/F/none-none/trial_0/stdout.log: the "
                              "payload's output may be cut short: the disk is full"),
                  "%s", err);
    /* Each file it could not write: one line with the kernel's reason. */
    const char *files[] = {"out/F/host_env.json", "out/F/none-none/_subprocess/trial_d0_m0_t0.json",
                           "/out/F/matrix.json", "out/F/report.html", NULL};
    for (size_t i = 0; files[i]; i++) {
        char *line = tu_fmt("%s: No space left on device", files[i]);
        ck_assert_msg(strstr(err, line), "no '%s' in: %s", line, err);
        free(line);
    }
    /* Every line is one of aorta-run's, and the summary claims none of it. */
    for (const char *line = err; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        ck_assert_msg(!strncmp(line, "aorta-run: ", 11) || *line == '\n', "stray line: %s", line);
    ck_assert_ptr_null(strstr(out, "Full matrix:"));
    ck_assert_ptr_null(strstr(out, "Wrote run artifacts"));
    ck_assert_ptr_nonnull(strstr(out, "incomplete"));
    free(out);
    free(err);
    free(disk);
    free(aorta);
    free(unshare);
}
END_TEST

int main(void)
{
    /* Outside a test, so without the kit's asserting helpers. */
    const char *tmp = getenv("TMPDIR");
    dir = ar_xasprintf("%s/aorta-fulldisk-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 99;
    namespace_options = mount_namespace();
    if (!namespace_options) {
        fprintf(stderr, "no tmpfs can be mounted here (unshare(1) missing or refused): skipped\n");
        char *probe = ar_xasprintf("%s/probe", dir);
        rmdir(probe); /* nothing stays mounted: the namespace is gone */
        rmdir(dir);
        free(probe);
        return 77;
    }
    Suite *suite = suite_create("platform full disk");
    TCase *tc = tcase_create("fulldisk");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_full_disk_is_one_line_per_file_and_exit_1);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    tu_rmtree(dir);
    free(dir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
