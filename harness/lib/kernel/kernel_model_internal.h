#pragma once
// Internal to kernel/: the tree walker buildModel() runs over one kernel file, and what its parts
// share. Consumers include kernel/kernel_model.h only.
//
// The walker's parts, one file each:
//   kernel_model.cpp         the walk itself: node dispatch, positions, symbol lookup
//   preprocessor_guards.cpp  #if / #ifdef chains and the builds each branch is compiled for
//   declared_types.cpp       constant expressions and what a declared type is (tile, GlobalTensor, Event)
//   kernel_declarations.cpp  declarations: symbols, constants, aliases, functions, records
//   kernel_statements.cpp    calls, assignments, GM accesses, lambdas, ifs and loops
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/kernel_model.h"

namespace portcheck::kernel::detail {

// One build configuration: which macros are known to be defined or undefined.
enum class Build { Auto, Vec, Cube };

struct Alias {
  std::string name;
  SymbolKind kind = SymbolKind::Other;
  TileType tile;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

struct Constant {
  std::string name;
  std::int64_t value = 0;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

struct Context {
  Reach reach;
  int function = -1;
  int loop_depth = 0;
  std::uint32_t block_begin = 0, block_end = 0;
  int loop = -1;               // innermost loop of the current function
  bool multibuffered = false;  // inside MultiBuffered<N>::loop's body lambda
};

struct ScopedName {  // a compile-time constant whose value the linter cannot compute (template parameter, ...)
  std::string name;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

// `s` without blanks.
std::string squeeze(std::string_view s);
// Every child of `n` in field `field` (a declaration has one declarator per declared name).
std::vector<TSNode> childrenByField(TSNode n, std::string_view field);
// The last component of a qualified name (`pto::TADD` -> `TADD`).
std::string_view afterScope(std::string_view s);

class Builder {
 public:
  Builder(const SourceFile& f, const SyntaxTree& t) : file_(f), tree_(t) {}

  KernelModel build() {
    TSNode root = tree_.root();
    Context ctx;
    ctx.block_begin = 0;
    ctx.block_end = ts_node_end_byte(root);
    visitChildren(root, ctx);
    return std::move(model_);
  }

 private:
  // A declared type: what kind of symbol it makes and, for a tile, its type.
  struct Resolved {
    SymbolKind kind = SymbolKind::Other;
    TileType tile;
  };

  // One branch condition of an #if chain.
  struct Branch {
    TSNode node{};
    bool ifdef = false, ifndef = false;  // #ifdef/#ifndef NAME (node = NAME); else an #if expression
  };

  const SourceFile& file_;
  const SyntaxTree& tree_;
  KernelModel model_;
  std::vector<Alias> aliases_;
  std::vector<Constant> constants_;
  std::vector<ScopedName> constant_names_;
  // Nesting deeper than any kernel (20000 parentheses from a fuzzer or a generator) is not walked:
  // recursing into it overflowed the stack (found by BadInput.DeepNestingIsWherePythonStopsNotACrash).
  static constexpr int kMaxVisitDepth = 1000;
  int visit_depth_ = 0;

  std::string_view txt(TSNode n) const { return tree_.nodeText(n); }

  // The innermost entry of `v` named `name` whose scope holds byte `at`.
  template <typename T>
  const T* lookup(const std::vector<T>& v, std::string_view name, std::uint32_t at) const {
    for (auto it = v.rbegin(); it != v.rend(); ++it)
      if (it->name == name && it->scope_begin <= at && at < it->scope_end) return &*it;
    return nullptr;
  }

  // kernel_model.cpp
  std::string_view original(TSNode n) const;
  std::string_view withLeadingQualifiers(TSNode n) const;
  Position pos(TSNode n) const;
  int lookupSymbol(std::string_view name, std::uint32_t at) const;
  void visitChildren(TSNode n, const Context& ctx);
  void noteInclude(TSNode path);
  void noteNamespace(TSNode n);
  void visit(TSNode n, const Context& ctx);

  // preprocessor_guards.cpp
  Tri branchTruth(const Branch& br, Build b) const;
  Reach branchReach(const Reach& parent, const Branch* self, const std::vector<Branch>& earlier) const;
  void noteMacros(std::string_view condition_text);
  void visitConditional(TSNode n, const Context& ctx);

  // declared_types.cpp
  std::optional<std::int64_t> evalInt(TSNode n, std::uint32_t at) const;
  bool isConstantExpr(TSNode n, std::uint32_t at) const;
  static std::string show(const std::optional<std::int64_t>& v, std::string_view spelled);
  Resolved tileFromArgs(Loc loc, std::string_view family, const std::vector<TSNode>& args, std::uint32_t at) const;
  Resolved resolveType(TSNode n, std::uint32_t at) const;

  // kernel_declarations.cpp
  void addConstant(TSNode decl, TSNode declarator, TSNode value, const Context& ctx);
  void noteWrite(std::string_view name, const Context& ctx);
  void noteWrittenTarget(TSNode target, const Context& ctx);
  TSNode declaredName(TSNode d, bool& ref, bool& ptr, bool& arr) const;
  std::optional<std::int64_t> arrayElements(TSNode d, std::uint32_t at) const;
  int addSymbol(TSNode type_node, TSNode declarator, const Context& ctx, bool is_param, std::uint32_t scope_begin,
                std::uint32_t scope_end, TSNode whole);
  void visitDeclaration(TSNode n, const Context& ctx);
  void addAlias(std::string_view name, const Resolved& r, TSNode decl, const Context& ctx);
  void visitAlias(TSNode n, const Context& ctx);
  void visitTypedef(TSNode n, const Context& ctx);
  void visitFunction(TSNode n, const Context& ctx);
  void visitRecord(TSNode n, const Context& ctx);
  void noteTemplateParameters(TSNode n, const Context& ctx);

  // kernel_statements.cpp
  Operand operand(TSNode n, std::uint32_t at) const;
  std::string methodContext(TSNode call) const;
  void visitCall(TSNode n, const Context& ctx);
  void visitAssignment(TSNode n, const Context& ctx);
  void noteGmAccess(TSNode target, GmAccessKind kind, TSNode at_node, const Context& ctx);
  void visitLambda(TSNode n, const Context& ctx);
  void visitIf(TSNode n, const Context& ctx);
  void scanCondition(TSNode n, std::uint32_t at, IfStatement& out) const;
  void recordIf(TSNode n, TSNode cond, bool is_constexpr, const Context& ctx);
  void visitLoop(TSNode n, const Context& ctx);
};

}  // namespace portcheck::kernel::detail
