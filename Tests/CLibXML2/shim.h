// The few libxml2 functions the GPX schema check (Tests/GPXSchemaCheck) calls, declared here rather than
// through libxml2's headers: those include the system's ICU headers, which clash with the copy of ICU that
// Foundation carries.
// Declarations as in libxml2 2.9 (xmlschemas.h, parser.h, tree.h, xmlerror.h).

typedef struct _xmlSchemaParserCtxt *xmlSchemaParserCtxtPtr;
typedef struct _xmlSchema *xmlSchemaPtr;
typedef struct _xmlSchemaValidCtxt *xmlSchemaValidCtxtPtr;
typedef struct _xmlDoc *xmlDocPtr;

/// libxml2's `struct _xmlError`, the part the test reads first.
typedef struct {
    int domain;
    int code;
    char *message;
    int level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
    void *ctxt;
    void *node;
} CairnXMLError;

typedef void (*CairnXMLStructuredErrorFunc)(void *userData, CairnXMLError *error);

/// Refuse network access while loading a document (libxml2's XML_PARSE_NONET).
enum { CAIRN_XML_PARSE_NONET = 1 << 11 };

xmlSchemaParserCtxtPtr xmlSchemaNewParserCtxt(const char *URL);
xmlSchemaPtr xmlSchemaParse(xmlSchemaParserCtxtPtr ctxt);
void xmlSchemaFreeParserCtxt(xmlSchemaParserCtxtPtr ctxt);
void xmlSchemaFree(xmlSchemaPtr schema);
xmlSchemaValidCtxtPtr xmlSchemaNewValidCtxt(xmlSchemaPtr schema);
void xmlSchemaFreeValidCtxt(xmlSchemaValidCtxtPtr ctxt);
void xmlSchemaSetValidStructuredErrors(xmlSchemaValidCtxtPtr ctxt, CairnXMLStructuredErrorFunc serror, void *ctx);
int xmlSchemaValidateDoc(xmlSchemaValidCtxtPtr ctxt, xmlDocPtr doc);
xmlDocPtr xmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding, int options);
void xmlFreeDoc(xmlDocPtr cur);
