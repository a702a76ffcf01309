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

// The type of a torch tensor expression, or a Unknown-kind type.
TypeInfo torchTensor(Unit& unit, int file, TSNode n, const std::unordered_map<std::string, TypeInfo>& vars,
                     int depth) {
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
      TypeInfo base = torchTensor(unit, file, object, vars, depth + 1);
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

void specialiseEntriesFromMain(Unit& unit, int file) {
  TSNode block = mainBlock(unit, file);
  if (isNull(block)) return;
  FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  std::unordered_map<std::string, TypeInfo> vars;
  int statements = 0;
  // Statements of the block in order, also inside plain `with` / `for` / `if` bodies (bounded).
  std::vector<TSNode> work = {block};
  std::vector<TSNode> order;
  while (!work.empty() && order.size() < 4096) {
    TSNode n = work.back();
    work.pop_back();
    std::vector<TSNode> kids = namedChildren(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) {
      std::string_view k = nodeType(*it);
      if (k == "expression_statement") order.push_back(*it);
      else if (k == "block" || k == "with_statement" || k == "for_statement" || k == "if_statement" ||
               k == "try_statement" || k == "else_clause")
        work.push_back(*it);
    }
  }
  // `order` holds expression statements depth-first, in reverse within each level: restore source order.
  std::sort(order.begin(), order.end(), [](TSNode a, TSNode b) { return ts_node_start_byte(a) < ts_node_start_byte(b); });
  for (TSNode stmt : order) {
    if (++statements > 4096) break;
    TSNode e = ts_node_named_child(stmt, 0);
    if (isNull(e)) continue;
    if (nodeType(e) == "assignment") {
      TSNode left = childByField(e, "left");
      if (nodeType(left) != "identifier") continue;
      TypeInfo t = torchTensor(unit, file, childByField(e, "right"), vars, 0);
      std::string name(textIn(unit, file, left));
      if (t.kind == ValueKind::Tensor) vars[name] = t;
      else vars.erase(name);
      continue;
    }
    if (nodeType(e) != "call") continue;
    TSNode callee = childByField(e, "function");
    if (nodeType(callee) != "identifier") continue;
    int fn = fm.functionIndex(textIn(unit, file, callee));
    if (fn < 0 || fm.functions[static_cast<std::size_t>(fn)].kind != FunctionKind::JitEntry) continue;
    auto& slots = unit.specialised[{file, fn}];
    std::size_t i = 0;
    for (TSNode a : namedChildren(childByField(e, "arguments"))) {
      if (isComment(a) || nodeType(a) == "keyword_argument") continue;
      TypeInfo t = torchTensor(unit, file, a, vars, 0);
      if (slots.size() <= i) slots.resize(i + 1);
      if (t.kind == ValueKind::Tensor && t.dtype != DType::Unknown && !slots[i]) slots[i] = t;
      ++i;
    }
  }
}

}  // namespace portcheck::dsl::detail
