/* commands.h - one function per aorta-run mode; each returns the exit status. */
#ifndef AORTA_COMMANDS_H
#define AORTA_COMMANDS_H

#include "cli.h"
#include "registry/registry.h"

/* Exit statuses (decisions.md §3). */
#define AORTA_EXIT_OK 0
#define AORTA_EXIT_ENVIRONMENT 1   /* run dir locked, cannot create output */
#define AORTA_EXIT_USAGE 2         /* anything wrong in what was asked */

int aorta_cmd_list(const aorta_registry_t *registry);
int aorta_cmd_describe(const aorta_registry_t *registry, const char *name);
int aorta_cmd_run(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_dry_run(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_parse(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_env(const aorta_cli_t *cli, const aorta_registry_t *registry);

/* For --parse and --env (flag names which): the collector cli->collector and
 * the options it runs with (the recipe's when it names it, else its
 * defaults; free them).  Returns 0, or the exit status after reporting. */
int aorta_cmd_collector_options(const aorta_cli_t *cli, const aorta_registry_t *registry,
                                const char *flag, const aorta_module_t **plugin,
                                aorta_options_t **options);

/* Print "aorta-run: <message>" on stderr. */
void aorta_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The host's warning handler (aorta_warning_set_handler()): collectors'
 * aorta_warn() lines read "aorta-run: warning: <source>: <message>". */
void aorta_report_warning(const char *source, const char *message, void *user);
/* The "unknown collector" error: names the reason when a candidate failed,
 * and the collectors available.  Returns AORTA_EXIT_USAGE. */
int aorta_report_unknown_collector(const aorta_registry_t *registry, const char *flag,
                                   const char *name);

#endif
