// @pl.jit entries with bare `pl.Tensor` parameters are specialised by their first call: the JIT takes
// dtype and shape from the torch tensors passed. Upstream files make that call in their own
// `if __name__ == "__main__":` block (pypto's examples: `a = torch.full((128, 128), 2.0,
// dtype=torch.float32)` then `tile_add_128(a, b, c, config=cfg)`), so the block says what the kernels
// are compiled for. Read here: torch constructors (shape from the size arguments, dtype from dtype=
// or torch's float32 default) and `.to(torch.X)` / `.bfloat16()` / `.float()` / `.half()` casts.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

namespace {

std::string_view textIn(const Unit& unit, int file, TSNode n) {
  return unit.scans[static_cast<std::size_t>(file)].tree.nodeText(n);
}

DType torchDType(std::string_view name) {
  if (name.rfind("torch.", 0) == 0) name.remove_prefix(6);
  if (name == "float32" || name == "float") return DType::FP32;
  if (name == "bfloat16") return DType::BF16;
  if (name == "float16" || name == "half") return DType::FP16;
  if (name == "int8") return DType::Int8;
  if (name == "uint8") return DType::UInt8;
  if (name == "int16") return DType::Int16;
  if (name == "int32" || name == "int") return DType::Int32;
  if (name == "int64" || name == "long") return DType::Int64;
  if (name == "bool") return DType::Bool;
  return DType::Unknown;
}

// What the block has bound so far: torch tensors, and the names a `for a, b in ((f, 128), ...)` loop
// binds for one iteration (an integer, or an entry function).
struct MainScope {
  std::unordered_map<std::string, TypeInfo> tensors;
  std::unordered_map<std::string, std::int64_t> ints;
  std::unordered_map<std::string, std::string> functions;
};

// The type of a torch tensor expression, or a Unknown-kind type.
TypeInfo torchTensor(Unit& unit, int file, TSNode n, const MainScope& scope, int depth) {
  const auto& vars = scope.tensors;
  TypeInfo t;
  if (isNull(n) || depth > 16) return t;
  std::string_view kind = nodeType(n);
  if (kind == "identifier") {
    auto it = vars.find(std::string(textIn(unit, file, n)));
    return it == vars.end() ? t : it->second;
  }
  if (kind != "call") return t;
  TSNode callee = childByField(n, "function");
  TSNode args = childByField(n, "arguments");
  std::vector<TSNode> positional;
  std::vector<std::pair<std::string, TSNode>> keywords;
  for (TSNode a : isNull(args) ? std::vector<TSNode>{} : namedChildren(args)) {
    if (isComment(a)) continue;
    if (nodeType(a) == "keyword_argument")
      keywords.emplace_back(std::string(textIn(unit, file, childByField(a, "name"))), childByField(a, "value"));
    else
      positional.push_back(a);
  }
  std::string_view name = textIn(unit, file, callee);
  // x.to(torch.bfloat16), x.bfloat16(), x.float(), x.half(), x.contiguous(), x.clone()
  if (nodeType(callee) == "attribute") {
    std::string_view method = textIn(unit, file, childByField(callee, "attribute"));
    TSNode object = childByField(callee, "object");
    if (method != "to" && method != "bfloat16" && method != "float" && method != "half" && method != "contiguous" &&
        method != "clone" && method != "int" && textIn(unit, file, object) != "torch")
      return t;
    if (textIn(unit, file, object) != "torch") {
      TypeInfo base = torchTensor(unit, file, object, scope, depth + 1);
      if (base.kind != ValueKind::Tensor) return t;
      if (method == "to" && !positional.empty()) {
        DType d = torchDType(textIn(unit, file, positional[0]));
        if (d != DType::Unknown) base.dtype = d;
      }
      for (const auto& [k, v] : keywords)
        if (k == "dtype") base.dtype = torchDType(textIn(unit, file, v));
      if (method == "bfloat16") base.dtype = DType::BF16;
      if (method == "float") base.dtype = DType::FP32;
      if (method == "half") base.dtype = DType::FP16;
      if (method == "int") base.dtype = DType::Int32;
      return base;
    }
  }
  static const std::unordered_map<std::string_view, DType> kCtors = {
      {"torch.randn", DType::FP32}, {"torch.rand", DType::FP32},  {"torch.zeros", DType::FP32},
      {"torch.ones", DType::FP32},  {"torch.empty", DType::FP32}, {"torch.full", DType::FP32},
      {"torch.randint", DType::Int64}};
  auto ctor = kCtors.find(name);
  if (ctor == kCtors.end()) return t;
  t.kind = ValueKind::Tensor;
  t.space = MemSpace::DDR;
  t.dtype = ctor->second;
  for (const auto& [k, v] : keywords)
    if (k == "dtype") t.dtype = torchDType(textIn(unit, file, v));
  // Size: a tuple / list first argument, else the leading integer arguments (randint: after low/high).
  std::vector<TSNode> dims;
  std::size_t skip = name == "torch.randint" ? std::min<std::size_t>(positional.size(), 2) : 0;
  if (positional.size() > skip && (nodeType(positional[skip]) == "tuple" || nodeType(positional[skip]) == "list")) {
    for (TSNode d : namedChildren(positional[skip]))
      if (!isComment(d)) dims.push_back(d);
  } else if (name != "torch.full") {
    for (std::size_t i = skip; i < positional.size(); ++i) dims.push_back(positional[i]);
  }
  for (const auto& [k, v] : keywords)
    if (k == "size" && (nodeType(v) == "tuple" || nodeType(v) == "list"))
      for (TSNode d : namedChildren(v))
        if (!isComment(d)) dims.push_back(d);
  t.shape.rank_known = !dims.empty();
  for (TSNode d : dims) {
    if (nodeType(d) == "identifier") {
      auto it = scope.ints.find(std::string(textIn(unit, file, d)));
      if (it != scope.ints.end()) {
        t.shape.dims.push_back(Dim(it->second));
        continue;
      }
    }
    ConstValue c = evalNode(unit, file, d, 0);
    t.shape.dims.push_back(c.number.isInt() ? Dim(c.number.i) : std::nullopt);
  }
  return t;
}

TSNode mainBlock(const Unit& unit, int file) {
  TSNode root = unit.scans[static_cast<std::size_t>(file)].tree.root();
  if (isNull(root)) return TSNode{};
  for (TSNode c : namedChildren(root)) {
    if (nodeType(c) != "if_statement") continue;
    std::string_view cond = textIn(unit, file, childByField(c, "condition"));
    if (cond.find("__name__") != std::string_view::npos && cond.find("__main__") != std::string_view::npos)
      return childByField(c, "consequence");
  }
  return TSNode{};
}

}  // namespace

namespace {

class MainWalker {
 public:
  MainWalker(Unit& unit, int file) : unit_(unit), file_(file), fm_(unit.files[static_cast<std::size_t>(file)]) {}

  // Statements in source order, into plain `with` / `if` / `try` bodies; a `for` over a literal tuple
  // of tuples runs its body once per element with the loop names bound, any other `for` once.
  void block(TSNode n, MainScope& scope, int depth) {
    if (depth > 8) return;
    for (TSNode c : namedChildren(n)) {
      if (++statements_ > 4096) return;
      std::string_view k = nodeType(c);
      if (k == "expression_statement") statement(c, scope);
      else if (k == "for_statement") forLoop(c, scope, depth);
      else if (k == "block" || k == "with_statement" || k == "if_statement" || k == "try_statement" ||
               k == "else_clause" || k == "elif_clause" || k == "except_clause" || k == "finally_clause")
        block(c, scope, depth + 1);
    }
  }

 private:
  Unit& unit_;
  int file_;
  FileModel& fm_;
  int statements_ = 0;

  std::string_view text(TSNode n) const { return textIn(unit_, file_, n); }

  void forLoop(TSNode n, MainScope& scope, int depth) {
    TSNode body = childByField(n, "body");
    TSNode left = childByField(n, "left");
    TSNode right = childByField(n, "right");
    std::string_view rk = nodeType(right);
    if (rk != "tuple" && rk != "list") return block(body, scope, depth + 1);
    std::vector<TSNode> names;
    if (nodeType(left) == "identifier") names.push_back(left);
    else
      for (TSNode x : namedChildren(left)) names.push_back(x);
    int iterations = 0;
    for (TSNode element : namedChildren(right)) {
      if (isComment(element) || ++iterations > 64) continue;
      std::vector<TSNode> values;
      if (names.size() == 1) values.push_back(element);
      else if (nodeType(element) == "tuple" || nodeType(element) == "list" ||
               nodeType(element) == "parenthesized_expression")
        for (TSNode x : namedChildren(element))
          if (!isComment(x)) values.push_back(x);
      MainScope inner = scope;
      for (std::size_t i = 0; i < names.size(); ++i) {
        std::string name(text(names[i]));
        inner.ints.erase(name);
        inner.functions.erase(name);
        inner.tensors.erase(name);
        if (i >= values.size() || nodeType(names[i]) != "identifier") continue;
        if (nodeType(values[i]) == "identifier" && fm_.functionIndex(text(values[i])) >= 0) {
          inner.functions[name] = std::string(text(values[i]));
          continue;
        }
        ConstValue c = evalNode(unit_, file_, values[i], 0);
        if (c.number.isInt()) inner.ints[name] = c.number.i;
      }
      block(body, inner, depth + 1);
    }
  }

  void statement(TSNode stmt, MainScope& scope) {
    TSNode e = ts_node_named_child(stmt, 0);
    if (isNull(e)) return;
    if (nodeType(e) == "assignment") {
      TSNode left = childByField(e, "left");
      if (nodeType(left) != "identifier") return;
      TypeInfo t = torchTensor(unit_, file_, childByField(e, "right"), scope, 0);
      std::string name(text(left));
      if (t.kind == ValueKind::Tensor) scope.tensors[name] = t;
      else scope.tensors.erase(name);
      return;
    }
    if (nodeType(e) != "call") return;
    TSNode callee = childByField(e, "function");
    if (nodeType(callee) != "identifier") return;
    std::string called(text(callee));
    if (auto alias = scope.functions.find(called); alias != scope.functions.end()) called = alias->second;
    int fn = fm_.functionIndex(called);
    if (fn < 0 || fm_.functions[static_cast<std::size_t>(fn)].kind != FunctionKind::JitEntry) return;
    auto& slots = unit_.specialised[{file_, fn}];
    std::size_t i = 0;
    for (TSNode a : namedChildren(childByField(e, "arguments"))) {
      if (isComment(a) || nodeType(a) == "keyword_argument") continue;
      TypeInfo t = torchTensor(unit_, file_, a, scope, 0);
      if (slots.size() <= i) slots.resize(i + 1);
      if (t.kind == ValueKind::Tensor && t.dtype != DType::Unknown && !slots[i]) slots[i] = t;
      ++i;
    }
  }
};

}  // namespace

void specialiseEntriesFromMain(Unit& unit, int file) {
  TSNode block = mainBlock(unit, file);
  if (isNull(block)) return;
  MainScope scope;
  MainWalker(unit, file).block(block, scope, 0);
}

}  // namespace portcheck::dsl::detail
