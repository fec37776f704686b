#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
// Debian's libxml2 headers pull in ICU, whose module clashes with Foundation's own copy.
// We never use libxml2's ICU encoders, so switch them off before the other headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/// `xmlFree` is a global function pointer, which Swift 6 refuses to read; call it here.
static inline void CLibXML2_free(void *p) { xmlFree(p); }
#endif
