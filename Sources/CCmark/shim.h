#ifndef CCMARK_SHIM_H
#define CCMARK_SHIM_H
#include <cmark.h>
/* malloc_trim: freed cmark nodes go back to the system (CommonMarkDocument.discardBlock). */
#include <malloc.h>
#endif
