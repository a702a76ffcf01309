// Module constants beyond arithmetic: strings, dicts, truth values and the calls that choose a
// configuration by name at import time, as pypto-lib's models do:
//
//   VARIANT = os.environ.get("DEEPSEEK_V4_VARIANT", "pro")      # or a function reading sys.argv
//   PRESETS = {p.name: p for p in (FLASH, PRO)}
//   KERNEL = {n: replace(PRESETS[n], max_position_embeddings=16384) for n in ("pro", "flash")}
//   ACTIVE = KERNEL[VARIANT]
//
// The environment is port-check's own (the compile runs in it, extended, not replaced); sys.argv is
// the file alone, as `python FILE` would see it.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "dsl/const_eval.h"
#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

// Python truth of a known value; nullopt when unknown.
std::optional<bool> truthOf(const ConstValue& v) {
  if (v.none) return false;
  if (v.str) return !v.str->empty();
  if (v.dict) return !v.dict->empty();
  if (v.record) return true;
  if (v.is_tuple) return v.items ? !v.items->empty() : !v.tuple.empty();
  if (v.number.known()) return v.number.asDouble() != 0;
  return std::nullopt;
}

// Binds a comprehension / for target (a name or a tuple of names) to `value`; false when it cannot.
bool bindTarget(Unit& unit, int file, TSNode target, const ConstValue& value,
                std::unordered_map<std::string, ConstValue>& names) {
  std::string_view t = nodeType(target);
  if (t == "identifier") {
    names[std::string(textOf(unit, file, target))] = value;
    return true;
  }
  if (t == "pattern_list" || t == "tuple_pattern" || t == "tuple" || t == "list_pattern") {
    std::vector<TSNode> parts;
    for (TSNode c : namedChildren(target))
      if (!isComment(c)) parts.push_back(c);
    std::vector<ConstValue> elems = elementsOf(value);
    if (elems.size() != parts.size()) return false;
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (!bindTarget(unit, file, parts[i], elems[i], names)) return false;
    return true;
  }
  return false;
}

ConstValue evalWithLocals(Unit& unit, int file, TSNode node, int depth,
                          const std::unordered_map<std::string, ConstValue>& names) {
  const auto* saved = unit.locals;
  int saved_file = unit.locals_file;
  unit.locals = &names;
  unit.locals_file = file;
  ConstValue v = evalNode(unit, file, node, depth);
  unit.locals = saved;
  unit.locals_file = saved_file;
  return v;
}

// Named, not anonymous: the unity build puts this file in one unit with others.
namespace values {

std::vector<TSNode> argsOf(TSNode call) {
  std::vector<TSNode> out;
  TSNode args = childByField(call, "arguments");
  if (isNull(args)) return out;
  for (TSNode a : namedChildren(args))
    if (!isComment(a)) out.push_back(a);
  return out;
}

ConstValue itemsValue(std::vector<ConstValue> items) {
  ConstValue v;
  v.is_tuple = true;
  for (const ConstValue& e : items) v.tuple.push_back(e.number);
  v.items = std::make_shared<const std::vector<ConstValue>>(std::move(items));
  return v;
}

ConstValue boolValue(bool b) {
  ConstValue v;
  v.number = Number::ofInt(b ? 1 : 0);
  return v;
}

// Python's escape sequences that configuration strings use; anything else is kept as written.
std::string unescape(std::string_view e) {
  if (e.size() == 2) switch (e[1]) {
      case 'n': return "\n";
      case 't': return "\t";
      case '\\': return "\\";
      case '\'': return "'";
      case '"': return "\"";
      default: break;
    }
  return std::string(e);
}

// A string literal without interpolation or bytes prefix; unknown otherwise.
ConstValue evalString(Unit& unit, int file, TSNode n) {
  std::string s;
  for (TSNode c : namedChildren(n)) {
    std::string_view t = nodeType(c);
    if (t == "string_start") {
      std::string_view prefix = textOf(unit, file, c);
      if (prefix.find_first_of("bBfF") != std::string_view::npos) return {};
    } else if (t == "string_content") {
      // Escape sequences are children of the content.
      std::uint32_t at = ts_node_start_byte(c);
      std::string_view all = textOf(unit, file, c);
      for (TSNode e : namedChildren(c)) {
        std::uint32_t from = ts_node_start_byte(e);
        s += all.substr(at - ts_node_start_byte(c), from - at);
        s += nodeType(e) == "escape_sequence" ? unescape(textOf(unit, file, e)) : std::string(textOf(unit, file, e));
        at = ts_node_end_byte(e);
      }
      s += all.substr(at - ts_node_start_byte(c));
    } else if (t == "interpolation") {
      return {};
    }
  }
  return stringValue(std::move(s));
}

const ConstValue* dictFind(const ConstValue& d, const ConstValue& key) {
  if (!d.dict) return nullptr;
  for (const auto& [k, v] : *d.dict)
    if (sameValue(k, key)) return &v;
  return nullptr;
}

std::optional<bool> contains(const ConstValue& container, const ConstValue& x) {
  if (!x.known()) return std::nullopt;
  if (container.str) {
    if (!x.str) return std::nullopt;
    return container.str->find(*x.str) != std::string::npos;
  }
  if (container.dict) return dictFind(container, x) != nullptr;
  if (container.is_tuple) {
    for (const ConstValue& e : elementsOf(container)) {
      if (!e.known()) return std::nullopt;
      if (sameValue(e, x)) return true;
    }
    return false;
  }
  return std::nullopt;
}

ConstValue evalDictComprehension(Unit& unit, int file, TSNode n, int depth) {
  TSNode body = childByField(n, "body");
  std::vector<TSNode> fors, ifs;
  for (TSNode c : namedChildren(n)) {
    if (nodeType(c) == "for_in_clause") fors.push_back(c);
    else if (nodeType(c) == "if_clause") ifs.push_back(c);
  }
  if (isNull(body) || nodeType(body) != "pair" || fors.size() != 1) return {};
  std::unordered_map<std::string, ConstValue> names;
  if (unit.locals && unit.locals_file == file) names = *unit.locals;
  ConstValue iterable = evalNode(unit, file, childByField(fors[0], "right"), depth + 1);
  if (!iterable.is_tuple && !iterable.dict) return {};
  std::vector<ConstValue> elems = elementsOf(iterable);
  if (iterable.dict)
    for (const auto& kv : *iterable.dict) elems.push_back(kv.first);
  auto out = std::make_shared<std::vector<std::pair<ConstValue, ConstValue>>>();
  for (const ConstValue& e : elems) {
    if (!bindTarget(unit, file, childByField(fors[0], "left"), e, names)) return {};
    bool keep = true;
    for (TSNode f : ifs) {
      std::optional<bool> t = truthOf(evalWithLocals(unit, file, ts_node_named_child(f, 0), depth + 1, names));
      if (!t) return {};
      keep = keep && *t;
    }
    if (!keep) continue;
    ConstValue k = evalWithLocals(unit, file, childByField(body, "key"), depth + 1, names);
    if (!k.known()) return {};
    out->emplace_back(k, evalWithLocals(unit, file, childByField(body, "value"), depth + 1, names));
  }
  ConstValue v;
  v.dict = std::move(out);
  return v;
}

ConstValue evalDictionary(Unit& unit, int file, TSNode n, int depth) {
  auto out = std::make_shared<std::vector<std::pair<ConstValue, ConstValue>>>();
  for (TSNode c : namedChildren(n)) {
    if (isComment(c)) continue;
    if (nodeType(c) != "pair") return {};  // **spread
    ConstValue k = evalNode(unit, file, childByField(c, "key"), depth + 1);
    if (!k.known()) return {};
    out->emplace_back(k, evalNode(unit, file, childByField(c, "value"), depth + 1));
  }
  ConstValue v;
  v.dict = std::move(out);
  return v;
}

// sys.argv as `python FILE` sees it.
ConstValue argvOf(const Unit& unit, int file) {
  return itemsValue({stringValue(unit.files[static_cast<std::size_t>(file)].path)});
}

bool importsModule(const Unit& unit, int file, std::string_view module) {
  for (const Import& imp : unit.files[static_cast<std::size_t>(file)].imports)
    if (!imp.from && imp.module == module && (imp.alias.empty() || imp.alias == module)) return true;
  return false;
}

// os.environ.get(k, d) / os.getenv(k, d): the variable in port-check's environment, else d.
ConstValue environmentValue(Unit& unit, int file, const std::vector<TSNode>& args, int depth) {
  if (args.empty() || args.size() > 2) return {};
  ConstValue key = evalNode(unit, file, args[0], depth + 1);
  if (!key.str) return {};
  if (const char* v = std::getenv(key.str->c_str())) return stringValue(v);
  if (args.size() == 2) return evalNode(unit, file, args[1], depth + 1);
  ConstValue none;
  return none;
}

std::string stripChars(std::string s, std::string_view chars, bool left, bool right) {
  if (right) s.erase(s.find_last_not_of(chars) + 1);
  if (left) s.erase(0, std::min(s.size(), s.find_first_not_of(chars)));
  return s;
}

// A method of a known string: strip / lower / upper / startswith / endswith / split / replace / join.
ConstValue stringMethod(const std::string& s, std::string_view method, const std::vector<ConstValue>& a) {
  auto str = [&](std::size_t i) -> const std::string* { return i < a.size() && a[i].str ? a[i].str.get() : nullptr; };
  constexpr std::string_view kSpace = " \t\n\r\f\v";
  if (method == "strip" || method == "lstrip" || method == "rstrip") {
    if (!a.empty() && !str(0)) return {};
    std::string_view chars = a.empty() ? kSpace : std::string_view(*str(0));
    return stringValue(stripChars(s, chars, method != "rstrip", method != "lstrip"));
  }
  if (method == "lower" || method == "upper") {
    std::string r = s;
    for (char& c : r) c = static_cast<char>(method == "lower" ? std::tolower(static_cast<unsigned char>(c))
                                                               : std::toupper(static_cast<unsigned char>(c)));
    return stringValue(std::move(r));
  }
  if ((method == "startswith" || method == "endswith") && a.size() == 1 && str(0)) {
    const std::string& p = *str(0);
    bool holds = s.size() >= p.size() &&
                 (method == "startswith" ? s.compare(0, p.size(), p) == 0 : s.compare(s.size() - p.size(), p.size(), p) == 0);
    return boolValue(holds);
  }
  if (method == "split" && !a.empty() && str(0) && !str(0)->empty() && a.size() <= 2) {
    std::int64_t max = a.size() == 2 && a[1].number.isInt() ? a[1].number.i : -1;
    if (a.size() == 2 && !a[1].number.isInt()) return {};
    std::vector<ConstValue> parts;
    std::size_t from = 0;
    const std::string& sep = *str(0);
    for (std::size_t at; (max < 0 || static_cast<std::int64_t>(parts.size()) < max) &&
                         (at = s.find(sep, from)) != std::string::npos;
         from = at + sep.size())
      parts.push_back(stringValue(s.substr(from, at - from)));
    parts.push_back(stringValue(s.substr(from)));
    return itemsValue(std::move(parts));
  }
  if (method == "replace" && a.size() == 2 && str(0) && str(1) && !str(0)->empty()) {
    std::string r;
    std::size_t from = 0;
    for (std::size_t at; (at = s.find(*str(0), from)) != std::string::npos; from = at + str(0)->size())
      r += s.substr(from, at - from) + *str(1);
    return stringValue(r + s.substr(from));
  }
  if (method == "join" && a.size() == 1 && a[0].is_tuple) {
    std::string r;
    bool first = true;
    for (const ConstValue& e : elementsOf(a[0])) {
      if (!e.str) return {};
      if (!first) r += s;
      r += *e.str;
      first = false;
    }
    return stringValue(std::move(r));
  }
  return {};
}

// dataclasses.replace(record, field=value, ...): a copy with those fields changed.
ConstValue replaceFields(Unit& unit, int file, TSNode call, int depth) {
  std::vector<TSNode> args = argsOf(call);
  if (args.empty() || nodeType(args[0]) == "keyword_argument") return {};
  ConstValue base = evalNode(unit, file, args[0], depth + 1);
  if (!base.record) return {};
  auto record = std::make_shared<RecordValue>(*base.record);
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (nodeType(args[i]) != "keyword_argument") return {};
    std::string name(textOf(unit, file, childByField(args[i], "name")));
    ConstValue v = evalNode(unit, file, childByField(args[i], "value"), depth + 1);
    auto it = std::find_if(record->fields.begin(), record->fields.end(), [&](const auto& f) { return f.first == name; });
    if (it != record->fields.end()) it->second = std::move(v);
    else record->fields.emplace_back(std::move(name), std::move(v));
  }
  ConstValue out;
  out.record = std::move(record);
  return out;
}

}  // namespace values

using namespace values;

ConstValue stringValue(std::string s) {
  ConstValue v;
  v.str = std::make_shared<const std::string>(std::move(s));
  return v;
}

std::vector<ConstValue> elementsOf(const ConstValue& v) {
  if (v.items) return *v.items;
  std::vector<ConstValue> out;
  if (!v.is_tuple) return out;
  for (const Number& n : v.tuple) {
    ConstValue e;
    e.number = n;
    out.push_back(e);
  }
  return out;
}

bool sameValue(const ConstValue& a, const ConstValue& b) {
  if (a.str || b.str) return a.str && b.str && *a.str == *b.str;
  if (a.is_tuple || b.is_tuple) {
    if (!a.is_tuple || !b.is_tuple) return false;
    std::vector<ConstValue> x = elementsOf(a), y = elementsOf(b);
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!sameValue(x[i], y[i])) return false;
    return true;
  }
  if (a.record || b.record || a.dict || b.dict) return a.record == b.record && a.dict == b.dict;
  return a.number.known() && b.number.known() && a.number.asDouble() == b.number.asDouble();
}

bool evalValueNode(Unit& unit, int file, TSNode n, int depth, ConstValue& out) {
  std::string_view t = nodeType(n);
  if (t == "string") {
    out = evalString(unit, file, n);
  } else if (t == "concatenated_string") {
    std::string s;
    for (TSNode c : namedChildren(n)) {
      ConstValue part = evalString(unit, file, c);
      if (!part.str) return true;
      s += *part.str;
    }
    out = stringValue(std::move(s));
  } else if (t == "dictionary") {
    out = evalDictionary(unit, file, n, depth);
  } else if (t == "dictionary_comprehension") {
    out = evalDictComprehension(unit, file, n, depth);
  } else if (t == "not_operator") {
    std::optional<bool> v = truthOf(evalNode(unit, file, childByField(n, "argument"), depth + 1));
    if (v) out = boolValue(!*v);
  } else if (t == "boolean_operator") {
    // `a and b` / `a or b` yield an operand, as in Python.
    ConstValue a = evalNode(unit, file, childByField(n, "left"), depth + 1);
    std::optional<bool> ta = truthOf(a);
    if (!ta) return true;
    bool is_and = textOf(unit, file, childByField(n, "operator")) == "and";
    out = (*ta == is_and) ? evalNode(unit, file, childByField(n, "right"), depth + 1) : a;
  } else if (t == "conditional_expression") {
    // body if condition else alternative: the named children in that order.
    std::vector<TSNode> parts;
    for (TSNode c : namedChildren(n))
      if (!isComment(c)) parts.push_back(c);
    if (parts.size() != 3) return true;
    std::optional<bool> c = truthOf(evalNode(unit, file, parts[1], depth + 1));
    if (c) out = evalNode(unit, file, *c ? parts[0] : parts[2], depth + 1);
  } else if (t == "attribute" && textOf(unit, file, n) == "sys.argv" && importsModule(unit, file, "sys")) {
    out = argvOf(unit, file);
  } else {
    return false;
  }
  return true;
}

bool evalValueComparison(std::string_view op, const ConstValue& a, const ConstValue& b, bool& holds) {
  if (op == "in" || op == "not in") {
    std::optional<bool> c = contains(b, a);
    if (!c) return false;
    holds = op == "in" ? *c : !*c;
    return true;
  }
  if (!(a.str || b.str || a.items || b.items)) return false;
  if (!a.known() || !b.known()) return false;
  if (op == "==" || op == "!=") {
    holds = sameValue(a, b) == (op == "==");
    return true;
  }
  if (a.str && b.str) {
    int c = a.str->compare(*b.str);
    if (op == "<") holds = c < 0;
    else if (op == "<=") holds = c <= 0;
    else if (op == ">") holds = c > 0;
    else if (op == ">=") holds = c >= 0;
    else return false;
    return true;
  }
  return false;
}

ConstValue evalValueSubscript(const ConstValue& base, const ConstValue& index) {
  if (base.dict) {
    const ConstValue* v = dictFind(base, index);
    return v ? *v : ConstValue{};
  }
  if (!index.number.isInt()) return {};
  if (base.str) {
    std::int64_t size = static_cast<std::int64_t>(base.str->size());
    std::int64_t k = index.number.i < 0 ? index.number.i + size : index.number.i;
    return k >= 0 && k < size ? stringValue(std::string(1, (*base.str)[static_cast<std::size_t>(k)])) : ConstValue{};
  }
  if (base.items) {
    std::int64_t size = static_cast<std::int64_t>(base.items->size());
    std::int64_t k = index.number.i < 0 ? index.number.i + size : index.number.i;
    return k >= 0 && k < size ? (*base.items)[static_cast<std::size_t>(k)] : ConstValue{};
  }
  return {};
}

bool evalValueCall(Unit& unit, int file, TSNode call, int depth, ConstValue& out) {
  TSNode callee = childByField(call, "function");
  if (isNull(callee)) return false;
  std::string_view name = textOf(unit, file, callee);
  std::vector<TSNode> args = argsOf(call);
  auto values = [&]() {
    std::vector<ConstValue> v;
    for (TSNode a : args) v.push_back(evalNode(unit, file, a, depth + 1));
    return v;
  };
  if (nodeType(callee) == "attribute") {
    if (name == "os.environ.get" || name == "os.getenv") {
      out = environmentValue(unit, file, args, depth);
      return true;
    }
    std::string method(textOf(unit, file, childByField(callee, "attribute")));
    ConstValue object = evalNode(unit, file, childByField(callee, "object"), depth + 1);
    if (object.str) {
      out = stringMethod(*object.str, method, values());
      return true;
    }
    if (object.dict && method == "get" && !args.empty() && args.size() <= 2) {
      std::vector<ConstValue> a = values();
      const ConstValue* v = dictFind(object, a[0]);
      out = v ? *v : a.size() == 2 ? a[1] : ConstValue{};
      return true;
    }
    if (name == "dataclasses.replace") {
      out = replaceFields(unit, file, call, depth);
      return true;
    }
    return false;
  }
  if (nodeType(callee) != "identifier") return false;
  if (name == "replace") {
    out = replaceFields(unit, file, call, depth);
    if (out.record) return true;
    out = {};
  }
  if (name == "len" && args.size() == 1) {
    ConstValue v = evalNode(unit, file, args[0], depth + 1);
    std::size_t size = v.str ? v.str->size() : v.dict ? v.dict->size() : v.is_tuple ? elementsOf(v).size() : 0;
    if (v.str || v.dict || v.is_tuple) out.number = Number::ofInt(static_cast<std::int64_t>(size));
    return true;
  }
  if ((name == "int" || name == "float") && args.size() == 1) {
    ConstValue v = evalNode(unit, file, args[0], depth + 1);
    if (!v.str) return false;  // numbers: the arithmetic path
    Number parsed = parseNumberLiteral(stripChars(*v.str, " \t\n", true, true));
    if (parsed.known()) out.number = name == "int" ? (parsed.isInt() ? parsed : Number{}) : Number::ofFloat(parsed.asDouble());
    return true;
  }
  if (name == "str" && args.size() == 1) {
    ConstValue v = evalNode(unit, file, args[0], depth + 1);
    if (v.str) out = v;
    else if (v.number.isInt()) out = stringValue(std::to_string(v.number.i));
    return true;
  }
  return callPlainFunction(unit, file, call, depth, out);
}

}  // namespace portcheck::dsl::detail
