#include "lint/proj/golden_source.h"

#include <cctype>
#include <cmath>

#include "dsl/const_eval.h"
#include "parse/parse_cache.h"

namespace portcheck::proj {

namespace {

constexpr int kMaxGoldenDepth = 16;  // name and call chains followed; deeper is unknown

std::string cutText(std::string_view t) {
  std::string s(t.substr(0, 60));
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (t.size() > 60) s += "...";
  return s;
}

// The function_definition of a (possibly decorated) module-level definition; null otherwise.
TSNode functionDefinitionOf(TSNode stmt) {
  std::string_view t = nodeType(stmt);
  if (t == "function_definition") return stmt;
  if (t == "decorated_definition") {
    TSNode d = childByField(stmt, "definition");
    if (!isNull(d) && nodeType(d) == "function_definition") return d;
  }
  return TSNode{};
}

TSNode unwrapParens(TSNode n) {
  while (!isNull(n) && nodeType(n) == "parenthesized_expression") {
    std::vector<TSNode> kids = namedChildren(n);
    std::size_t i = 0;
    while (i < kids.size() && isComment(kids[i])) ++i;
    if (i == kids.size()) return TSNode{};
    n = kids[i];
  }
  return n;
}

}  // namespace

// ------------------------------------------------------------------ literals and dtypes

const PyLiteral* PyLiteral::get(std::string_view key) const {
  const PyLiteral* found = nullptr;
  if (kind != Kind::Dict) return nullptr;
  for (const auto& [k, v] : items)
    if (k.kind == Kind::String && k.s == key) found = &v;
  return found;
}

const PyLiteral* PyLiteral::firstNonLiteral() const {
  if (kind == Kind::Other) return this;
  for (const PyLiteral& e : elems)
    if (const PyLiteral* p = e.firstNonLiteral()) return p;
  for (const auto& [k, v] : items) {
    if (const PyLiteral* p = k.firstNonLiteral()) return p;
    if (const PyLiteral* p = v.firstNonLiteral()) return p;
  }
  return nullptr;
}

std::optional<std::string> stringLiteralValue(TSNode n, std::string_view source) {
  if (isNull(n)) return std::nullopt;
  std::string_view t = nodeType(n);
  if (t == "concatenated_string") {
    std::string all;
    for (TSNode part : namedChildren(n)) {
      if (isComment(part)) continue;
      std::optional<std::string> v = stringLiteralValue(part, source);
      if (!v) return std::nullopt;
      all += *v;
    }
    return all;
  }
  if (t != "string") return std::nullopt;
  std::string out;
  bool raw = false;
  for (TSNode c : namedChildren(n)) {
    std::string_view ct = nodeType(c);
    std::uint32_t b = ts_node_start_byte(c), e = ts_node_end_byte(c);
    if (e < b || e > source.size()) return std::nullopt;
    std::string_view ctext = source.substr(b, e - b);
    if (ct == "string_start") {
      for (char ch : ctext) {
        if (ch == 'r' || ch == 'R') raw = true;
        if (ch == 'f' || ch == 'F' || ch == 'b' || ch == 'B' || ch == 't' || ch == 'T') {
          if (ch == 'f' || ch == 'F' || ch == 't' || ch == 'T') return std::nullopt;  // formatted: not a literal
        }
      }
    } else if (ct == "string_content") {
      out += ctext;
    } else if (ct == "escape_sequence") {
      if (raw || ctext.size() < 2) {
        out += ctext;
        continue;
      }
      switch (ctext[1]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': out += '\0'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case '\n': break;
        default: out += ctext; break;
      }
    } else if (ct == "interpolation") {
      return std::nullopt;
    }
  }
  return out;
}

TensorDtype dtypeFromName(std::string_view name) {
  if (name.rfind("torch.", 0) == 0) name.remove_prefix(6);
  if (name.rfind("pl.", 0) == 0) name.remove_prefix(3);
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "float32" || n == "fp32" || n == "float" || n == "f32") return TensorDtype::Float32;
  if (n == "bfloat16" || n == "bf16") return TensorDtype::BFloat16;
  if (n == "float16" || n == "fp16" || n == "half" || n == "f16") return TensorDtype::Float16;
  if (n == "float64" || n == "fp64" || n == "double" || n == "f64") return TensorDtype::Float64;
  if (n == "bool") return TensorDtype::Bool;
  for (std::string_view i : {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int", "long",
                             "short"})
    if (n == i) return TensorDtype::Integer;
  return TensorDtype::Unknown;
}

std::string_view dtypeName(TensorDtype d) {
  switch (d) {
    case TensorDtype::Float64: return "float64";
    case TensorDtype::Float32: return "float32";
    case TensorDtype::Float16: return "float16";
    case TensorDtype::BFloat16: return "bfloat16";
    case TensorDtype::Integer: return "integer";
    case TensorDtype::Bool: return "bool";
    case TensorDtype::Unknown: break;
  }
  return "unknown";
}

bool isFloating(TensorDtype d) {
  return d == TensorDtype::Float64 || d == TensorDtype::Float32 || d == TensorDtype::Float16 ||
         d == TensorDtype::BFloat16;
}

// ------------------------------------------------------------------ the module

GoldenSource::GoldenSource(const SourceFile& file) : file_(&file), tree_(parsePythonShared(file.text)) {
  if (!tree_.ok()) return;
  for (TSNode stmt : namedChildren(tree_.root())) {
    if (TSNode fn = functionDefinitionOf(stmt); !isNull(fn)) {
      functions_[std::string(text(childByField(fn, "name")))] = fn;
      continue;
    }
    if (nodeType(stmt) != "expression_statement") continue;
    for (TSNode a : namedChildren(stmt)) {
      if (nodeType(a) != "assignment") continue;
      // a = b = v: every left side is bound to the innermost value
      std::vector<TSNode> lefts{childByField(a, "left")};
      TSNode right = childByField(a, "right");
      while (!isNull(right) && nodeType(right) == "assignment") {
        lefts.push_back(childByField(right, "left"));
        right = childByField(right, "right");
      }
      for (TSNode l : lefts)
        if (!isNull(l) && nodeType(l) == "identifier") bindings_[std::string(text(l))] = {l, right};
    }
  }
}

SrcLoc GoldenSource::loc(TSNode n) const {
  if (isNull(n)) return {};
  TSPoint p = ts_node_start_point(n);
  return {static_cast<int>(p.row) + 1, file_->column(p.row, p.column)};
}

TSNode GoldenSource::assigned(std::string_view name, SrcLoc* at) const {
  auto it = bindings_.find(name);
  if (it == bindings_.end()) return TSNode{};
  if (at) *at = loc(it->second.first);
  return it->second.second;
}

TSNode GoldenSource::function(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? TSNode{} : it->second;
}

PyLiteral GoldenSource::literal(TSNode n) const {
  PyLiteral v;
  n = unwrapParens(n);
  if (isNull(n)) return v;
  v.loc = loc(n);
  v.text = cutText(text(n));
  std::string_view t = nodeType(n);
  auto children = [&](PyLiteral::Kind kind) {
    v.kind = kind;
    for (TSNode c : namedChildren(n))
      if (!isComment(c)) v.elems.push_back(literal(c));
  };
  if (t == "integer" || t == "float") {
    dsl::Number num = dsl::parseNumberLiteral(text(n));
    if (num.isInt()) {
      v.kind = PyLiteral::Kind::Int;
      v.i = num.i;
    } else if (num.known()) {
      v.kind = PyLiteral::Kind::Float;
      v.f = num.f;
    }
  } else if (t == "unary_operator") {
    std::string_view op = text(childByField(n, "operator"));
    PyLiteral arg = literal(childByField(n, "argument"));
    if ((op == "-" || op == "+") && arg.isNumber()) {
      v.kind = arg.kind;
      v.i = op == "-" ? -arg.i : arg.i;
      v.f = op == "-" ? -arg.f : arg.f;
    }
  } else if (t == "string" || t == "concatenated_string") {
    if (std::optional<std::string> s = stringLiteralValue(n, file_->text)) {
      v.kind = PyLiteral::Kind::String;
      v.s = std::move(*s);
    }
  } else if (t == "true" || t == "false") {
    v.kind = PyLiteral::Kind::Bool;
    v.b = t == "true";
  } else if (t == "none") {
    v.kind = PyLiteral::Kind::None;
  } else if (t == "list") {
    children(PyLiteral::Kind::List);
  } else if (t == "tuple") {
    children(PyLiteral::Kind::Tuple);
  } else if (t == "set") {
    children(PyLiteral::Kind::Set);
  } else if (t == "dictionary") {
    v.kind = PyLiteral::Kind::Dict;
    for (TSNode c : namedChildren(n)) {
      if (isComment(c)) continue;
      if (nodeType(c) != "pair") {  // **other: not a literal
        PyLiteral bad;
        bad.loc = loc(c);
        bad.text = cutText(text(c));
        v.items.push_back(PyDictItem{bad, PyLiteral{}});
        v.items.back().second.kind = PyLiteral::Kind::None;
        continue;
      }
      v.items.push_back(PyDictItem{literal(childByField(c, "key")), literal(childByField(c, "value"))});
    }
  }
  return v;
}

std::optional<double> GoldenSource::number(TSNode n) const { return numberAt(n, 0); }

std::optional<double> GoldenSource::numberAt(TSNode n, int depth) const {
  n = unwrapParens(n);
  if (isNull(n) || depth > kMaxGoldenDepth) return std::nullopt;
  std::string_view t = nodeType(n);
  if (t == "integer" || t == "float") {
    dsl::Number num = dsl::parseNumberLiteral(text(n));
    if (!num.known()) return std::nullopt;
    return num.asDouble();
  }
  if (t == "identifier") return numberAt(assigned(text(n)), depth + 1);
  if (t == "unary_operator") {
    std::optional<double> a = numberAt(childByField(n, "argument"), depth + 1);
    std::string_view op = text(childByField(n, "operator"));
    if (!a) return std::nullopt;
    if (op == "-") return -*a;
    if (op == "+") return *a;
    return std::nullopt;
  }
  if (t == "binary_operator") {
    std::optional<double> a = numberAt(childByField(n, "left"), depth + 1);
    std::optional<double> b = numberAt(childByField(n, "right"), depth + 1);
    if (!a || !b) return std::nullopt;
    std::string_view op = text(childByField(n, "operator"));
    double r;
    if (op == "+") r = *a + *b;
    else if (op == "-") r = *a - *b;
    else if (op == "*") r = *a * *b;
    else if (op == "/" && *b != 0) r = *a / *b;
    else if (op == "**") r = std::pow(*a, *b);
    else return std::nullopt;
    if (!std::isfinite(r)) return std::nullopt;
    return r;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> GoldenSource::outputs() const {
  TSNode v = assigned("__outputs__");
  if (isNull(v)) return std::nullopt;
  PyLiteral lit = literal(v);
  if (!lit.isSequence()) return std::nullopt;
  std::vector<std::string> names;
  for (const PyLiteral& e : lit.elems) {
    if (e.kind != PyLiteral::Kind::String) return std::nullopt;
    names.push_back(e.s);
  }
  return names;
}

namespace {

// The last `name = value` binding inside `body` (a function body), by identifier; null when none.
TSNode localBinding(const GoldenSource& g, TSNode body, std::string_view name) {
  TSNode found{};
  forEachNode(body, [&](TSNode n) {
    if (nodeType(n) != "assignment") return;
    TSNode l = childByField(n, "left");
    if (!isNull(l) && nodeType(l) == "identifier" && g.text(l) == name) found = childByField(n, "right");
  });
  return found;
}

}  // namespace

TensorDtype GoldenSource::dtypeOfExpr(TSNode n, TSNode body, int depth) const {
  n = unwrapParens(n);
  if (isNull(n) || depth > kMaxGoldenDepth) return TensorDtype::Unknown;
  std::string_view t = nodeType(n);
  if (t == "identifier") return dtypeOfExpr(localBinding(*this, body, text(n)), body, depth + 1);
  if (t != "call") return TensorDtype::Unknown;
  TSNode callee = childByField(n, "function");
  TSNode args = childByField(n, "arguments");
  // dtype=torch.X anywhere in the call's own arguments
  for (TSNode a : namedChildren(args))
    if (nodeType(a) == "keyword_argument" && text(childByField(a, "name")) == "dtype") {
      TSNode val = childByField(a, "value");
      if (nodeType(val) == "attribute") return dtypeFromName(text(val));
      if (std::optional<std::string> s = stringLiteralValue(val, file_->text)) return dtypeFromName(*s);
      return TensorDtype::Unknown;
    }
  if (nodeType(callee) != "attribute") return TensorDtype::Unknown;
  std::string_view method = text(childByField(callee, "attribute"));
  if (method == "to") {
    for (TSNode a : namedChildren(args))
      if (nodeType(a) == "attribute") return dtypeFromName(text(a));
    return TensorDtype::Unknown;
  }
  if (method == "float") return TensorDtype::Float32;
  if (method == "bfloat16") return TensorDtype::BFloat16;
  if (method == "half") return TensorDtype::Float16;
  if (method == "double") return TensorDtype::Float64;
  if (method == "int" || method == "long" || method == "short" || method == "char" || method == "byte")
    return TensorDtype::Integer;
  if (method == "bool") return TensorDtype::Bool;
  // x.clone(), x.contiguous(), x.reshape(...): the dtype of x
  if (method == "clone" || method == "contiguous" || method == "reshape" || method == "view" || method == "detach")
    return dtypeOfExpr(childByField(callee, "object"), body, depth + 1);
  return TensorDtype::Unknown;
}

std::vector<GoldenTensor> GoldenSource::tensors() const {
  std::vector<GoldenTensor> out;
  auto find = [&](const std::string& name) -> GoldenTensor* {
    for (GoldenTensor& t : out)
      if (t.name == name) return &t;
    return nullptr;
  };
  if (TSNode specs = function("build_tensor_specs"); !isNull(specs)) {
    forEachNode(childByField(specs, "body"), [&](TSNode n) {
      if (nodeType(n) != "dictionary") return;
      PyLiteral d = literal(n);
      const PyLiteral* name = d.get("name");
      const PyLiteral* dtype = d.get("dtype");
      if (!name || name->kind != PyLiteral::Kind::String || find(name->s)) return;
      GoldenTensor t;
      t.name = name->s;
      t.loc = d.loc;
      if (dtype && dtype->kind == PyLiteral::Kind::String) t.dtype = dtypeFromName(dtype->s);
      else if (dtype) {
        // "dtype": torch.float32
        for (const auto& [k, v] : d.items)
          if (k.kind == PyLiteral::Kind::String && k.s == "dtype") t.dtype = dtypeFromName(v.text);
      }
      if (const PyLiteral* o = d.get("is_output"); o && o->kind == PyLiteral::Kind::Bool) t.is_output = o->b;
      out.push_back(std::move(t));
    });
  }
  if (TSNode gen = function("generate_inputs"); !isNull(gen)) {
    TSNode body = childByField(gen, "body");
    forEachNode(body, [&](TSNode n) {
      if (nodeType(n) != "tuple") return;
      std::vector<TSNode> kids;
      for (TSNode c : namedChildren(n))
        if (!isComment(c)) kids.push_back(c);
      if (kids.size() != 2) return;
      std::optional<std::string> name = stringLiteralValue(kids[0], file_->text);
      if (!name) return;
      TensorDtype d = dtypeOfExpr(kids[1], body, 0);
      if (GoldenTensor* t = find(*name)) {
        if (t->dtype == TensorDtype::Unknown) t->dtype = d;
        return;
      }
      GoldenTensor t;
      t.name = *name;
      t.dtype = d;
      t.loc = loc(n);
      out.push_back(std::move(t));
    });
  }
  if (std::optional<std::vector<std::string>> outs = outputs())
    for (const std::string& o : *outs)
      if (GoldenTensor* t = find(o)) t->is_output = true;
  return out;
}

}  // namespace portcheck::proj
