#ifndef CHATMAIL_CWIDTH_H
#define CHATMAIL_CWIDTH_H

// glibc's wcwidth() is hidden from Swift's Glibc module; this shim exposes it. It needs a UTF-8
// LC_CTYPE (see chatmail_use_utf8_ctype) or it answers -1 for everything outside ASCII.
#define _XOPEN_SOURCE 700
#include <wchar.h>

/// Columns the scalar occupies: 0, 1 or 2; -1 when it is not printable or unknown to the C library.
static inline int chatmail_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

/// Switches LC_CTYPE to C.UTF-8 so wcwidth() knows non-ASCII characters. Returns 1 on success.
int chatmail_use_utf8_ctype(void);

#endif
