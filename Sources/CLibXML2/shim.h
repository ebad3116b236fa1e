#ifndef CHATMAIL_CLIBXML2_SHIM_H
#define CHATMAIL_CLIBXML2_SHIM_H

/* Debian's libxml2 2.9.14 includes the system ICU headers, whose UErrorCode clashes with Foundation's
   private ICU ("has different definitions in different modules"). Pretend ucnv.h was included and give
   libxml2 the two opaque names it needs from it. */
#define UCNV_H
#include <stdint.h>
typedef struct UConverter UConverter;
typedef uint16_t UChar;

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlmemory.h>
#include <libxml/parser.h>
#include <libxml/xmlversion.h>

/* xmlFree is a global function-pointer variable, which Swift 6 rejects as not concurrency-safe. */
static inline void chatmail_xmlFree(void *pointer) { xmlFree(pointer); }

/* xmlParserVersion is invisible from Swift. */
static inline const char *chatmail_libxml2_version(void) { return LIBXML_DOTTED_VERSION; }

#endif
