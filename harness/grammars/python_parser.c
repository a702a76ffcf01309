/* tree-sitter-python's generated parser (node_modules, pinned in package-lock.json) with the faster
 * character-set test of fast_set_contains.h. */
#include "fast_set_contains.h"
#include "parser.c"
