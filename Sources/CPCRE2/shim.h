#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H
// Swift sees the 8-bit API only (pcre2_compile_8, pcre2_match_8, …).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

// Macros Swift cannot import (they are casts, not literals).
static inline PCRE2_SIZE cpcre2_unset(void) { return PCRE2_UNSET; }
#endif
