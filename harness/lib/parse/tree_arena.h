#pragma once
// Region allocation for tree-sitter. A lint unit parses its files, builds its model from the trees and drops them
// all at its end; freeing a tree node by node (ts_tree_delete) walks memory long gone cold, and each unit faults
// fresh pages in. Inside a TreeArena scope, everything tree-sitter allocates on the thread comes from one region
// of the process's reservation; the scope's end takes it all back at once and the next unit reuses the same,
// already mapped, pages. Outside a scope (or when the reservation cannot be made) tree-sitter uses malloc.
//
// The rules that make this safe: a tree parsed inside a scope must not outlive it (a tree kept longer, a
// run cache's, is parsed inside a TreeArenaPause), and only the thread whose scope allocated a block grows
// it (tree-sitter grows a parser's or a cursor's arrays, never a finished tree's; blocks keep no size, so
// another thread's block cannot be moved: that aborts).
#include <cstddef>

namespace portcheck {

class TreeArena {
 public:
  TreeArena();
  ~TreeArena();
  TreeArena(const TreeArena&) = delete;
  TreeArena& operator=(const TreeArena&) = delete;

 private:
  int slot_ = -1;            // the region this outermost scope owns; -1: nested, or no region free
  std::size_t restore_ = 0;  // a nested scope: the region's fill when it began
};

// Tree-sitter allocates with malloc while a pause is alive, inside a scope or not.
class TreeArenaPause {
 public:
  TreeArenaPause();
  ~TreeArenaPause();
  TreeArenaPause(const TreeArenaPause&) = delete;
  TreeArenaPause& operator=(const TreeArenaPause&) = delete;
};

// True when `p` lies in a tree region (freeing it is the scope's job).
bool inTreeArena(const void* p);

}  // namespace portcheck
