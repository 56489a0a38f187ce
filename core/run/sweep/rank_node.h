/* SPDX-License-Identifier: MIT */
/* rank_node.h - on which node each rank of a trial ran, so that its
 * timeline lines up the ranks of one node on their shared clock
 * (docs/multi-rank.md, Timeline).  Each profiled rank notes its node name
 * in the trial's directory, trial_d0_m0_t<t>/rank<k>.node: aorta-rank-exec
 * under a launcher (--node-file), aorta-run itself with --all-ranks. */
#ifndef AR_RANK_NODE_H
#define AR_RANK_NODE_H

#include <stddef.h>

/* The file's name for rank ("rank<k>.node"; rank < 0: the placeholder
 * aorta-rank-exec replaces).  Free it. */
char *ar_rank_node_file(long rank);

/* Note this process's node name as rank's, in the directory collect_rel
 * below the run directory run_fd (never through a symlink).  0, or -1 (no
 * note: its timeline then aligns that rank on its own). */
int ar_rank_node_note(int run_fd, const char *collect_rel, long rank);

/* Whether every one of the count ranks noted the same node in collect_rel:
 * 1, else 0 (a rank without a note counts as another node). */
int ar_rank_nodes_one(int run_fd, const char *collect_rel, const long *ranks, size_t count);

#endif
