#ifndef CCMARK_SHIM_H
#define CCMARK_SHIM_H
#include <cmark.h>
/* malloc_trim: freed cmark nodes go back to the system (CommonMarkDocument.doneWithHeading). */
#include <malloc.h>
#endif
