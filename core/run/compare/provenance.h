/* SPDX-License-Identifier: MIT */
/* provenance.h - what a run measured, and with what: matrix.json's
 * "provenance" (docs/design.md, Provenance), so that --compare can say
 * whether two runs are comparable at all.  Versions that cannot be read
 * are null ("unknown"), never an error. */
#ifndef AR_PROVENANCE_H
#define AR_PROVENANCE_H

#include "recipe/plan.h"
#include "sys/json.h"

#define AR_PROVENANCE_SCHEMA 1
/* Seconds a version query (rocprofv3 --version, nvidia-smi) may take. */
#define AR_PROVENANCE_QUERY_SEC 5.0

/* The provenance of a run of plan: its command, every cell's variables,
 * the collectors (module version, effective options, declared metrics),
 * the profiler that wraps outermost (profiler_argv0: the first word of a
 * wrapped trial's argv when it is not the command's own, else NULL) and
 * its --version, the Triton version of snapshot (host_env.json's content,
 * may be NULL), and the GPU's name and driver where nvidia-smi or rocm-smi
 * tell them. */
ar_json_t *ar_provenance_json(const ar_plan_t *plan, const ar_json_t *snapshot,
                                    const char *profiler_argv0);

/* The declared better direction of each metric of a provenance:
 * {metric: "lower" | "higher" | "none"} over every collector (an object;
 * empty without a provenance). */
ar_json_t *ar_provenance_declared(const ar_json_t *provenance);

/* The same for a plan's collectors, before any run. */
ar_json_t *ar_provenance_plan_declared(const ar_plan_t *plan);

/* Every difference between two provenances that bears on a comparison:
 * [{"what", "a", "b", "incomparable", "collector"}], each "what" one of
 * "command", "cell <name> variables", "collector <c> version",
 * "collector <c> options", "profiler version", "triton version", "gpu model",
 * "gpu driver", "gpu busy or hot before a trial" (either run's
 * gpu_before_trials counts a trial that found a device busy or hot: a
 * warning), "aorta version", "provenance".  incomparable: the command
 * differs, or a profiler's version or the GPU's model or driver differs
 * while both are known (an unknown side is listed, never incomparable).  collector: the collector a profiler
 * difference concerns ("*": every measure), or null. */
ar_json_t *ar_provenance_mismatches(const ar_json_t *a, const ar_json_t *b);

#endif
