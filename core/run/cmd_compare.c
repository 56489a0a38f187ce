/* SPDX-License-Identifier: MIT */
/* cmd_compare.c - --compare RUN_A RUN_B [--json] [--fail-above PCT]. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <unistd.h>

#include "output/compare.h"
#include "output/kernel_agg.h"

int aorta_cmd_compare(const aorta_cli_t *cli)
{
    aorta_json_t *a = aorta_cmd_read_matrix(cli->run_a);
    aorta_json_t *b = a ? aorta_cmd_read_matrix(cli->run_b) : NULL;
    if (!b) {
        aorta_json_free(a);
        return AORTA_EXIT_FAILED;
    }
    int fd_a = aorta_cmd_open_run(cli->run_a);
    int fd_b = fd_a >= 0 ? aorta_cmd_open_run(cli->run_b) : -1;
    if (fd_b < 0) {
        if (fd_a >= 0)
            close(fd_a);
        aorta_json_free(a);
        aorta_json_free(b);
        return AORTA_EXIT_FAILED;
    }
    aorta_kagg_run_t ka, kb;
    aorta_kagg_load(fd_a, a, NULL, &ka);
    aorta_kagg_load(fd_b, b, NULL, &kb);
    close(fd_a);
    close(fd_b);
    aorta_json_t *cmp = aorta_compare(cli->run_a, a, &ka, cli->run_b, b, &kb, cli->fail_above);
    if (cli->json) {
        char *text = aorta_json_dump(cmp, 1);
        printf("%s\n", text);
        free(text);
    } else {
        aorta_compare_print(stdout, cmp);
    }
    int status = aorta_json_length(aorta_json_get(cmp, "exceeded")) ? AORTA_EXIT_THRESHOLD
                                                                     : AORTA_EXIT_OK;
    aorta_json_free(cmp);
    aorta_kagg_run_clear(&ka);
    aorta_kagg_run_clear(&kb);
    aorta_json_free(a);
    aorta_json_free(b);
    return status;
}
