/* tree-sitter-python's external scanner (node_modules, pinned in package-lock.json), its arrays kept between
 * tokens. The parser restores the scanner's state before nearly every token (deserialize), and the scanner
 * frees its two arrays and allocates them afresh each time: a free and a malloc per token. Here deserialize
 * only empties them, so their buffers are reused; destroy frees them. Same states, same tokens, same trees. */
#include "tree_sitter/array.h"

#undef array_delete
#define array_delete(self) ((self)->size = 0) /* deserialize's use: empty, keep the buffer */
#define tree_sitter_python_external_scanner_destroy generated_scanner_destroy /* replaced below */
#include "scanner.c"
#undef tree_sitter_python_external_scanner_destroy

void tree_sitter_python_external_scanner_destroy(void *payload) {
  Scanner *scanner = (Scanner *)payload;
  _array__delete((Array *)&scanner->indents);
  _array__delete((Array *)&scanner->delimiters);
  free(scanner);
}
