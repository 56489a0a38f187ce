/* SPDX-License-Identifier: MIT */
/* mpi_ranks.c - a real 2-or-more-rank MPI program for the multi-rank tests
 * (tests/ranks/).  Rank r does (r + 1) units of work, then every rank
 * takes part in one MPI_Allreduce of the units; rank 0 prints the sum.
 *
 * Each unit is one fake GPU dispatch of 1 ms, reported the way the
 * stand-ins learn about GPU work: as "CALLS:NS:NAME" lines on the pipe the
 * rocprofv3 stand-in passes in AORTA_FAKE_KERNEL_FD, and, when Proton's
 * mode env bundle is set (AORTA_PROTON_NAME), as the <name>.hatchet that
 * proton.finalize() would write.  So rank r's GPU time is (r + 1) ms. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNIT_NS 1000000L

static void report_fd(int units)
{
    const char *fd_text = getenv("AORTA_FAKE_KERNEL_FD");
    if (!fd_text)
        return;
    char line[128];
    int len = snprintf(line, sizeof line, "%d:%ld:rank_work_kernel\n", units, UNIT_NS);
    if (write(atoi(fd_text), line, (size_t)len) != len)
        perror("mpi_ranks: AORTA_FAKE_KERNEL_FD");
}

static int report_hatchet(int units)
{
    const char *name = getenv("AORTA_PROTON_NAME");
    if (!name)
        return 0;
    size_t len = strlen(name) + sizeof ".hatchet";
    char *path = malloc(len);
    if (!path)
        return -1;
    snprintf(path, len, "%s.hatchet", name);
    FILE *out = fopen(path, "w");
    free(path);
    if (!out)
        return -1;
    fprintf(out,
            "[{\"children\": [{\"children\": [], \"frame\": {\"name\": \"rank_work_kernel\", "
            "\"type\": \"function\"}, \"metrics\": {\"count\": %d, \"device_id\": \"0\", "
            "\"device_type\": \"HIP\", \"time (ns)\": %ld}}], \"frame\": {\"name\": \"ROOT\", "
            "\"type\": \"function\"}, \"metrics\": {\"count\": 0, \"time (ns)\": 0}}, {}]\n",
            units, units * UNIT_NS);
    return fclose(out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int units = rank + 1;
    volatile double sink = 0;
    for (long i = 0; i < units * 200000L; i++)
        sink += (double)i * 0.5;
    report_fd(units);
    int status = report_hatchet(units) == 0 ? 0 : 1;
    if (status)
        perror("mpi_ranks: hatchet");
    int total = 0;
    MPI_Allreduce(&units, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_ranks: %d ranks, %d units\n", size, total);
    MPI_Finalize();
    return status;
}
