/* repr.h - Python-style quoting of user text inside one-line messages
 * ('name', ['a', 'b']): control characters are escaped, so a message
 * never spans two lines whatever the user wrote. */
#ifndef AORTA_REPR_H
#define AORTA_REPR_H

#include <stddef.h>

/* text (len bytes) quoted as Python's repr() quotes a str.  Free it. */
char *aorta_repr(const char *text, size_t len);
/* The same for a NUL-terminated text. */
char *aorta_repr_str(const char *text);
/* ['a', 'b'] for count texts.  Free it. */
char *aorta_repr_list(const char *const *items, size_t count);

#endif
