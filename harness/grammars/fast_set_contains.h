/* Compiled ahead of a tree-sitter grammar's generated parser.c (harness/grammars/*_parser.c): the generated
 * lexer tests identifier characters with parser.h's set_contains, a binary search over the ~700 Unicode
 * ranges of an identifier set, for every character of every name. Ranges are sorted, and the ASCII ones
 * come first, so an ASCII character is decided by the first few; others take the same binary search. Same
 * answers, same trees: only how the set is searched changes. */
#ifndef PORTCHECK_FAST_SET_CONTAINS_H_
#define PORTCHECK_FAST_SET_CONTAINS_H_

#define set_contains generated_set_contains /* parser.h's own, left unused */
#include "tree_sitter/parser.h"
#undef set_contains

static inline bool set_contains(const TSCharacterRange *ranges, uint32_t len, int32_t lookahead) {
  if (lookahead < 128) {
    for (uint32_t i = 0; i < len && ranges[i].start <= lookahead; ++i)
      if (lookahead <= ranges[i].end) return true;
    return false;
  }
  uint32_t index = 0;
  uint32_t size = len;
  while (size > 1) {
    uint32_t half_size = size / 2;
    uint32_t mid_index = index + half_size;
    const TSCharacterRange *range = &ranges[mid_index];
    if (lookahead >= range->start && lookahead <= range->end) return true;
    if (lookahead > range->end) index = mid_index;
    size -= half_size;
  }
  const TSCharacterRange *range = &ranges[index];
  return lookahead >= range->start && lookahead <= range->end;
}

#endif
