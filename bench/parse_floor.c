/* The floor a linter built on tree-sitter cannot go under: parse every Python file named on stdin (one path a
 * line) with the grammar port-check uses (portcheck_grammars), walk every node of its tree with a cursor, and
 * free it. bench/real_corpus.py (speed stage) times it beside port-check lint and pyflakes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

int main(void) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  char path[4096];
  long files = 0, nodes = 0, bytes = 0;
  while (fgets(path, sizeof path, stdin)) {
    path[strcspn(path, "\n")] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
      fprintf(stderr, "parse-floor: cannot read %s\n", path);
      return 2;
    }
    char *text = NULL;
    size_t size = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
      if (size + got > cap) {
        cap = (size + got) * 2;
        text = realloc(text, cap);
      }
      memcpy(text + size, chunk, got);
      size += got;
    }
    fclose(f);
    TSTree *tree = ts_parser_parse_string(parser, NULL, text ? text : "", (uint32_t)size);
    TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (;;) {
      ++nodes;
      if (ts_tree_cursor_goto_first_child(&cursor)) continue;
      int moved = 0;
      while (!moved && !(moved = ts_tree_cursor_goto_next_sibling(&cursor)))
        if (!ts_tree_cursor_goto_parent(&cursor)) break;
      if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
    ts_tree_delete(tree);
    free(text);
    ++files;
    bytes += (long)size;
  }
  ts_parser_delete(parser);
  printf("%ld files, %ld bytes, %ld nodes\n", files, bytes, nodes);
  return 0;
}
