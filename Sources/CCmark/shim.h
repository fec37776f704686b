#ifndef CCMARK_SHIM_H
#define CCMARK_SHIM_H
#include <cmark.h>
/* malloc_trim: freed cmark nodes go back to the system (CommonMarkDocument.doneWithHeading);
   mallopt: the tool tunes the allocator for cmark (outline-render's main.swift). */
#include <malloc.h>
#endif
