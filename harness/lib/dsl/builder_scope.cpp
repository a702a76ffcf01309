// The locals a DSL function or @pl.program class sees when it is defined inside a plain function
// (pypto's examples build programs this way: `def build_program(batch, head_dim=16): ... @pl.program
// class P: ...`, called from main() with the sizes). The builder's parameters take the arguments of
// the file's call of it (evaluated among the caller's own straight-line assignments), else their
// defaults; then the builder's straight-line assignments before the definition are evaluated in order.
#include <cstdint>

#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

namespace {

using LocalNames = std::unordered_map<std::string, ConstValue>;

bool known(const ConstValue& v) { return v.number.known() || v.is_tuple || v.record; }

ConstValue evalIn(Unit& unit, int file, TSNode node, const LocalNames& scope) {
  return evalWithLocals(unit, file, node, 0, scope);
}

// `name = value` and `name: type = value` statements directly in `block` (and in the plain blocks of
// if / with / try inside it) that end before `before`, evaluated in order into `scope`.
void assignBefore(Unit& unit, int file, TSNode block, std::uint32_t before, LocalNames& scope, int depth = 0) {
  if (isNull(block) || depth > 4) return;
  for (TSNode c : namedChildren(block)) {
    if (ts_node_start_byte(c) >= before) return;
    std::string_view t = nodeType(c);
    if (t == "expression_statement") {
      TSNode e = ts_node_named_child(c, 0);
      if (isNull(e) || nodeType(e) != "assignment") continue;
      TSNode left = childByField(e, "left");
      TSNode right = childByField(e, "right");
      if (isNull(left) || isNull(right) || nodeType(left) != "identifier") continue;
      std::string name(textOf(unit, file, left));
      ConstValue v = evalIn(unit, file, right, scope);
      if (known(v)) scope[name] = v;
      else scope.erase(name);  // rebound to something unknown: no stale value
    } else if (t == "if_statement" || t == "with_statement" || t == "try_statement" || t == "block") {
      if (ts_node_end_byte(c) <= before) continue;  // a finished branch binds nothing certain
      for (TSNode inner : namedChildren(c))
        if (nodeType(inner) == "block") assignBefore(unit, file, inner, before, scope, depth + 1);
    }
  }
}

// The first call `name(...)` in the file outside `def` itself.
TSNode findCall(const Unit& unit, int file, TSNode root, const std::string& name, TSNode def) {
  std::vector<TSNode> stack{root};
  std::size_t visited = 0;
  TSNode found{};
  while (!stack.empty() && ++visited < 200000) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_eq(n, def)) continue;
    if (nodeType(n) == "call") {
      TSNode callee = childByField(n, "function");
      if (!isNull(callee) && nodeType(callee) == "identifier" && textOf(unit, file, callee) == name &&
          (isNull(found) || ts_node_start_byte(n) < ts_node_start_byte(found)))
        found = n;
    }
    for (TSNode c : namedChildren(n)) stack.push_back(c);  // one walk (ts_node_named_child(n, i) walks from the start)
  }
  return found;
}

// The caller's locals at `call`: the straight-line assignments of its enclosing function before it,
// over that function's own parameters when it is a builder too (a kernel factory called by the
// program builder with the builder's sizes).
LocalNames callerScope(Unit& unit, int file, TSNode call) {
  LocalNames scope;
  for (TSNode p = ts_node_parent(call); !isNull(p); p = ts_node_parent(p))
    if (nodeType(p) == "function_definition") {
      scope = builderScope(unit, file, p);
      assignBefore(unit, file, childByField(p, "body"), ts_node_start_byte(call), scope);
      break;
    }
  return scope;
}

LocalNames computeScope(Unit& unit, int file, TSNode def) {
  LocalNames scope;
  std::string name(textOf(unit, file, childByField(def, "name")));
  TSNode call = findCall(unit, file, unit.scans[static_cast<std::size_t>(file)].tree.root(), name, def);
  LocalNames caller = isNull(call) ? LocalNames{} : callerScope(unit, file, call);
  std::vector<TSNode> positional;
  std::unordered_map<std::string, TSNode> keywords;
  if (!isNull(call))
    for (TSNode a : namedChildren(childByField(call, "arguments"))) {
      if (isComment(a)) continue;
      if (nodeType(a) == "keyword_argument")
        keywords[std::string(textOf(unit, file, childByField(a, "name")))] = childByField(a, "value");
      else
        positional.push_back(a);
    }
  std::size_t index = 0;
  for (TSNode p : namedChildren(childByField(def, "parameters"))) {
    std::string_view t = nodeType(p);
    TSNode id = t == "identifier" ? p : t == "typed_parameter" ? ts_node_named_child(p, 0) : childByField(p, "name");
    if (isNull(id) || nodeType(id) != "identifier") break;  // *args, **kwargs: stop binding by position
    std::string param(textOf(unit, file, id));
    ConstValue v;
    if (auto k = keywords.find(param); k != keywords.end()) v = evalIn(unit, file, k->second, caller);
    else if (index < positional.size()) v = evalIn(unit, file, positional[index], caller);
    else if (TSNode d = childByField(p, "value"); !isNull(d)) v = evalNode(unit, file, d, 0);  // the default
    ++index;
    if (known(v)) scope[param] = v;
  }
  // The builder's own assignments up to its last statement (the DSL definitions come before the return).
  TSNode body = childByField(def, "body");
  assignBefore(unit, file, body, ts_node_end_byte(body), scope);
  return scope;
}

}  // namespace

const std::unordered_map<std::string, ConstValue>& builderScope(Unit& unit, int file, TSNode def) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  std::uint32_t key = ts_node_start_byte(def);
  if (auto it = s.builder_scopes.find(key); it != s.builder_scopes.end()) return *it->second;
  s.builder_scopes[key] = std::make_shared<const LocalNames>();  // a builder calling itself sees no locals
  auto scope = std::make_shared<const LocalNames>(computeScope(unit, file, def));
  s.builder_scopes[key] = scope;
  return *scope;
}

BuilderScopeGuard::BuilderScopeGuard(Unit& unit, int file, int function)
    : unit_(unit), saved_(unit.locals), saved_file_(unit.locals_file) {
  const FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  if (function < 0 || static_cast<std::size_t>(function) >= s.function_builders.size()) return;
  TSNode builder = s.function_builders[static_cast<std::size_t>(function)];
  if (isNull(builder)) return;
  unit.locals = &builderScope(unit, file, builder);
  unit.locals_file = file;
}

BuilderScopeGuard::~BuilderScopeGuard() {
  unit_.locals = saved_;
  unit_.locals_file = saved_file_;
}

}  // namespace portcheck::dsl::detail
