/* SPDX-License-Identifier: MIT */
/* demangle.h - kernel names as a person reads them: Itanium-mangled names
 * (_Z...) demangled, long ones shortened for tables.  The raw name stays
 * the key everywhere (JSON, matching across cells and runs). */
#ifndef AR_DEMANGLE_H
#define AR_DEMANGLE_H

#include <stddef.h>

/* Table width of a shortened name, in characters. */
#define AR_KERNEL_NAME_WIDTH 72

/* The demangled form of an Itanium-mangled name, or NULL when name is not
 * one, the demangler refuses it, or libstdc++ cannot be loaded.  Free it. */
char *ar_demangle(const char *name);

/* What a person reads: the demangled name, else the raw one.  Free it. */
char *ar_kernel_display(const char *name);

/* display shortened to at most width characters, one step at a time until
 * it fits: (1) the parameter list becomes "(...)" and a leading "void "
 * goes; (2) namespace qualifiers go; (3) template arguments nested two deep
 * become "<...>"; (4) every template argument list becomes "<...>"; (5) the
 * rest is cut and ends in "...".  Steps 3 and 4 apply only when the angle
 * brackets balance.  Free it. */
char *ar_kernel_short(const char *display, size_t width);

#endif
