// @pl.jit entries with bare `pl.Tensor` parameters are specialised by their first call: the JIT takes
// dtype and shape from the torch tensors passed. Upstream files make that call in their own
// `if __name__ == "__main__":` block (pypto's examples: `a = torch.full((128, 128), 2.0,
// dtype=torch.float32)` then `tile_add_128(a, b, c, config=cfg)`), so the block says what the kernels
// are compiled for. Read here: torch constructors (shape from the size arguments, dtype from dtype=
// or torch's float32 default) and `.to(torch.X)` / `.bfloat16()` / `.float()` / `.half()` casts.
// Files that build their inputs in a fixture function instead (`def random_inputs(): ... return
// {"hidden_states": rn([B, H]).to(torch.bfloat16), ...}`, handed to the golden harness as TensorSpecs
// of the same names) give each parameter named by a key that tensor's type.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

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
  // argparse: each option's default (`add_argument("--mode", default="mixed")` -> mode), and the
  // names bound to `parser.parse_args()`: the file run alone gets the defaults.
  std::unordered_map<std::string, TSNode> option_defaults;
  std::unordered_set<std::string> parsed_args;
  // Local helpers building a float32 tensor of the size their first parameter gives
  // (`def rn(shape, std=1.0): return torch.empty(shape).normal_(0.0, std)`).
  std::unordered_set<std::string> shape_helpers;
  // A list or tuple literal bound to a name (`cases = [("vec", fn, (x, y)), ...]`), which a later `for`
  // walks; and a name a loop binds to a tuple of arguments (`for name, fn, args in cases:`), each
  // element's type (a tensor's, else Unknown), which a call spreads (`fn.lower(*args)`).
  std::unordered_map<std::string, TSNode> literals;
  std::unordered_map<std::string, std::vector<TypeInfo>> tuples;
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
      // A tensor a helper of the file builds (`rn([H, D], 0.02).to(torch.bfloat16)`): the cast says
      // its dtype, its shape is not known here.
      const bool casts = method == "to" || method == "bfloat16" || method == "float" || method == "half" || method == "int";
      if (base.kind != ValueKind::Tensor && casts && nodeType(object) == "call") {
        base = TypeInfo{};
        base.kind = ValueKind::Tensor;
        base.space = MemSpace::DDR;
      }
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
  // torch.tensor([[...], ...], dtype=...): the shape is the literal's nesting; integers are int64 and
  // any float makes it float32, as torch infers them.
  if (name == "torch.tensor" && !positional.empty() &&
      (nodeType(positional[0]) == "list" || nodeType(positional[0]) == "tuple")) {
    t.kind = ValueKind::Tensor;
    t.space = MemSpace::DDR;
    t.dtype = DType::Int64;
    TSNode level = positional[0];
    while (!isNull(level) && (nodeType(level) == "list" || nodeType(level) == "tuple")) {
      std::vector<TSNode> items;
      for (TSNode x : namedChildren(level))
        if (!isComment(x)) items.push_back(x);
      t.shape.dims.push_back(Dim(static_cast<std::int64_t>(items.size())));
      level = items.empty() ? TSNode{} : items.front();
    }
    t.shape.rank_known = true;
    if (textIn(unit, file, positional[0]).find('.') != std::string_view::npos) t.dtype = DType::FP32;
    for (const auto& [k, v] : keywords)
      if (k == "dtype") t.dtype = torchDType(textIn(unit, file, v));
    return t;
  }
  static const std::unordered_map<std::string_view, DType> kCtors = {
      {"torch.randn", DType::FP32}, {"torch.rand", DType::FP32},  {"torch.zeros", DType::FP32},
      {"torch.ones", DType::FP32},  {"torch.empty", DType::FP32}, {"torch.full", DType::FP32},
      {"torch.randint", DType::Int64}};
  auto ctor = kCtors.find(scope.shape_helpers.count(std::string(name)) ? std::string_view("torch.empty") : name);
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
      else if (k == "function_definition") shapeHelper(c, scope);
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

  // `def rn(shape, ...): return torch.empty(shape)...`: a helper whose tensor is as large as its first
  // argument says (a torch constructor of that parameter, float32: no dtype given).
  void shapeHelper(TSNode def, MainScope& scope) {
    TSNode params = childByField(def, "parameters");
    TSNode body = childByField(def, "body");
    if (isNull(params) || isNull(body)) return;
    std::string first;
    for (TSNode p : namedChildren(params)) {
      if (nodeType(p) == "identifier") first = std::string(text(p));
      else if (nodeType(p) == "default_parameter" || nodeType(p) == "typed_default_parameter") break;
      else if (nodeType(p) == "typed_parameter") first = std::string(text(ts_node_named_child(p, 0)));
      break;
    }
    if (first.empty()) return;
    for (TSNode st : namedChildren(body)) {
      if (nodeType(st) != "return_statement") continue;
      const std::string_view r = text(st);
      if (r.find("dtype") != std::string_view::npos) return;
      for (const char* ctor : {"torch.empty(", "torch.zeros(", "torch.ones(", "torch.randn(", "torch.rand("}) {
        const std::string call = std::string("return ") + ctor + first;
        if (r.rfind(call, 0) == 0 && r.size() > call.size() && (r[call.size()] == ')' || r[call.size()] == ','))
          scope.shape_helpers.insert(std::string(text(childByField(def, "name"))));
      }
    }
  }

  void forLoop(TSNode n, MainScope& scope, int depth) {
    TSNode body = childByField(n, "body");
    TSNode left = childByField(n, "left");
    TSNode right = childByField(n, "right");
    if (nodeType(right) == "identifier")
      if (auto bound = scope.literals.find(std::string(text(right))); bound != scope.literals.end()) right = bound->second;
    std::string_view rk = nodeType(right);
    if (rk == "call") return dictLoop(n, scope, depth);
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
        inner.tuples.erase(name);
        if (i >= values.size() || nodeType(names[i]) != "identifier") continue;
        if (nodeType(values[i]) == "tuple" || nodeType(values[i]) == "list") {
          std::vector<TypeInfo>& types = inner.tuples[name];
          for (TSNode x : namedChildren(values[i]))
            if (!isComment(x)) types.push_back(torchTensor(unit_, file_, x, scope, 0));
          continue;
        }
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

  // The module-level dict literal `name` of the file (`_MODES = {"mixed": mixed_entry, ...}`).
  TSNode moduleDict(std::string_view name) const {
    const FileScan& s = unit_.scans[static_cast<std::size_t>(file_)];
    auto it = s.assign_index.find(std::string(name));
    if (it == s.assign_index.end()) return TSNode{};
    TSNode v = s.assigns[it->second].value;
    return !isNull(v) && nodeType(v) == "dictionary" ? v : TSNode{};
  }

  // `for name, entry in D.items():` / `for entry in D.values():` over a module dict of entries: the
  // body once per entry, with the entry bound.
  void dictLoop(TSNode n, MainScope& scope, int depth) {
    TSNode body = childByField(n, "body");
    TSNode left = childByField(n, "left");
    TSNode callee = childByField(childByField(n, "right"), "function");
    std::string_view method = nodeType(callee) == "attribute" ? text(childByField(callee, "attribute")) : "";
    TSNode dict = nodeType(callee) == "attribute" ? moduleDict(text(childByField(callee, "object"))) : TSNode{};
    std::vector<TSNode> names;
    if (nodeType(left) == "identifier") names.push_back(left);
    else
      for (TSNode x : namedChildren(left)) names.push_back(x);
    // the loop name bound to the entry: the second of `k, v in D.items()`, the one of `v in D.values()`
    std::optional<std::size_t> slot;
    if (method == "items" && names.size() == 2) slot = 1;
    if (method == "values" && names.size() == 1) slot = 0;
    if (isNull(dict) || !slot) return block(body, scope, depth + 1);
    for (TSNode pair : namedChildren(dict)) {
      if (nodeType(pair) != "pair") continue;
      TSNode value = childByField(pair, "value");
      MainScope inner = scope;
      std::string name(text(names[*slot]));
      inner.functions.erase(name);
      if (nodeType(value) == "identifier" && fm_.functionIndex(text(value)) >= 0)
        inner.functions[name] = std::string(text(value));
      block(body, inner, depth + 1);
    }
  }

  // The entry a call's callee names: a function, a loop name bound to one, or `D[key]` of a module
  // dict of entries with a key known here (a constant, or an argparse option's default).
  std::string calledEntry(TSNode callee, const MainScope& scope) {
    if (nodeType(callee) == "identifier") {
      std::string called(text(callee));
      if (auto alias = scope.functions.find(called); alias != scope.functions.end()) called = alias->second;
      return called;
    }
    if (nodeType(callee) != "subscript") return {};
    TSNode dict = moduleDict(text(childByField(callee, "value")));
    TSNode key = childByField(callee, "subscript");
    if (isNull(dict) || isNull(key)) return {};
    if (nodeType(key) == "attribute" && scope.parsed_args.count(std::string(text(childByField(key, "object"))))) {
      auto d = scope.option_defaults.find(std::string(text(childByField(key, "attribute"))));
      if (d == scope.option_defaults.end()) return {};
      key = d->second;
    }
    ConstValue k = evalNode(unit_, file_, key, 0);
    if (!k.known()) return {};
    for (TSNode pair : namedChildren(dict)) {
      if (nodeType(pair) != "pair") continue;
      if (!sameValue(evalNode(unit_, file_, childByField(pair, "key"), 0), k)) continue;
      TSNode value = childByField(pair, "value");
      return nodeType(value) == "identifier" ? std::string(text(value)) : std::string();
    }
    return {};
  }

  // `parser.add_argument("-m", "--mode", default=...)`: the option's dest and default.
  void addArgument(TSNode call, MainScope& scope) {
    std::string dest;
    TSNode def{};
    for (TSNode a : namedChildren(childByField(call, "arguments"))) {
      if (nodeType(a) == "keyword_argument") {
        std::string_view k = text(childByField(a, "name"));
        if (k == "default") def = childByField(a, "value");
        if (k == "dest") {
          ConstValue d = evalNode(unit_, file_, childByField(a, "value"), 0);
          if (d.str) dest = *d.str;
        }
        continue;
      }
      ConstValue flag = evalNode(unit_, file_, a, 0);
      if (!flag.str) continue;
      std::string f = *flag.str;
      bool long_flag = f.rfind("--", 0) == 0;
      if (dest.empty() || long_flag) {
        f.erase(0, f.find_first_not_of('-'));
        std::replace(f.begin(), f.end(), '-', '_');
        if (long_flag || dest.empty()) dest = f;
      }
    }
    if (!dest.empty() && !isNull(def)) scope.option_defaults[dest] = def;
  }

  void statement(TSNode stmt, MainScope& scope) {
    TSNode e = ts_node_named_child(stmt, 0);
    if (isNull(e)) return;
    if (nodeType(e) == "assignment") {
      TSNode left = childByField(e, "left");
      if (nodeType(left) != "identifier") return;
      TSNode right = childByField(e, "right");
      if (!isNull(right) && nodeType(right) == "call" && text(childByField(right, "function")).ends_with(".parse_args")) {
        scope.parsed_args.insert(std::string(text(left)));
        return;
      }
      TypeInfo t = torchTensor(unit_, file_, childByField(e, "right"), scope, 0);
      std::string name(text(left));
      if (t.kind == ValueKind::Tensor) scope.tensors[name] = t;
      else scope.tensors.erase(name);
      scope.literals.erase(name);
      if (!isNull(right) && (nodeType(right) == "list" || nodeType(right) == "tuple")) scope.literals[name] = right;
      // `prog = entry.lower(x, y)`: the call specialises the entry as a statement would.
      if (!isNull(right) && nodeType(right) == "call") entryCall(right, scope);
      return;
    }
    if (nodeType(e) != "call") return;
    if (text(childByField(e, "function")).ends_with(".add_argument")) return addArgument(e, scope);
    entryCall(e, scope);
  }

  // A call of an entry (`entry(x, y)`, `entry.lower(x, y)` / `.compile(...)`, through a loop's name or
  // a dict of entries): each positional argument's torch tensor types the parameter in its place; a
  // spread tuple a loop bound (`fn.lower(*args)`) gives its elements in turn.
  void entryCall(TSNode e, const MainScope& scope) {
    TSNode callee = childByField(e, "function");
    if (nodeType(callee) == "attribute") {
      const std::string_view method = text(childByField(callee, "attribute"));
      if (method != "lower" && method != "compile") return;
      callee = childByField(callee, "object");
    }
    std::string called = calledEntry(callee, scope);
    if (called.empty()) return;
    int fn = fm_.functionIndex(called);
    if (fn < 0 || fm_.functions[static_cast<std::size_t>(fn)].kind != FunctionKind::JitEntry) return;
    auto& slots = unit_.specialised[{file_, fn}];
    std::size_t i = 0;
    auto place = [&](const TypeInfo& t) {
      if (slots.size() <= i) slots.resize(i + 1);
      if (t.kind == ValueKind::Tensor && t.dtype != DType::Unknown && !slots[i]) slots[i] = t;
      ++i;
    };
    for (TSNode a : namedChildren(childByField(e, "arguments"))) {
      if (isComment(a) || nodeType(a) == "keyword_argument") continue;
      if (nodeType(a) == "list_splat") {
        TSNode spread = ts_node_named_child(a, 0);
        auto bound = isNull(spread) ? scope.tuples.end() : scope.tuples.find(std::string(text(spread)));
        if (bound == scope.tuples.end()) return;  // what follows is in no known place
        for (const TypeInfo& t : bound->second) place(t);
        continue;
      }
      place(torchTensor(unit_, file_, a, scope, 0));
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

namespace {

// The names of a function definition's parameters, in order.
std::vector<std::string> fixtureParamNames(const Unit& unit, int file, TSNode def) {
  std::vector<std::string> out;
  TSNode params = childByField(def, "parameters");
  if (isNull(params)) return out;
  for (TSNode p : namedChildren(params)) {  // as buildSignatures counts them: *args and comments are none
    std::string_view k = nodeType(p);
    TSNode name{};
    if (k == "identifier") name = p;
    else if (k == "typed_parameter") name = ts_node_named_child(p, 0);
    else if (k == "typed_default_parameter" || k == "default_parameter") name = childByField(p, "name");
    if (isNull(name) || nodeType(name) != "identifier") continue;
    out.emplace_back(textIn(unit, file, name));
  }
  return out;
}

// The dict literal a plain function returns at its top level (`return {"x": ..., ...}`), or a null node.
TSNode returnedDict(TSNode def) {
  TSNode body = childByField(def, "body");
  if (isNull(body)) return TSNode{};
  for (TSNode c : namedChildren(body)) {
    if (nodeType(c) != "return_statement") continue;
    TSNode v = ts_node_named_child(c, 0);
    if (!isNull(v) && nodeType(v) == "dictionary") return v;
  }
  return TSNode{};
}

}  // namespace

void specialiseEntriesFromFixtures(Unit& unit, int file) {
  const FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  const FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  for (std::size_t f = 0; f < fm.functions.size() && f < s.function_nodes.size(); ++f) {
    if (fm.functions[f].kind != FunctionKind::Helper) continue;
    TSNode dict = returnedDict(s.function_nodes[f]);
    if (isNull(dict)) continue;
    // The fixture's own tensors (`seq_lens = torch.full([B], L, dtype=torch.int32)`), then its entries.
    MainScope scope;
    MainWalker(unit, file).block(childByField(s.function_nodes[f], "body"), scope, 0);
    std::unordered_map<std::string, TypeInfo> named;
    for (TSNode pair : namedChildren(dict)) {
      if (nodeType(pair) != "pair") continue;
      ConstValue key = evalNode(unit, file, childByField(pair, "key"), 0);
      if (!key.str) continue;
      TypeInfo t = torchTensor(unit, file, childByField(pair, "value"), scope, 0);
      if (t.kind == ValueKind::Tensor && t.dtype != DType::Unknown) named[*key.str] = t;
    }
    if (named.size() < 2) continue;
    for (std::size_t e = 0; e < fm.functions.size() && e < s.function_nodes.size(); ++e) {
      if (fm.functions[e].kind != FunctionKind::JitEntry) continue;
      const std::vector<std::string> names = fixtureParamNames(unit, file, s.function_nodes[e]);
      std::size_t matched = 0;
      for (const std::string& n : names) matched += named.count(n);
      if (matched < 2) continue;  // a dict of the entry's inputs names at least two of its parameters
      auto& slots = unit.specialised[{file, static_cast<int>(e)}];
      if (slots.size() < names.size()) slots.resize(names.size());
      for (std::size_t i = 0; i < names.size(); ++i)
        if (auto it = named.find(names[i]); it != named.end() && !slots[i]) slots[i] = it->second;
    }
  }
}

}  // namespace portcheck::dsl::detail
