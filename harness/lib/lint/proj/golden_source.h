#pragma once
// golden.py read without running it, for the PROJ rules on the correctness contract and the tolerances
// (docs/contract.md): its module-level bindings and functions, Python literals (the subset
// ast.literal_eval accepts) with where each part is written, numbers folded through module constants,
// and the dtype of every tensor build_tensor_specs() or generate_inputs() spells out.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/source_file.h"
#include "parse/syntax_tree.h"

namespace portcheck::proj {

struct SrcLoc {
  int line = 0;  // 1-based
  int col = 0;   // 1-based, in code points
};

struct PyDictItem;

// A value as ast.literal_eval reads it: numbers (a sign included), strings, True / False / None, and
// lists, tuples, sets and dicts of those. Anything else (a name, a call, `2 ** -8`) is Kind::Other.
struct PyLiteral {
  enum class Kind { Dict, List, Tuple, Set, Int, Float, String, Bool, None, Other };
  Kind kind = Kind::Other;
  SrcLoc loc;
  std::string text;  // as written, cut after 60 characters
  std::int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<PyLiteral> elems;                        // List / Tuple / Set
  // Dict, in source order. (Not std::pair: a pair of an incomplete type is ill-formed, and libstdc++
  // under clang says so.)
  std::vector<PyDictItem> items;

  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const { return kind == Kind::Int ? static_cast<double>(i) : f; }
  bool isSequence() const { return kind == Kind::List || kind == Kind::Tuple; }
  // Dict only: the value of the (last) string key `key`, or null.
  const PyLiteral* get(std::string_view key) const;
  // The first part that is not a literal (this value itself, or one nested in it), or null.
  const PyLiteral* firstNonLiteral() const;
};

// One key: value entry of a dict literal.
struct PyDictItem {
  PyLiteral first;   // the key
  PyLiteral second;  // the value
};

// A floating or integer dtype as golden.py spells it for torch ("float32", torch.bfloat16, "bf16").
enum class TensorDtype { Unknown, Float64, Float32, Float16, BFloat16, Integer, Bool };
TensorDtype dtypeFromName(std::string_view name);  // "float32", "torch.float32", "fp32", "bf16", "int8", ...
std::string_view dtypeName(TensorDtype d);           // "float32", "bfloat16", ..., "integer"
bool isFloating(TensorDtype d);

// One tensor golden.py names, with its dtype when written out.
struct GoldenTensor {
  std::string name;
  TensorDtype dtype = TensorDtype::Unknown;
  bool is_output = false;
  SrcLoc loc;
};

class GoldenSource {
 public:
  // Parses `file` (kept alive by the caller for the object's lifetime).
  explicit GoldenSource(const SourceFile& file);

  bool parsed() const { return tree_.ok(); }
  bool hasSyntaxError() const { return !tree_.ok() || tree_.hasError(); }
  const SourceFile& file() const { return *file_; }

  SrcLoc loc(TSNode n) const;
  std::string_view text(TSNode n) const { return tree_.nodeText(n); }

  // The value of the last module-level binding of `name` (`NAME = v`, `NAME: T = v`); null when none.
  // `at` receives the location of the bound name.
  TSNode assigned(std::string_view name, SrcLoc* at = nullptr) const;
  // The module-level function `name` (its function_definition node); null when none.
  TSNode function(std::string_view name) const;
  bool hasFunction(std::string_view name) const { return !isNull(function(name)); }

  PyLiteral literal(TSNode n) const;
  // A number folded the way Python computes it: literals, + - * / ** and parentheses, module-level
  // numeric constants by name. nullopt when any part is something else.
  std::optional<double> number(TSNode n) const;

  // __outputs__ when it is a literal list / tuple of strings.
  std::optional<std::vector<std::string>> outputs() const;
  // The tensors build_tensor_specs() returns as literal dicts ({"name": ..., "dtype": ..., "is_output":
  // ...}), and those generate_inputs() returns as ("name", <tensor>) pairs where the tensor's dtype is
  // written out (dtype=torch.X, .to(torch.X), .bfloat16(), ...); the specs win where both name one.
  std::vector<GoldenTensor> tensors() const;

 private:
  std::optional<double> numberAt(TSNode n, int depth) const;
  TensorDtype dtypeOfExpr(TSNode n, TSNode body, int depth) const;

  const SourceFile* file_;
  SyntaxTree tree_;
  std::map<std::string, std::pair<TSNode, TSNode>, std::less<>> bindings_;  // name -> (target, value)
  std::map<std::string, TSNode, std::less<>> functions_;
};

// Calls `visit` on `n` and every node below it, in document order.
template <class Visit>
void forEachNode(TSNode n, Visit&& visit) {
  if (isNull(n)) return;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  for (;;) {
    visit(ts_tree_cursor_current_node(&cursor));
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    for (;;) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
    }
  }
}

// The value of a Python string literal node (no f-string interpolation, escapes of the common kinds
// decoded); nullopt for any other node.
std::optional<std::string> stringLiteralValue(TSNode n, std::string_view source);

}  // namespace portcheck::proj
