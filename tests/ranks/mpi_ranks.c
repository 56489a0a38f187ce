/* SPDX-License-Identifier: MIT */
/* mpi_ranks.c - a real 2-or-more-rank MPI program for the multi-rank tests
 * (tests/ranks/).  Rank r does (r + 1) units of work, then every rank
 * takes part in one MPI_Allreduce of the units; rank 0 prints the sum.
 *
 * Each unit is one fake GPU dispatch of 1 ms, reported the way the
 * stand-ins learn about GPU work: as "CALLS:NS:NAME" lines on the pipe the
 * rocprofv3 stand-in passes in AORTA_FAKE_KERNEL_FD, and, when Proton's
 * mode env bundle is set (AORTA_PROTON_NAME), as the <name>.hatchet that
 * proton.finalize() would write.  So rank r's GPU time is (r + 1) ms.
 *
 * With MPI_RANKS_STRAGGLER=1 a straggler is planted for the rank view's
 * tests: every rank also launches halo_exchange_kernel, rank 1 seven times
 * for 2 ms each, every other rank four times for 0.5 ms.  Rank 1 is then
 * the slowest rank (16 ms against 3 ms on rank 0), the kernel makes all but
 * a part of its lateness, and the launch counts differ (7 against 4). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNIT_NS 1000000L

typedef struct halo {
    int launches;   /* 0: none planted */
    long ns;        /* each */
} halo_t;

static halo_t planted(int rank)
{
    const char *on = getenv("MPI_RANKS_STRAGGLER");
    if (!on || strcmp(on, "1") != 0)
        return (halo_t){0, 0};
    return rank == 1 ? (halo_t){7, 2 * UNIT_NS} : (halo_t){4, UNIT_NS / 2};
}

static void report_fd(int units, halo_t halo)
{
    const char *fd_text = getenv("AORTA_FAKE_KERNEL_FD");
    if (!fd_text)
        return;
    char line[256];
    int len = snprintf(line, sizeof line, "%d:%ld:rank_work_kernel\n", units, UNIT_NS);
    if (halo.launches)
        len += snprintf(line + len, sizeof line - (size_t)len, "%d:%ld:halo_exchange_kernel\n",
                        halo.launches, halo.ns);
    if (write(atoi(fd_text), line, (size_t)len) != len)
        perror("mpi_ranks: AORTA_FAKE_KERNEL_FD");
}

static int report_hatchet(int units, halo_t halo)
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
            "\"device_type\": \"HIP\", \"time (ns)\": %ld}}",
            units, units * UNIT_NS);
    if (halo.launches)
        fprintf(out,
                ", {\"children\": [], \"frame\": {\"name\": \"halo_exchange_kernel\", "
                "\"type\": \"function\"}, \"metrics\": {\"count\": %d, \"device_id\": \"0\", "
                "\"device_type\": \"HIP\", \"time (ns)\": %ld}}",
                halo.launches, halo.launches * halo.ns);
    fputs("], \"frame\": {\"name\": \"ROOT\", \"type\": \"function\"}, \"metrics\": "
          "{\"count\": 0, \"time (ns)\": 0}}, {}]\n",
          out);
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
    halo_t halo = planted(rank);
    report_fd(units, halo);
    int status = report_hatchet(units, halo) == 0 ? 0 : 1;
    if (status)
        perror("mpi_ranks: hatchet");
    int total = 0;
    MPI_Allreduce(&units, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_ranks: %d ranks, %d units\n", size, total);
    MPI_Finalize();
    return status;
}
