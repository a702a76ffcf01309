// Calls: a pl.* op typed by type_rules (its tensor results put on chip in incore code), and a call of
// one of the program's own functions (of this file, imported, or a method of self) resolved to it and
// typed by its return annotation or the tensor it passes for the first Out parameter.
#include "dsl/function_body_internal.h"

#include <optional>
#include <unordered_set>

#include "dsl/type_rules.h"

namespace portcheck::dsl::detail {

int BodyBuilder::newResult(TypeInfo type, int stmt, int def_expr) {  // by value: `type` may live in fn_.values
  int v = newValue("", type, stmt, def_expr);
  Value& val = fn_.values[static_cast<std::size_t>(v)];
  val.on_chip = type.kind == ValueKind::Tile;
  return v;
}

int BodyBuilder::callExpr(TSNode n, int stmt, int depth) {
  int callee = expr(childByField(n, "function"), stmt, depth + 1);
  std::vector<int> args;
  std::vector<std::pair<std::string, int>> kwargs;
  std::vector<int> kids;
  TSNode arglist = childByField(n, "arguments");
  if (!isNull(arglist)) {
    if (nodeType(arglist) == "generator_expression") {
      int g = unsupported(arglist, stmt, "GeneratorExp");
      args.push_back(g);
      kids.push_back(g);
    } else {
      for (TSNode a : namedChildren(arglist)) {
        if (isComment(a)) continue;
        if (nodeType(a) == "keyword_argument") {
          int v = expr(childByField(a, "value"), stmt, depth + 1);
          if (v < 0) continue;
          kwargs.emplace_back(std::string(text(childByField(a, "name"))), v);
          kids.push_back(v);
        } else {
          int v = expr(a, stmt, depth + 1);
          if (v < 0) continue;
          args.push_back(v);
          kids.push_back(v);
        }
      }
    }
  }
  int id = addExpr(ExprKind::Call, n, stmt);
  Expr& call = X(id);
  if (callee >= 0) {
    call.children.push_back(callee);
    call.name = dotted(callee);
    if (call.name.empty()) call.name = std::string(text(childByField(n, "function")));
    call.pl_name = X(callee).pl_name;
  }
  for (int k : kids) {
    X(id).children.push_back(k);
    useChild(k, stmt);
  }
  X(id).args = std::move(args);
  X(id).kwargs = std::move(kwargs);
  fn_.calls.push_back(id);
  if (X(id).pl_name == "yield_") {
    // x = pl.yield_(v): the loop / branch result takes its operand's type
    if (X(id).args.size() == 1 && X(X(id).args[0]).value >= 0) {
      const Value& src = fn_.values[static_cast<std::size_t>(X(X(id).args[0]).value)];
      TypeInfo ti = src.type;
      bool on_chip = src.on_chip;
      int v = newResult(ti, stmt, id);
      fn_.values[static_cast<std::size_t>(v)].on_chip = on_chip;
      X(id).value = v;
    }
  } else if (!X(id).pl_name.empty()) typePlCall(id, stmt);
  else resolveUserCall(id, stmt);
  return id;
}

void BodyBuilder::typePlCall(int id, int stmt) {
  OpArgs a{fn_, X(id), [this](int e) { return shapeArg(e); }, [this](int e) { return dtypeOf(e); },
           [this](int e) { return spaceOf(e); }};
  std::optional<TypeInfo> t = inferPlCall(a);
  if (!t) return;
  int v = newResult(*t, stmt, id);
  X(id).value = v;
  markOnChip(v, id);
}

// Tensor-level compute inside incore code becomes tiles; views and GM writes stay in GM.
void BodyBuilder::markOnChip(int v, int call) {
  Value& val = fn_.values[static_cast<std::size_t>(v)];
  if (val.type.kind == ValueKind::Tile) {
    val.on_chip = true;
    return;
  }
  if (val.type.kind != ValueKind::Tensor || !incore()) return;
  std::string_view op = fn_.exprs[static_cast<std::size_t>(call)].pl_name;
  for (std::string_view prefix : {"tensor.", "tile."})
    if (op.rfind(prefix, 0) == 0) op.remove_prefix(prefix.size());
  // pl.prefetch.* warms GM data into L2 (a cache, not an on-chip buffer): the compiler gives the
  // prefetched tensors no tile (deepseek_v4's `prefetch_attn_w` scopes of nine weights hold nothing).
  if (op.rfind("prefetch.", 0) == 0) return;
  static const std::unordered_set<std::string_view> kGm = {
      "store", "assemble", "create_tensor", "create", "no_dep", "dump_tag", "reshape", "transpose",
      "reinterpret_view", "view", "mscatter", "scatter_update", "set_validshape", "write"};
  // A tensor created inside an incore scope is a tile there (ConvertTensorToTile: tensor.create ->
  // tile.create in Vec), written in place by slice assignments and live to its last use.
  const bool created = op == "create_tensor" || op == "create";
  if (kGm.count(op) && !created) {
    // An op on an on-chip operand stays on chip (reshape of a tile-like tensor, ...).
    const Expr& c = fn_.exprs[static_cast<std::size_t>(call)];
    int first = c.args.empty() ? -1 : c.args[0];
    const Value* src = first >= 0 ? fn_.valueOf(first) : nullptr;
    if (op == "store" || op == "assemble" || !src || !src->on_chip)
      return;
  }
  val.on_chip = true;
  if (val.type.space == MemSpace::DDR || val.type.space == MemSpace::Unknown)
    val.type.space = (op == "matmul" || op == "matmul_acc") ? MemSpace::Acc : MemSpace::Vec;
}

void BodyBuilder::resolveUserCall(int id, int stmt) {
  Expr& call = X(id);
  const std::string& name = call.name;
  FunctionRef ref;
  std::size_t dot = name.find('.');
  if (dot == std::string::npos) {
    int idx = fm_.functionIndex(name);
    if (idx >= 0) ref = {file_, idx};
    else if (auto b = scan_.bindings.find(name); b != scan_.bindings.end() && b->second.kind == Binding::Kind::Name)
      ref = {b->second.file, unit_.files[static_cast<std::size_t>(b->second.file)].functionIndex(b->second.name)};
  } else if (name.rfind("self.", 0) == 0 && !fn_.class_name.empty() && name.find('.', 5) == std::string::npos) {
    int idx = fm_.functionIndex(name.substr(5), fn_.class_name);
    if (idx >= 0) ref = {file_, idx};
  } else if (name.find('.', dot + 1) == std::string::npos) {
    auto b = scan_.bindings.find(name.substr(0, dot));
    if (b != scan_.bindings.end() && b->second.kind == Binding::Kind::Module)
      ref = {b->second.file, unit_.files[static_cast<std::size_t>(b->second.file)].functionIndex(name.substr(dot + 1))};
  }
  if (ref.valid()) {
    call.callee_file = ref.file;
    call.callee_function = ref.function;
  }
  // Result: a DSL callee returns tensors (its return annotation says which when given).
  TypeInfo t;
  bool tensor_arg = false;
  for (int a : call.args) {
    const TypeInfo* at = typeOf(a);
    if (at && at->kind == ValueKind::Tensor) tensor_arg = true;
  }
  if (ref.valid()) {
    const Function& callee = unit_.files[static_cast<std::size_t>(ref.file)].functions[static_cast<std::size_t>(ref.function)];
    if (callee.return_type.kind != ValueKind::Unknown) {
      t = callee.return_type;
    } else if (callee.isDsl() && tensor_arg) {
      // c = kernel(a, b, c): the result is the tensor passed for the first Out / InOut parameter
      t.kind = ValueKind::Tensor;
      if (const TypeInfo* out = outArgumentType(call, 0)) t = *out;
      t.space = MemSpace::DDR;
    }
  }
  if (t.kind != ValueKind::Unknown) X(id).value = newResult(t, stmt, id);
}

}  // namespace portcheck::dsl::detail
