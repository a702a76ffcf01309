#pragma once
// Internal to dsl/: the builder of one function's signature and body, and how its parts divide the
// work. Consumers include dsl/dsl_model.h only; the builder is run through model_builder.h.
//
// The builder's parts, one file each:
//   function_body.cpp      the entry points, the pre-scan of assignments, values and their bindings
//   body_signature.cpp     parameters and type annotations (pl.Tensor[[...], DT], pl.Tile, Out / InOut)
//   body_expressions.cpp   expressions: literals, names, operators, lists, attributes
//   body_calls.cpp         calls: pl.* ops typed by type_rules, calls of the program's own functions
//   body_subscripts.cpp    subscripts and slices, with the shapes of the views they take
//   body_statements.cpp    statements and assignment targets
//   body_control_flow.cpp  if / for / while / with: loops, pl.at scopes and incore regions
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

class BodyBuilder {
 public:
  BodyBuilder(Unit& unit, int file, int fn_index)
      : unit_(unit), file_(file), fn_index_(fn_index), scan_(unit.scans[static_cast<std::size_t>(file)]),
        fm_(unit.files[static_cast<std::size_t>(file)]), fn_(fm_.functions[static_cast<std::size_t>(fn_index)]) {}

  void buildSignature(TSNode def);
  // `inlined_into_kernel`: an inline function called only from incore code, whose body is spliced
  // into a kernel: built as incore code (region 0, with no kernel name of its own).
  void buildBody(TSNode def, bool inlined_into_kernel = false);

 private:
  Unit& unit_;
  int file_;
  int fn_index_;
  FileScan& scan_;
  FileModel& fm_;
  Function& fn_;
  std::unordered_map<std::string, int> env_;           // name -> current value
  std::unordered_map<std::string, int> assign_count_;  // name -> times assigned in the body
  std::vector<int> loops_;                             // enclosing loop statements
  int region_ = -1;

  std::string_view text(TSNode n) const { return scan_.tree.nodeText(n); }
  Loc loc(TSNode n) const { return locOf(*scan_.src, n); }
  Expr& X(int e) { return fn_.exprs[static_cast<std::size_t>(e)]; }
  Stmt& S(int s) { return fn_.stmts[static_cast<std::size_t>(s)]; }
  void close(int s) { S(s).subtree_end = static_cast<int>(fn_.stmts.size()); }
  bool incore() const { return region_ >= 0; }
  void use(int value, int stmt) {
    if (value >= 0 && stmt >= 0) fn_.values[static_cast<std::size_t>(value)].uses.push_back(stmt);
  }

  static TSNode unwrapType(TSNode n) {
    if (!isNull(n) && nodeType(n) == "type" && ts_node_named_child_count(n) > 0) return ts_node_named_child(n, 0);
    return n;
  }

  // function_body.cpp: the pre-scan and values
  void countAssignments(TSNode body);
  static bool holdsStatements(std::string_view t);
  int newValue(std::string name, TypeInfo type, int def_stmt, int def_expr);
  const TypeInfo* typeOf(int e) const;
  void bind(const std::string& name, int value, int stmt);
  void adoptAccumulatorSpace(int old_value, int new_value);

  // body_signature.cpp
  void buildParams(TSNode params);
  void specialise(Param& param, std::size_t index) const;
  Shape shapeFromList(int e, bool* dynamic) const;
  DType dtypeOf(int e) const;
  MemSpace spaceOf(int e) const;
  TypeInfo annotationType(int e, Direction* dir, bool* dynamic) const;

  // body_expressions.cpp
  int addExpr(ExprKind kind, TSNode n, int stmt);
  std::string dotted(int e) const;
  void useChild(int child, int stmt);
  int unsupported(TSNode n, int stmt, std::string_view kind);
  int expr(TSNode n, int stmt, int depth);
  int nameExpr(TSNode n, int stmt);
  Shape shapeArg(int e) const;

  // body_calls.cpp
  int newResult(TypeInfo type, int stmt, int def_expr);
  int callExpr(TSNode n, int stmt, int depth);
  void typePlCall(int id, int stmt);
  void markOnChip(int v, int call);
  void resolveUserCall(int id, int stmt);

  // body_subscripts.cpp
  int subscriptExpr(TSNode n, int stmt, int depth);
  Shape sliceShape(const TypeInfo& base, const std::vector<int>& idx) const;
  void foldComparison(Expr& e) const;
  Number symbolicExtent(int start, int stop) const;
  bool linearForm(int e, std::int64_t scale, std::map<std::string, std::int64_t>& form, int depth) const;
  int sliceExpr(TSNode n, int stmt, int depth);

  // body_statements.cpp
  int addStmt(StmtKind kind, TSNode n, int parent, int depth);
  void buildBlock(TSNode block, int parent, int depth);
  void buildStmt(TSNode n, int parent, int depth);
  const TypeInfo* outArgumentType(const Expr& call, std::size_t k);
  void bindTargets(int target, int value_expr, int stmt);
  void bindTarget(int target, int v, int src, int stmt);
  void assignment(TSNode stmt_node, TSNode a, int parent, int depth);
  void augAssignment(TSNode stmt_node, TSNode a, int parent, int depth);

  // body_control_flow.cpp
  void ifStatement(TSNode n, int parent, int depth);
  void buildAlternatives(const std::vector<TSNode>& alts, std::size_t i, int if_stmt, int depth);
  static LoopIter iterKind(const Expr& call, bool is_call, const std::unordered_map<std::string, int>& env);
  void forStatement(TSNode n, int parent, int depth);
  void bindLoopTargets(TSNode left, int s);
  void whileStatement(TSNode n, int parent, int depth);
  void withStatement(TSNode n, int parent, int depth);
  void describeScope(Scope& scope);
};

}  // namespace portcheck::dsl::detail
