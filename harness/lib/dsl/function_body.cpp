// Function bodies: the signatures and bodies of a unit's DSL functions built (function_body_internal.h
// lists the builder's parts), inline functions called only from kernels rebuilt as incore code, and
// bare tensor parameters specialised from their callers. Here too: the pre-scan of a body's
// assignments, and the values names are bound to.
#include "dsl/function_body_internal.h"

#include <algorithm>
#include <set>

namespace portcheck::dsl::detail {

void BodyBuilder::buildSignature(TSNode def) {
  buildParams(childByField(def, "parameters"));
  TSNode ret = childByField(def, "return_type");
  if (!isNull(ret)) {
    fn_.return_annotation = expr(unwrapType(ret), -1, 0);
    fn_.return_type = annotationType(fn_.return_annotation, nullptr, nullptr);
    if (fn_.return_type.kind == ValueKind::Tensor) fn_.return_type.space = MemSpace::DDR;
  }
}

void BodyBuilder::buildBody(TSNode def, bool inlined_into_kernel) {
  for (const Param& p : fn_.params)
    if (!p.is_self && p.value >= 0) env_[p.name] = p.value;
  countAssignments(childByField(def, "body"));
  // Room up front, so the vectors seldom move their 100-200-byte elements as they grow: over the upstream
  // corpus a DSL body has an expression per 10 bytes (at most 0.18 per byte), a value per 70 and a
  // statement per 125.
  const std::size_t bytes = ts_node_end_byte(def) - ts_node_start_byte(def);
  fn_.exprs.reserve(fn_.exprs.size() + bytes / 8);
  fn_.values.reserve(fn_.values.size() + bytes / 48);
  fn_.stmts.reserve(fn_.stmts.size() + bytes / 80);
  const bool whole = fn_.isIncoreFunction() || inlined_into_kernel;
  if (whole) {
    IncoreRegion r;
    r.kind = RegionKind::IncoreFunction;
    if (fn_.isIncoreFunction()) r.kernel_name = fn_.name;
    fn_.regions.push_back(r);
    region_ = 0;
  }
  buildBlock(childByField(def, "body"), -1, 0);
  if (whole) fn_.regions[0].last = static_cast<int>(fn_.stmts.size());
}

void BodyBuilder::countAssignments(TSNode body) {
  if (isNull(body)) return;
  std::vector<TSNode> stack{body};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    std::string_view t = nodeType(n);
    if (t == "assignment" || t == "augmented_assignment" || t == "for_statement") {
      TSNode left = childByField(n, "left");
      std::vector<TSNode> names{left};
      while (!names.empty()) {
        TSNode x = names.back();
        names.pop_back();
        if (isNull(x)) continue;
        if (nodeType(x) == "identifier") {
          assign_count_[std::string(text(x))] += (t == "assignment") ? 1 : 2;
          continue;
        }
        std::string_view xt = nodeType(x);
        if (xt == "pattern_list" || xt == "tuple_pattern" || xt == "list_pattern" || xt == "tuple" ||
            xt == "list" || xt == "parenthesized_expression")
          for (TSNode child : namedChildren(x)) names.push_back(child);
      }
    }
    // Assignments are statements (or the value of a chained one): only statement containers
    // can hold them, so expressions are not walked.
    if (!holdsStatements(t)) continue;
    for (TSNode child : namedChildren(n)) stack.push_back(child);
  }
}

bool BodyBuilder::holdsStatements(std::string_view t) {
  for (std::string_view s : {"block", "expression_statement", "assignment", "if_statement", "elif_clause",
                             "else_clause", "for_statement", "while_statement", "with_statement", "try_statement",
                             "except_clause", "except_group_clause", "finally_clause", "match_statement",
                             "case_clause", "ERROR"})
    if (t == s) return true;
  return false;
}

int BodyBuilder::newValue(std::string name, TypeInfo type, int def_stmt, int def_expr) {
  Value v;
  v.name = std::move(name);
  v.type = std::move(type);
  v.def_stmt = def_stmt;
  v.def_expr = def_expr;
  fn_.values.push_back(std::move(v));
  return static_cast<int>(fn_.values.size()) - 1;
}

const TypeInfo* BodyBuilder::typeOf(int e) const {
  if (e < 0) return nullptr;
  int v = fn_.exprs[static_cast<std::size_t>(e)].value;
  return v >= 0 ? &fn_.values[static_cast<std::size_t>(v)].type : nullptr;
}

// Binds `name` to `value` at `stmt`, noting a loop-carried redefinition.
void BodyBuilder::bind(const std::string& name, int value, int stmt) {
  auto it = env_.find(name);
  if (it != env_.end() && it->second != value) {
    adoptAccumulatorSpace(it->second, value);
    const Value& old = fn_.values[static_cast<std::size_t>(it->second)];
    for (int loop : loops_) {  // outermost first
      bool defined_outside = old.def_stmt < loop;
      // the loop is still open: every statement after it so far is inside it
      bool used_inside = std::any_of(old.uses.begin(), old.uses.end(), [&](int u) { return u > loop; });
      if (defined_outside && used_inside) {
        Value& nv = fn_.values[static_cast<std::size_t>(value)];
        nv.loop_carried = true;
        nv.carried_loop = loop;
        break;
      }
    }
  }
  env_[name] = value;
}

// acc = pl.create_tensor(...) then, in a loop, acc = pl.matmul(...): the created tile defaults to Vec,
// but InferTileMemorySpace gives a loop-carry init the space the body writes (Acc here).
void BodyBuilder::adoptAccumulatorSpace(int old_value, int new_value) {
  Value& old = fn_.values[static_cast<std::size_t>(old_value)];
  const Value& nv = fn_.values[static_cast<std::size_t>(new_value)];
  if (!old.on_chip || !nv.on_chip || old.def_expr < 0 || nv.type.space == old.type.space) return;
  if (nv.type.space == MemSpace::Unknown || nv.type.space == MemSpace::DDR) return;
  std::string_view op = fn_.exprs[static_cast<std::size_t>(old.def_expr)].pl_name;
  if (op != "create_tensor" && op != "create" && op != "tensor.create") return;
  bool in_later_loop = std::any_of(loops_.begin(), loops_.end(), [&](int l) { return old.def_stmt < l; });
  if (in_later_loop) old.type.space = nv.type.space;
}

namespace {

// A plain Python function (golden code, a test driver, a config helper) is not compiled, so it gets no
// signature or body; constants it computes are interpreted from its syntax tree (function_eval.cpp).
bool modelled(const Unit& unit, int file, std::size_t function) {
  return unit.files[static_cast<std::size_t>(file)].functions[function].isDsl();
}

}  // namespace

void buildSignatures(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < s.function_nodes.size(); ++i) {
    if (!modelled(unit, file, i)) continue;
    BuilderScopeGuard locals(unit, file, static_cast<int>(i));
    BodyBuilder(unit, file, static_cast<int>(i)).buildSignature(s.function_nodes[i]);
  }
}

void buildBodies(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < s.function_nodes.size(); ++i) {
    if (!modelled(unit, file, i)) continue;
    BuilderScopeGuard locals(unit, file, static_cast<int>(i));
    BodyBuilder(unit, file, static_cast<int>(i)).buildBody(s.function_nodes[i]);
  }
}

namespace {

// The unit's function a call resolves to, or nullptr.
const Function* calleeIn(const Unit& unit, const Expr& call) {
  if (call.callee_file < 0 || call.callee_function < 0) return nullptr;
  return &unit.files[static_cast<std::size_t>(call.callee_file)].functions[static_cast<std::size_t>(call.callee_function)];
}

}  // namespace

void rebuildFunction(Unit& unit, int file, int function, bool inlined_into_kernel) {
  Function& fn = unit.files[static_cast<std::size_t>(file)].functions[static_cast<std::size_t>(function)];
  Function fresh;
  fresh.name = fn.name;
  fresh.class_name = fn.class_name;
  fresh.in_program = fn.in_program;
  fresh.kind = fn.kind;
  fresh.loc = fn.loc;
  fresh.name_loc = fn.name_loc;
  fresh.last_line = fn.last_line;
  fresh.decorators = fn.decorators;
  fn = std::move(fresh);
  TSNode def = unit.scans[static_cast<std::size_t>(file)].function_nodes[static_cast<std::size_t>(function)];
  BuilderScopeGuard locals(unit, file, function);
  BodyBuilder(unit, file, function).buildSignature(def);
  BodyBuilder(unit, file, function).buildBody(def, inlined_into_kernel);
}

bool specialiseCalleesFromCallers(Unit& unit) {
  std::set<std::pair<int, int>> changed;
  for (const FileModel& fm : unit.files)
    for (const Function& fn : fm.functions)
      for (int c : fn.calls) {
        const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        const Function* resolved = calleeIn(unit, call);
        if (!resolved || !resolved->isDsl() || resolved == &fn) continue;
        const Function& callee = *resolved;
        auto& slots = unit.specialised[{call.callee_file, call.callee_function}];
        std::size_t first = (!callee.params.empty() && callee.params.front().is_self) ? 1 : 0;
        for (std::size_t i = 0; i < call.args.size() && first + i < callee.params.size(); ++i) {
          const Param& p = callee.params[first + i];
          bool bare = (p.type.kind == ValueKind::Tensor || !p.has_annotation) && p.type.dtype == DType::Unknown;
          if (!bare) continue;
          const Value* v = fn.valueOf(call.args[i]);
          if (!v || v->type.kind != ValueKind::Tensor || v->type.dtype == DType::Unknown) continue;
          if (slots.size() < callee.params.size()) slots.resize(callee.params.size());
          if (slots[first + i]) continue;  // the first caller's type wins
          slots[first + i] = v->type;
          changed.insert({call.callee_file, call.callee_function});
        }
      }
  for (const auto& [file, function] : changed) rebuildFunction(unit, file, function, false);
  return !changed.empty();
}

void buildInlinedBodies(Unit& unit) {
  // Inline functions called from incore code and never from host code are rebuilt as incore code,
  // which may put further inline calls in incore code: repeated until nothing changes (bounded).
  std::vector<std::vector<char>> rebuilt(unit.files.size());
  for (std::size_t f = 0; f < unit.files.size(); ++f) rebuilt[f].assign(unit.files[f].functions.size(), 0);
  for (int round = 0; round < 8; ++round) {
    std::vector<std::vector<int>> from_kernel(unit.files.size()), from_host(unit.files.size());
    for (std::size_t f = 0; f < unit.files.size(); ++f) {
      from_kernel[f].assign(unit.files[f].functions.size(), 0);
      from_host[f].assign(unit.files[f].functions.size(), 0);
    }
    for (const FileModel& fm : unit.files)
      for (const Function& fn : fm.functions)
        for (int c : fn.calls) {
          const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
          const Function* callee = calleeIn(unit, call);
          if (!callee || !callee->isInline() || callee == &fn) continue;
          bool incore = call.stmt >= 0 && fn.stmts[static_cast<std::size_t>(call.stmt)].incore;
          (incore ? from_kernel : from_host)[static_cast<std::size_t>(call.callee_file)]
                                            [static_cast<std::size_t>(call.callee_function)] = 1;
        }
    bool changed = false;
    for (std::size_t f = 0; f < unit.files.size(); ++f)
      for (std::size_t i = 0; i < unit.files[f].functions.size(); ++i) {
        if (rebuilt[f][i] || !from_kernel[f][i] || from_host[f][i]) continue;
        if (!unit.files[f].functions[i].scopes.empty()) continue;  // holds kernels of its own: host code
        rebuildFunction(unit, static_cast<int>(f), static_cast<int>(i), true);
        rebuilt[f][i] = 1;
        changed = true;
      }
    if (!changed) break;
  }
}

}  // namespace portcheck::dsl::detail
