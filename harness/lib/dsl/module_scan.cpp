// Module level of a DSL file: pypto.language aliases, imports, constants, functions and their kinds.
#include <algorithm>
#include <filesystem>

#include "core/text.h"
#include "dsl/const_eval.h"
#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

namespace {

std::string_view text(const FileScan& s, TSNode n) { return s.tree.nodeText(n); }

std::string stripSpaces(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  for (char c : t)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\') out.push_back(c);
  return out;
}

void scanImport(FileScan& s, FileModel& fm, TSNode n) {
  Loc loc = locOf(*s.src, n);
  bool from = nodeType(n) == "import_from_statement";
  if (!from) {
    // import a.b [as c], d
    for (TSNode c : namedChildren(n)) {
      Import imp;
      imp.loc = loc;
      if (nodeType(c) == "aliased_import") {
        imp.module = stripSpaces(text(s, childByField(c, "name")));
        imp.alias = std::string(text(s, childByField(c, "alias")));
      } else if (nodeType(c) == "dotted_name") {
        imp.module = stripSpaces(text(s, c));
        imp.alias = imp.module;  // `import a.b` binds a; references are written a.b.x
      } else {
        continue;
      }
      if (imp.module == "pypto.language" || imp.module == "pypto.language.distributed")
        fm.pl_aliases.push_back({imp.alias, imp.module, loc});
      fm.imports.push_back(std::move(imp));
    }
    return;
  }
  TSNode mod = childByField(n, "module_name");
  std::string module;
  int level = 0;
  if (!isNull(mod)) {
    if (nodeType(mod) == "relative_import") {
      for (TSNode c : namedChildren(mod)) {
        if (nodeType(c) == "import_prefix") level = static_cast<int>(text(s, c).size());
        else if (nodeType(c) == "dotted_name") module = stripSpaces(text(s, c));
      }
    } else {
      module = stripSpaces(text(s, mod));
    }
  }
  for (TSNode c : namedChildren(n)) {
    if (ts_node_eq(c, mod) || isComment(c)) continue;
    Import imp;
    imp.from = true;
    imp.module = module;
    imp.level = level;
    imp.loc = loc;
    if (nodeType(c) == "aliased_import") {
      imp.name = stripSpaces(text(s, childByField(c, "name")));
      imp.alias = std::string(text(s, childByField(c, "alias")));
    } else if (nodeType(c) == "dotted_name") {
      imp.name = stripSpaces(text(s, c));
      imp.alias = imp.name;
    } else if (nodeType(c) == "wildcard_import") {
      imp.name = "*";
    } else {
      continue;
    }
    if (level == 0 && module == "pypto" && (imp.name == "language"))
      fm.pl_aliases.push_back({imp.alias, "pypto.language", loc});
    else if (level == 0 && module == "pypto.language" && imp.name == "distributed")
      fm.pl_aliases.push_back({imp.alias, "pypto.language.distributed", loc});
    else if (level == 0 && module == "pypto.language" && imp.name != "*")
      fm.pl_names[imp.alias] = imp.name;
    fm.imports.push_back(std::move(imp));
  }
}

void scanAssign(FileScan& s, TSNode assign) {
  TSNode left = childByField(assign, "left");
  TSNode right = childByField(assign, "right");
  if (isNull(left) || isNull(right)) return;
  auto add = [&](TSNode name, TSNode value) {
    ModuleAssign a;
    a.name = std::string(text(s, name));
    a.value = value;
    a.loc = locOf(*s.src, name);
    a.text = std::string(text(s, value));
    s.assign_index[a.name] = s.assigns.size();
    s.assigns.push_back(std::move(a));
  };
  if (nodeType(left) == "identifier") {
    if (nodeType(right) == "assignment") return;  // a = b = c: rare at module level, skipped
    add(left, right);
    return;
  }
  // config.NAME = value: an importer setting another module's name before importing its readers.
  if (nodeType(left) == "attribute" && nodeType(right) != "assignment") {
    TSNode object = childByField(left, "object");
    if (isNull(object) || nodeType(object) != "identifier") return;
    ModuleAttributeSet a;
    a.object = std::string(text(s, object));
    a.name = std::string(text(s, childByField(left, "attribute")));
    a.value = right;
    a.loc = locOf(*s.src, assign);
    a.end = ts_node_end_byte(assign);
    a.text = std::string(text(s, right));
    s.attribute_sets.push_back(std::move(a));
    return;
  }
  // A, B = 1, 2
  if ((nodeType(left) == "pattern_list" || nodeType(left) == "tuple_pattern") &&
      (nodeType(right) == "expression_list" || nodeType(right) == "tuple")) {
    uint32_t nl = ts_node_named_child_count(left), nr = ts_node_named_child_count(right);
    if (nl != nr) return;
    for (uint32_t i = 0; i < nl; ++i) {
      TSNode l = ts_node_named_child(left, i);
      if (nodeType(l) == "identifier") add(l, ts_node_named_child(right, i));
    }
  }
}

FunctionKind kindFromDecorator(const FileModel& fm, const FileScan& s, TSNode expr, std::string& pl_name) {
  TSNode callee = nodeType(expr) == "call" ? childByField(expr, "function") : expr;
  pl_name = relativeToPl(fm, stripSpaces(text(s, callee)));
  if (pl_name == "jit") return FunctionKind::JitEntry;
  if (pl_name == "jit.incore") return FunctionKind::JitIncore;
  if (pl_name == "jit.inline") return FunctionKind::JitInline;
  if (pl_name == "jit.host") return FunctionKind::JitHost;
  if (pl_name == "jit.extern") return FunctionKind::JitExtern;
  if (pl_name == "inline") return FunctionKind::Inline;
  if (pl_name != "function") return FunctionKind::Helper;
  if (nodeType(expr) != "call") return FunctionKind::Opaque;
  TSNode args = childByField(expr, "arguments");
  uint32_t count = isNull(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode a = ts_node_named_child(args, i);
    if (nodeType(a) != "keyword_argument" || text(s, childByField(a, "name")) != "type") continue;
    std::string t = relativeToPl(fm, stripSpaces(text(s, childByField(a, "value"))));
    if (t == "FunctionType.InCore") return FunctionKind::InCore;
    if (t == "FunctionType.Orchestration") return FunctionKind::Orchestration;
    if (t == "FunctionType.Opaque") return FunctionKind::Opaque;
    if (t == "FunctionType.Inline") return FunctionKind::Inline;
    return FunctionKind::OtherDsl;
  }
  return FunctionKind::Opaque;
}

void addFunction(FileScan& s, FileModel& fm, TSNode def, const std::vector<TSNode>& decorators,
                 const std::string& class_name, bool in_program, int program, TSNode builder = TSNode{}) {
  Function fn;
  fn.class_name = class_name;
  fn.in_program = in_program;
  TSNode name = childByField(def, "name");
  fn.name = std::string(text(s, name));
  fn.loc = locOf(*s.src, def);
  fn.name_loc = locOf(*s.src, name);
  fn.last_line = static_cast<int>(ts_node_end_point(def).row) + 1;
  for (TSNode d : decorators) {
    TSNode expr = ts_node_named_child(d, 0);
    if (isNull(expr)) continue;
    Decorator dec;
    dec.text = std::string(text(s, expr));
    dec.loc = locOf(*s.src, d);
    FunctionKind k = kindFromDecorator(fm, s, expr, dec.pl_name);
    if (k != FunctionKind::Helper && fn.kind == FunctionKind::Helper) fn.kind = k;
    fn.decorators.push_back(std::move(dec));
  }
  if (program >= 0) fm.programs[static_cast<std::size_t>(program)].functions.push_back(static_cast<int>(fm.functions.size()));
  fm.functions.push_back(std::move(fn));
  s.function_nodes.push_back(def);
  s.function_builders.push_back(builder);
  s.function_guards.push_back(s.guards_now);
}

void scanClass(FileScan& s, FileModel& fm, TSNode cls, const std::vector<TSNode>& decorators, TSNode builder = TSNode{}) {
  std::string name(text(s, childByField(cls, "name")));
  bool program = false;
  for (TSNode d : decorators) {
    TSNode expr = ts_node_named_child(d, 0);
    if (isNull(expr)) continue;
    TSNode callee = nodeType(expr) == "call" ? childByField(expr, "function") : expr;
    if (relativeToPl(fm, stripSpaces(text(s, callee))) == "program") program = true;
  }
  int program_index = -1;
  if (program) {
    program_index = static_cast<int>(fm.programs.size());
    fm.programs.push_back({name, locOf(*s.src, cls), {}});
  }
  for (TSNode c : namedChildren(childByField(cls, "body"))) {  // one walk over a class of many methods
    std::vector<TSNode> decs;
    if (nodeType(c) == "decorated_definition") {
      uint32_t n = ts_node_named_child_count(c);
      for (uint32_t j = 0; j < n; ++j)
        if (nodeType(ts_node_named_child(c, j)) == "decorator") decs.push_back(ts_node_named_child(c, j));
      c = childByField(c, "definition");
    }
    if (!isNull(c) && nodeType(c) == "function_definition") addFunction(s, fm, c, decs, name, program, program_index, builder);
  }
}

std::vector<TSNode> decoratorsOf(TSNode decorated) {
  std::vector<TSNode> decs;
  uint32_t n = ts_node_named_child_count(decorated);
  for (uint32_t j = 0; j < n; ++j)
    if (nodeType(ts_node_named_child(decorated, j)) == "decorator") decs.push_back(ts_node_named_child(decorated, j));
  return decs;
}

bool hasDslDecorator(const FileScan& s, const FileModel& fm, const std::vector<TSNode>& decs) {
  for (TSNode d : decs) {
    TSNode expr = ts_node_named_child(d, 0);
    if (isNull(expr)) continue;
    TSNode callee = nodeType(expr) == "call" ? childByField(expr, "function") : expr;
    if (!relativeToPl(fm, stripSpaces(text(s, callee))).empty()) return true;
  }
  return false;
}

// DSL functions and @pl.program classes defined inside plain functions (the build_*_program
// pattern): found through nested function bodies, up to a fixed depth.
// `builder`: the plain function whose body this is (the innermost), whose locals the DSL code sees.
// The branches of `if_statement` ifs, each scanned by `scan_block` with the conditions that choose it
// on s.guards_now: `if a: X elif b: Y else: Z` scans X under (a), Y under (not a, b), Z under (not a,
// not b).
template <typename ScanBlock>
void scanIfBranches(FileScan& s, TSNode ifs, ScanBlock scan_block) {
  const std::size_t mark = s.guards_now.size();
  s.guards_now.push_back({childByField(ifs, "condition"), true});
  scan_block(childByField(ifs, "consequence"));
  s.guards_now.back().second = false;
  for (TSNode alt : namedChildren(ifs)) {
    std::string_view t = nodeType(alt);
    if (t == "elif_clause") {
      s.guards_now.push_back({childByField(alt, "condition"), true});
      scan_block(childByField(alt, "consequence"));
      s.guards_now.back().second = false;
    } else if (t == "else_clause") {
      scan_block(childByField(alt, "body"));
    }
  }
  s.guards_now.resize(mark);
}

void scanNested(FileScan& s, FileModel& fm, TSNode body, int depth, TSNode builder) {
  if (isNull(body) || depth > 8) return;
  for (TSNode c : namedChildren(body)) {
    std::string_view t = nodeType(c);
    if (t == "if_statement") {
      // A definition chosen by a plain `if` (the _bind_*() pattern): both branches are scanned, the
      // branch Python does not take is marked once constants are known (markUntakenDefinitions).
      scanIfBranches(s, c, [&](TSNode block) { scanNested(s, fm, block, depth + 1, builder); });
    } else if (t == "function_definition") {
      scanNested(s, fm, childByField(c, "body"), depth + 1, c);
    } else if (t == "decorated_definition") {
      std::vector<TSNode> decs = decoratorsOf(c);
      TSNode def = childByField(c, "definition");
      if (isNull(def)) continue;
      bool dsl = hasDslDecorator(s, fm, decs);
      if (nodeType(def) == "class_definition" && dsl) scanClass(s, fm, def, decs, builder);
      else if (nodeType(def) == "function_definition" && dsl) addFunction(s, fm, def, decs, "", false, -1, builder);
      else if (nodeType(def) == "function_definition") scanNested(s, fm, childByField(def, "body"), depth + 1, def);
    }
  }
}

// Definitions in the branches of a module-level `if` (a kernel chosen at import): functions and
// classes only, under the branch's conditions (markUntakenDefinitions drops the branch not taken).
void scanModuleIfBlock(FileScan& s, FileModel& fm, TSNode block, int depth) {
  if (isNull(block) || depth > 8) return;
  for (TSNode c : namedChildren(block)) {
    std::string_view t = nodeType(c);
    if (t == "if_statement") {
      scanIfBranches(s, c, [&](TSNode b) { scanModuleIfBlock(s, fm, b, depth + 1); });
    } else if (t == "function_definition") {
      addFunction(s, fm, c, {}, "", false, -1);
    } else if (t == "decorated_definition") {
      std::vector<TSNode> decs = decoratorsOf(c);
      TSNode def = childByField(c, "definition");
      if (isNull(def)) continue;
      if (nodeType(def) == "function_definition") addFunction(s, fm, def, decs, "", false, -1);
      else if (nodeType(def) == "class_definition") scanClass(s, fm, def, decs);
    }
  }
}

// Statements of the module body (and of ERROR nodes at module level, so half-written files keep
// their functions). Iterative over ERROR nesting.
void scanModuleStatements(FileScan& s, FileModel& fm, TSNode root) {
  std::vector<TSNode> pending{root};
  while (!pending.empty()) {
    TSNode parent = pending.back();
    pending.pop_back();
    for (TSNode c : namedChildren(parent)) {
      std::string_view t = nodeType(c);
      if (t == "ERROR") {
        pending.push_back(c);
        continue;
      }
      if (t == "if_statement") {
        // `if __name__ == "__main__":` holds the driver, not definitions the program uses.
        if (text(s, childByField(c, "condition")).find("__name__") == std::string_view::npos)
          scanIfBranches(s, c, [&](TSNode b) { scanModuleIfBlock(s, fm, b, 1); });
      } else if (t == "import_statement" || t == "import_from_statement") scanImport(s, fm, c);
      else if (t == "expression_statement") {
        TSNode e = ts_node_named_child(c, 0);
        if (!isNull(e) && nodeType(e) == "assignment") scanAssign(s, e);
      } else if (t == "function_definition") {
        addFunction(s, fm, c, {}, "", false, -1);
        scanNested(s, fm, childByField(c, "body"), 1, c);
      } else if (t == "class_definition") {
        scanClass(s, fm, c, {});
      } else if (t == "decorated_definition") {
        std::vector<TSNode> decs = decoratorsOf(c);
        TSNode def = childByField(c, "definition");
        if (isNull(def)) continue;
        if (nodeType(def) == "function_definition") {
          addFunction(s, fm, def, decs, "", false, -1);
          if (!hasDslDecorator(s, fm, decs)) scanNested(s, fm, childByField(def, "body"), 1, def);
        } else if (nodeType(def) == "class_definition") {
          scanClass(s, fm, def, decs);
        }
      }
    }
  }
}

std::string modulePathOf(const std::string& path) {
  std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  std::string s = p.generic_string();
  if (s.size() > 3 && s.compare(s.size() - 3, 3, ".py") == 0) s.resize(s.size() - 3);
  return s;
}

std::string dirOf(const std::string& module_path) {
  std::size_t slash = module_path.rfind('/');
  return slash == std::string::npos ? std::string() : module_path.substr(0, slash);
}

std::string joinPath(const std::string& dir, const std::string& rest) {
  if (dir.empty()) return rest;
  if (rest.empty()) return dir;
  return std::filesystem::path(dir + "/" + rest).lexically_normal().generic_string();
}

// The file of the unit a module reference of `from_file` names, or -1.
int resolveModule(const Unit& unit, int from_file, const std::string& module, int level) {
  std::string dotted_path = module;
  for (char& c : dotted_path)
    if (c == '.') c = '/';
  const std::string& me = unit.scans[static_cast<std::size_t>(from_file)].module_path;
  std::string base = dirOf(me);
  if (level > 0) {
    for (int i = 1; i < level; ++i) base = dirOf(base);
  }
  auto find = [&](const std::string& candidate) -> int {
    for (std::size_t i = 0; i < unit.scans.size(); ++i) {
      const std::string& mp = unit.scans[i].module_path;
      if (mp == candidate || mp == candidate + "/__init__") return static_cast<int>(i);
    }
    return -1;
  };
  int found = find(joinPath(base, dotted_path));
  if (found >= 0 || level > 0 || dotted_path.empty()) return found;
  // Absolute import: a file of the unit whose path ends with the module path.
  std::string suffix = "/" + dotted_path;
  for (std::size_t i = 0; i < unit.scans.size(); ++i) {
    const std::string& mp = unit.scans[i].module_path;
    if (mp.size() > suffix.size() && mp.compare(mp.size() - suffix.size(), suffix.size(), suffix) == 0)
      return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

// The pl-relative name of a dotted reference ("pl.jit.incore" -> "jit.incore"), or "".
std::string relativeToPl(const FileModel& fm, const std::string& dotted) {
  for (const PlAlias& a : fm.pl_aliases) {
    if (a.module != "pypto.language") continue;
    if (dotted.size() > a.alias.size() && dotted.compare(0, a.alias.size(), a.alias) == 0 &&
        dotted[a.alias.size()] == '.')
      return dotted.substr(a.alias.size() + 1);
  }
  std::size_t dot = dotted.find('.');
  auto it = fm.pl_names.find(dotted.substr(0, dot));
  if (it != fm.pl_names.end()) return dot == std::string::npos ? it->second : it->second + dotted.substr(dot);
  return {};
}

Loc locOf(const SourceFile& src, TSNode n) {
  if (isNull(n)) return {};
  std::uint32_t b = ts_node_start_byte(n);
  TSPoint p = ts_node_start_point(n);  // the tree knows the row; the column is counted in code points
  if (b > src.text.size() || p.column > b) {
    auto [line, col] = src.position(b);
    return {line, col, b};
  }
  return {static_cast<int>(p.row) + 1, codePointCount(std::string_view(src.text).substr(b - p.column, p.column)) + 1, b};
}

void scanFile(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  fm.path = s.src->path;
  fm.source = s.src->text;
  s.module_path = modulePathOf(s.src->path);
  if (!s.tree.ok()) return;
  fm.parsed = true;
  TSNode err = s.tree.firstError();
  if (!isNull(err)) {
    SyntaxIssue issue;
    issue.loc = locOf(*s.src, err);
    issue.missing = ts_node_is_missing(err);
    if (issue.missing) issue.missing_what = std::string(nodeType(err));
    fm.syntax_error = issue;
  }
  scanModuleStatements(s, fm, s.tree.root());
  s.state.assign(s.assigns.size(), 0);
  s.values.assign(s.assigns.size(), ConstValue{});
}

void bindImports(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  const FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  for (const Import& imp : fm.imports) {
    if (!imp.from) {
      int target = resolveModule(unit, file, imp.module, 0);
      if (target >= 0 && target != file) s.bindings[imp.alias] = {Binding::Kind::Module, target, {}};
      continue;
    }
    if (imp.name == "*") continue;
    int target = resolveModule(unit, file, imp.module, imp.level);
    if (target >= 0 && target != file) {
      s.bindings[imp.alias] = {Binding::Kind::Name, target, imp.name};
      continue;
    }
    // from . import incore  /  from pkg import incore: the name is a module
    std::string sub = imp.module.empty() ? imp.name : imp.module + "." + imp.name;
    int module_file = resolveModule(unit, file, sub, imp.level);
    if (module_file >= 0 && module_file != file) s.bindings[imp.alias] = {Binding::Kind::Module, module_file, {}};
  }
}

ConstValue lookupConstant(Unit& unit, int file, const std::string& name, int depth) {
  constexpr int kMaxOpenConstants = 256;
  if (depth > 32 || file < 0) return {};
  if (unit.locals && unit.locals_file == file)
    if (auto local = unit.locals->find(name); local != unit.locals->end()) return local->second;
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  auto it = s.assign_index.find(name);
  if (it != s.assign_index.end()) {
    if (unit.overrides)
      if (auto o = unit.overrides->find(name); o != unit.overrides->end()) {
        ConstValue v;
        v.number = Number::ofInt(o->second);
        return v;
      }
    std::size_t i = it->second;
    if (s.state[i] == 2) return s.values[i];
    if (s.state[i] == 1) return {};  // a cycle: unknown
    // Its value is cached, so it must not depend on how deep the lookup that first asked for it
    // was: it is evaluated from depth 0, and only the chain of constants open at once is bounded
    // (each is open once: cycles stop above).
    if (unit.constants_open >= kMaxOpenConstants) return {};
    s.state[i] = 1;
    ++unit.constants_open;
    // A module constant is evaluated in module scope: a function's locals are not visible to it.
    const auto* saved = unit.locals;
    unit.locals = nullptr;
    ConstValue v = evalNode(unit, file, s.assigns[i].value, 0);
    unit.locals = saved;
    if (!v.known() && !v.none && unit.assumed)  // left to run time (sys.argv, ...): the assumed value
      if (auto a = unit.assumed->find(name); a != unit.assumed->end()) v.number = Number::ofInt(a->second);
    --unit.constants_open;
    s.state[i] = 2;
    s.values[i] = v;
    return v;
  }
  auto b = s.bindings.find(name);
  if (b != s.bindings.end() && b->second.kind == Binding::Kind::Name) {
    // `from config import NAME` after an importer set config.NAME: the value set.
    bool set = false;
    ConstValue v = importerSetValue(unit, file, b->second.file, b->second.name, 0, set, depth + 1);
    if (set) return v;
    return lookupConstant(unit, b->second.file, b->second.name, depth + 1);
  }
  return {};
}

// base[a:b] of a tuple / list value with constant bounds (no step).
static ConstValue sliceOf(Unit& unit, int file, const ConstValue& base, TSNode slice, int depth) {
  if (!base.is_tuple) return {};
  std::vector<ConstValue> elems = elementsOf(base);
  const auto size = static_cast<std::int64_t>(elems.size());
  std::int64_t bound[2] = {0, size};
  int k = 0;
  uint32_t count = ts_node_child_count(slice);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(slice, i);
    if (!ts_node_is_named(c)) {
      if (++k > 1) return {};  // a step
      continue;
    }
    Number v = evalNode(unit, file, c, depth + 1).number;
    if (!v.isInt()) return {};
    std::int64_t b = v.i < 0 ? std::max<std::int64_t>(0, v.i + size) : std::min(v.i, size);
    bound[k] = b;
  }
  ConstValue out;
  out.is_tuple = true;
  std::vector<ConstValue> part;
  for (std::int64_t i = bound[0]; i < bound[1]; ++i) part.push_back(elems[static_cast<std::size_t>(i)]);
  for (const ConstValue& e : part) out.tuple.push_back(e.number);
  if (base.items) out.items = std::make_shared<const std::vector<ConstValue>>(std::move(part));
  return out;
}

ConstValue evalNode(Unit& unit, int file, TSNode n, int depth) {
  ConstValue out;
  if (isNull(n) || depth > kMaxNesting) return out;
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  std::string_view t = nodeType(n);
  if (evalValueNode(unit, file, n, depth, out)) return out;
  if (t == "integer" || t == "float") {
    out.number = parseNumberLiteral(text(s, n));
  } else if (t == "identifier") {
    if (unit.self_record && text(s, n) == "self") return *unit.self_record;
    return lookupConstant(unit, file, std::string(text(s, n)), depth + 1);
  } else if (t == "attribute") {
    return evalAttribute(unit, file, n, depth + 1);
  } else if (t == "parenthesized_expression") {
    TSNode inner = ts_node_named_child(n, 0);
    if (!isNull(inner) && isComment(inner)) return out;
    return evalNode(unit, file, inner, depth + 1);
  } else if (t == "unary_operator") {
    ConstValue a = evalNode(unit, file, childByField(n, "argument"), depth + 1);
    out.number = applyUnary(text(s, childByField(n, "operator")), a.number);
  } else if (t == "binary_operator") {
    ConstValue a = evalNode(unit, file, childByField(n, "left"), depth + 1);
    ConstValue b = evalNode(unit, file, childByField(n, "right"), depth + 1);
    out.number = applyBinary(text(s, childByField(n, "operator")), a.number, b.number);
  } else if (t == "true" || t == "false") {
    out.number = Number::ofInt(t == "true" ? 1 : 0);  // a bool is the int 1 / 0 in arithmetic
  } else if (t == "none") {
    out.none = true;
  } else if (t == "comparison_operator") {
    // a < b <= c ...: operands are the named children, the operators the tokens between them
    // (`not in` and `is not` are two tokens).
    std::vector<ConstValue> operands;
    std::vector<std::string> ops;
    bool after_operand = false;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_child(n, i);
      if (ts_node_is_named(c)) {
        if (isComment(c)) continue;
        operands.push_back(evalNode(unit, file, c, depth + 1));
        if (!operands.back().known() && !operands.back().none) return out;
        after_operand = true;
      } else if (after_operand) {
        ops.emplace_back(text(s, c));
        after_operand = false;
      } else if (!ops.empty()) {
        ops.back() += " " + std::string(text(s, c));
      }
    }
    if (operands.size() < 2 || ops.size() != operands.size() - 1) return out;
    bool holds = true;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const std::string& op = ops[i];
      bool h = false;
      if (op == "is" || op == "is not") {  // only None's identity is known
        if (!operands[i].none && !operands[i + 1].none) return out;
        holds = holds && ((operands[i].none && operands[i + 1].none) == (op == "is"));
        continue;
      }
      if (operands[i].none || operands[i + 1].none) {
        if (op != "==" && op != "!=") return out;
        holds = holds && ((operands[i].none && operands[i + 1].none) == (op == "=="));
        continue;
      }
      if (evalValueComparison(op, operands[i], operands[i + 1], h)) {
        holds = holds && h;
        continue;
      }
      std::optional<bool> c = compareNumbers(op, operands[i].number, operands[i + 1].number);
      if (!c) return out;  // is, is not: not on numbers
      holds = holds && *c;
    }
    out.number = Number::ofInt(holds ? 1 : 0);
  } else if (t == "tuple" || t == "list" || t == "expression_list") {
    out.is_tuple = true;
    std::vector<ConstValue> items;
    bool plain = true;  // numbers only
    for (TSNode c : namedChildren(n)) {
      if (isComment(c)) continue;
      items.push_back(evalNode(unit, file, c, depth + 1));
      out.tuple.push_back(items.back().number);
      plain = plain && !(items.back().str || items.back().record || items.back().dict || items.back().is_tuple);
    }
    if (!plain) out.items = std::make_shared<const std::vector<ConstValue>>(std::move(items));
  } else if (t == "subscript") {
    ConstValue base = evalNode(unit, file, childByField(n, "value"), depth + 1);
    TSNode idx = childByField(n, "subscript");
    if (nodeType(idx) == "slice") return sliceOf(unit, file, base, idx, depth + 1);
    ConstValue i = evalNode(unit, file, idx, depth + 1);
    if (base.dict || base.str || base.items) return evalValueSubscript(base, i);
    if (base.is_tuple && i.number.isInt()) {
      std::int64_t k = i.number.i < 0 ? i.number.i + static_cast<std::int64_t>(base.tuple.size()) : i.number.i;
      if (k >= 0 && k < static_cast<std::int64_t>(base.tuple.size())) out.number = base.tuple[static_cast<std::size_t>(k)];
    }
  } else if (t == "call") {
    if (evalValueCall(unit, file, n, depth, out)) return out;
    // int(x), float(x), min(a, b), max(a, b) on known numbers
    std::string_view fn = text(s, childByField(n, "function"));
    TSNode args = childByField(n, "arguments");
    std::vector<Number> vals;
    uint32_t count = isNull(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(args, i);
      if (isComment(c)) continue;
      if (nodeType(c) == "keyword_argument") return evalRecordCall(unit, file, n, depth + 1);
      vals.push_back(evalNode(unit, file, c, depth + 1).number);
    }
    bool all = !vals.empty();
    for (const Number& v : vals) all = all && v.known();
    if (!all) return out;
    if (fn == "int" && vals.size() == 1) {
      double d = vals[0].asDouble();
      if (vals[0].isInt()) out.number = vals[0];
      else if (d > -9.2e18 && d < 9.2e18) out.number = Number::ofInt(static_cast<std::int64_t>(d));
    } else if (fn == "float" && vals.size() == 1) {
      out.number = Number::ofFloat(vals[0].asDouble());
    } else if ((fn == "min" || fn == "max") && vals.size() >= 2) {
      Number best = vals[0];
      for (const Number& v : vals)
        if (fn == "min" ? v.asDouble() < best.asDouble() : v.asDouble() > best.asDouble()) best = v;
      out.number = best;
    }
  }
  return out;
}

}  // namespace portcheck::dsl::detail
