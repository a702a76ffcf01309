// Calls of plain module-level functions in module constants, run by a small interpreter of the
// statements such functions use (assignments, if / while / for, return), so that a configuration
// chosen at import time evaluates as Python would:
//
//   def _variant():
//       selected = os.environ.get("DEEPSEEK_V4_VARIANT", "pro")
//       for token in sys.argv[1:]: ...
//       return selected.strip().lower()
//   ACTIVE = PRESETS[_variant()]
//
// Anything outside that subset (raise, try, a call with effects on a value it tracks, a loop past its
// step budget) makes the call's value unknown, never a guess.
#include <string>

#include "dsl/const_eval.h"
#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

// Named, not anonymous: the unity build puts this file in one unit with others.
namespace interp {

using Names = std::unordered_map<std::string, ConstValue>;

enum class Flow { Next, Break, Continue, Return, Fail };

struct Frame {
  Unit& unit;
  int file;
  int depth;
  Names names;
  ConstValue result;
  int steps = 0;
};

constexpr int kMaxSteps = 20000;
constexpr int kMaxCallDepth = 8;

ConstValue eval(Frame& f, TSNode n) { return evalWithLocals(f.unit, f.file, n, f.depth + 1, f.names); }

bool assign(Frame& f, TSNode target, const ConstValue& value) {
  if (bindTarget(f.unit, f.file, target, value, f.names)) return true;
  // Writing back into the process's own argv (`sys.argv[:] = rest`) changes nothing a value reads.
  return textOf(f.unit, f.file, target).substr(0, 8) == "sys.argv";
}

// `name.append(x)` / `name.extend(xs)` on a local list.
bool appendCall(Frame& f, TSNode call) {
  TSNode callee = childByField(call, "function");
  if (isNull(callee) || nodeType(callee) != "attribute") return false;
  TSNode object = childByField(callee, "object");
  std::string_view method = textOf(f.unit, f.file, childByField(callee, "attribute"));
  if (nodeType(object) != "identifier" || (method != "append" && method != "extend")) return false;
  auto it = f.names.find(std::string(textOf(f.unit, f.file, object)));
  if (it == f.names.end() || !it->second.is_tuple) return false;
  TSNode args = childByField(call, "arguments");
  if (isNull(args) || ts_node_named_child_count(args) != 1) return false;
  ConstValue arg = eval(f, ts_node_named_child(args, 0));
  std::vector<ConstValue> items = elementsOf(it->second);
  if (method == "append") {
    items.push_back(arg);
  } else {
    if (!arg.is_tuple) return false;
    for (const ConstValue& e : elementsOf(arg)) items.push_back(e);
  }
  ConstValue list;
  list.is_tuple = true;
  for (const ConstValue& e : items) list.tuple.push_back(e.number);
  list.items = std::make_shared<const std::vector<ConstValue>>(std::move(items));
  it->second = std::move(list);
  return true;
}

Flow execBlock(Frame& f, TSNode block);

Flow execStatement(Frame& f, TSNode s) {
  if (++f.steps > kMaxSteps) return Flow::Fail;
  std::string_view t = nodeType(s);
  if (isComment(s) || t == "pass_statement" || t == "import_statement" || t == "import_from_statement")
    return Flow::Next;
  if (t == "expression_statement") {
    TSNode e = ts_node_named_child(s, 0);
    if (isNull(e)) return Flow::Next;
    std::string_view et = nodeType(e);
    if (et == "assignment") {
      TSNode right = childByField(e, "right");
      if (isNull(right)) return Flow::Next;  // a bare annotation
      if (nodeType(right) == "assignment") return Flow::Fail;
      return assign(f, childByField(e, "left"), eval(f, right)) ? Flow::Next : Flow::Fail;
    }
    if (et == "augmented_assignment") {
      TSNode left = childByField(e, "left");
      if (nodeType(left) != "identifier") return Flow::Fail;
      std::string op(textOf(f.unit, f.file, childByField(e, "operator")));
      ConstValue a = eval(f, left), b = eval(f, childByField(e, "right"));
      ConstValue r;
      if (op == "+=" && a.str && b.str) r = stringValue(*a.str + *b.str);
      else r.number = applyBinary(op.substr(0, op.size() - 1), a.number, b.number);
      if (!r.known()) return Flow::Fail;
      f.names[std::string(textOf(f.unit, f.file, left))] = r;
      return Flow::Next;
    }
    if (et == "call" && appendCall(f, e)) return Flow::Next;
    if (et == "string" || et == "call") return Flow::Next;  // a docstring; a call kept for its effect
    return Flow::Fail;
  }
  if (t == "return_statement") {
    TSNode v = ts_node_named_child(s, 0);
    f.result = isNull(v) ? ConstValue{} : eval(f, v);
    return Flow::Return;
  }
  if (t == "break_statement") return Flow::Break;
  if (t == "continue_statement") return Flow::Continue;
  if (t == "if_statement") {
    std::optional<bool> c = truthOf(eval(f, childByField(s, "condition")));
    if (!c) return Flow::Fail;
    if (*c) return execBlock(f, childByField(s, "consequence"));
    for (TSNode alt : namedChildren(s)) {
      std::string_view at = nodeType(alt);
      if (at == "elif_clause") {
        std::optional<bool> ec = truthOf(eval(f, childByField(alt, "condition")));
        if (!ec) return Flow::Fail;
        if (*ec) return execBlock(f, childByField(alt, "consequence"));
      } else if (at == "else_clause") {
        return execBlock(f, childByField(alt, "body"));
      }
    }
    return Flow::Next;
  }
  if (t == "while_statement") {
    while (true) {
      std::optional<bool> c = truthOf(eval(f, childByField(s, "condition")));
      if (!c) return Flow::Fail;
      if (!*c) return Flow::Next;
      Flow r = execBlock(f, childByField(s, "body"));
      if (r == Flow::Break) return Flow::Next;
      if (r == Flow::Return || r == Flow::Fail) return r;
    }
  }
  if (t == "for_statement") {
    ConstValue it = eval(f, childByField(s, "right"));
    if (!it.is_tuple) return Flow::Fail;
    for (const ConstValue& e : elementsOf(it)) {
      if (!assign(f, childByField(s, "left"), e)) return Flow::Fail;
      Flow r = execBlock(f, childByField(s, "body"));
      if (r == Flow::Break) return Flow::Next;
      if (r == Flow::Return || r == Flow::Fail) return r;
    }
    return Flow::Next;
  }
  return Flow::Fail;  // raise, try, with, nested definitions, global, ...
}

Flow execBlock(Frame& f, TSNode block) {
  if (isNull(block)) return Flow::Fail;
  for (TSNode s : namedChildren(block)) {
    Flow r = execStatement(f, s);
    if (r != Flow::Next) return r;
  }
  return Flow::Next;
}

// The module-level plain function `name` visible in `file` (defined there or from-imported).
bool findFunction(const Unit& unit, int file, const std::string& name, int& def_file, TSNode& def, int depth = 0) {
  if (file < 0 || depth > 8) return false;
  const FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  const FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < fm.functions.size(); ++i) {
    const Function& fn = fm.functions[i];
    if (fn.name != name || !fn.class_name.empty() || fn.kind != FunctionKind::Helper) continue;
    if (i >= s.function_nodes.size() || !isNull(s.function_builders[i])) continue;
    def_file = file;
    def = s.function_nodes[i];
    return true;
  }
  auto b = s.bindings.find(name);
  if (b != s.bindings.end() && b->second.kind == Binding::Kind::Name)
    return findFunction(unit, b->second.file, b->second.name, def_file, def, depth + 1);
  return false;
}

}  // namespace interp

using namespace interp;

bool callPlainFunction(Unit& unit, int file, TSNode call, int depth, ConstValue& out) {
  TSNode callee = childByField(call, "function");
  if (isNull(callee) || nodeType(callee) != "identifier" || unit.call_depth >= kMaxCallDepth) return false;
  int def_file = -1;
  TSNode def{};
  if (!findFunction(unit, file, std::string(textOf(unit, file, callee)), def_file, def)) return false;
  // Arguments are evaluated where the call is; parameters bound by position, keyword, then default.
  std::vector<ConstValue> positional;
  std::vector<std::pair<std::string, ConstValue>> keywords;
  TSNode args = childByField(call, "arguments");
  for (TSNode a : isNull(args) ? std::vector<TSNode>{} : namedChildren(args)) {
    if (isComment(a)) continue;
    std::string_view at = nodeType(a);
    if (at == "keyword_argument")
      keywords.emplace_back(std::string(textOf(unit, file, childByField(a, "name"))),
                            evalNode(unit, file, childByField(a, "value"), depth + 1));
    else if (at == "list_splat" || at == "dictionary_splat")
      return true;  // unknown
    else
      positional.push_back(evalNode(unit, file, a, depth + 1));
  }
  Frame f{unit, def_file, depth, {}, {}, 0};
  std::size_t index = 0;
  for (TSNode p : namedChildren(childByField(def, "parameters"))) {
    std::string_view pt = nodeType(p);
    TSNode id = pt == "identifier" ? p : pt == "typed_parameter" ? ts_node_named_child(p, 0) : childByField(p, "name");
    if (isNull(id) || nodeType(id) != "identifier") return true;  // *args, **kwargs: unknown
    std::string param(textOf(unit, def_file, id));
    ConstValue v;
    bool bound = false;
    for (const auto& [k, kv] : keywords)
      if (k == param) v = kv, bound = true;
    if (!bound && index < positional.size()) v = positional[index], bound = true;
    if (!bound) {
      TSNode d = childByField(p, "value");
      if (isNull(d)) return true;
      v = evalNode(unit, def_file, d, depth + 1);
    }
    ++index;
    f.names[param] = v;
  }
  if (index < positional.size()) return true;
  // The body sees only its frame (eval() swaps it in), not the caller's locals.
  ++unit.call_depth;
  Flow r = execBlock(f, childByField(def, "body"));
  --unit.call_depth;
  if (r == Flow::Return) out = f.result;
  return true;
}

}  // namespace portcheck::dsl::detail
