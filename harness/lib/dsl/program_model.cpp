// Building a unit's model (the passes of model_builder.h in order) and the model's queries.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "dsl/assumed_constants.h"
#include "dsl/model_builder.h"
#include "parse/parse_cache.h"

namespace portcheck::dsl {

// ---------------------------------------------------------------- names

std::string_view functionKindName(FunctionKind k) {
  switch (k) {
    case FunctionKind::Helper: return "helper";
    case FunctionKind::JitEntry: return "jit";
    case FunctionKind::JitIncore: return "jit.incore";
    case FunctionKind::JitInline: return "jit.inline";
    case FunctionKind::JitHost: return "jit.host";
    case FunctionKind::JitExtern: return "jit.extern";
    case FunctionKind::Opaque: return "Opaque";
    case FunctionKind::InCore: return "InCore";
    case FunctionKind::Orchestration: return "Orchestration";
    case FunctionKind::Inline: return "Inline";
    case FunctionKind::OtherDsl: return "other";
  }
  return "helper";
}

std::string_view loopIterName(LoopIter k) {
  switch (k) {
    case LoopIter::PlRange: return "pl.range";
    case LoopIter::PlParallel: return "pl.parallel";
    case LoopIter::PlPipeline: return "pl.pipeline";
    case LoopIter::PlSpmd: return "pl.spmd";
    case LoopIter::PlUnroll: return "pl.unroll";
    case LoopIter::PlWhile: return "pl.while_";
    case LoopIter::PlSplitAiv: return "pl.split_aiv";
    case LoopIter::PythonRange: return "range";
    case LoopIter::PythonWhile: return "while";
    case LoopIter::Other: break;
  }
  return "other";
}

// ---------------------------------------------------------------- Function

int Function::arg(const Expr& call, std::size_t position, std::string_view keyword) const {
  if (!keyword.empty())
    for (const auto& [k, v] : call.kwargs)
      if (k == keyword) return v;
  return position < call.args.size() ? call.args[position] : -1;
}

const Value* Function::valueOf(int expr) const {
  if (expr < 0 || static_cast<std::size_t>(expr) >= exprs.size()) return nullptr;
  int v = exprs[static_cast<std::size_t>(expr)].value;
  return v >= 0 ? &values[static_cast<std::size_t>(v)] : nullptr;
}

std::pair<int, int> Function::liveRange(int value) const {
  const Value& v = values[static_cast<std::size_t>(value)];
  int first = std::max(v.def_stmt, 0);
  int last = first;
  auto extendToLoopsOf = [&](int stmt) {
    for (int l = stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0;
         l = stmts[static_cast<std::size_t>(l)].enclosing_loop) {
      if (v.def_stmt >= 0 && (v.def_stmt == l || contains(l, v.def_stmt))) break;  // defined in this loop
      last = std::max(last, stmts[static_cast<std::size_t>(l)].subtree_end - 1);
    }
  };
  for (int u : v.uses) {
    last = std::max(last, u);
    extendToLoopsOf(u);
  }
  if (v.loop_carried && v.carried_loop >= 0)
    last = std::max(last, stmts[static_cast<std::size_t>(v.carried_loop)].subtree_end - 1);
  return {first, last};
}

// ---------------------------------------------------------------- FileModel / ProgramModel

std::string_view FileModel::text(const Expr& e) const { return text(e.begin, e.end); }

std::string_view FileModel::text(std::uint32_t begin, std::uint32_t end) const {
  if (begin > end || end > source.size()) return {};
  return std::string_view(source).substr(begin, end - begin);
}

const Constant* FileModel::constant(std::string_view name) const {
  for (const Constant& c : constants)
    if (c.name == name) return &c;
  return nullptr;
}

int FileModel::functionIndex(std::string_view name, std::string_view class_name) const {
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name && functions[i].class_name == class_name && !functions[i].untaken)
      return static_cast<int>(i);
  return -1;
}

bool FileModel::usesJit() const {
  for (const Function& f : functions)
    switch (f.kind) {
      case FunctionKind::JitEntry:
      case FunctionKind::JitIncore:
      case FunctionKind::JitInline:
      case FunctionKind::JitHost:
      case FunctionKind::JitExtern:
        return true;
      default:
        break;
    }
  return false;
}

bool FileModel::usesProgram() const { return !programs.empty(); }

const Function* ProgramModel::function(FunctionRef r) const {
  if (r.file < 0 || static_cast<std::size_t>(r.file) >= files.size()) return nullptr;
  const auto& fns = files[static_cast<std::size_t>(r.file)].functions;
  if (r.function < 0 || static_cast<std::size_t>(r.function) >= fns.size()) return nullptr;
  return &fns[static_cast<std::size_t>(r.function)];
}

FunctionRef ProgramModel::callee(const Function&, const Expr& call) const {
  return {call.callee_file, call.callee_function};
}

std::vector<FunctionRef> ProgramModel::allFunctions() const {
  std::vector<FunctionRef> out;
  for (std::size_t f = 0; f < files.size(); ++f)
    for (std::size_t i = 0; i < files[f].functions.size(); ++i) out.push_back({static_cast<int>(f), static_cast<int>(i)});
  return out;
}

std::vector<std::string> ProgramModel::kernelNames() const {
  std::vector<std::string> out;
  for (const FileModel& f : files)
    for (const Function& fn : f.functions)
      for (const IncoreRegion& r : fn.regions)
        if (!r.kernel_name.empty()) out.push_back(r.kernel_name);
  return out;
}

// ---------------------------------------------------------------- building

namespace detail {

namespace {

// TUNABLES = {"NAME": (c1, c2, ...), ...}: string keys, each a tuple or list of candidates.
void collectTunables(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  auto it = s.assign_index.find("TUNABLES");
  if (it == s.assign_index.end()) return;
  TSNode dict = s.assigns[it->second].value;
  if (isNull(dict) || nodeType(dict) != "dictionary") return;
  for (TSNode pair : namedChildren(dict)) {
    if (nodeType(pair) != "pair") continue;
    TSNode key = childByField(pair, "key");
    TSNode value = childByField(pair, "value");
    if (isNull(key) || nodeType(key) != "string" || isNull(value)) continue;
    Tunable t;
    std::string_view quoted = s.tree.nodeText(key);
    if (quoted.size() < 2) continue;
    t.name = std::string(quoted.substr(1, quoted.size() - 2));
    t.loc = locOf(*s.src, key);
    if (nodeType(value) == "tuple" || nodeType(value) == "list")
      for (TSNode c : namedChildren(value))
        if (!isComment(c)) t.candidates.push_back({evalNode(unit, file, c, 0).number, locOf(*s.src, c)});
    fm.tunables.push_back(std::move(t));
  }
}

// A definition under `if` conditions (module level, or in a plain function such as a _bind_*()
// called at import) exists only when Python takes its branch: a condition known to go the other
// way marks it untaken, so its name refers to the definition Python binds. Conditions are evaluated
// with the module's constants (environment defaults included) and the builder's locals; an unknown
// condition leaves the definition as it is.
void markUntakenDefinitions(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < fm.functions.size() && i < s.function_guards.size(); ++i) {
    if (s.function_guards[i].empty()) continue;
    TSNode builder = i < s.function_builders.size() ? s.function_builders[i] : TSNode{};
    static const std::unordered_map<std::string, ConstValue> kNoLocals;
    const std::unordered_map<std::string, ConstValue>& locals =
        isNull(builder) ? kNoLocals : builderScope(unit, file, builder);
    for (const auto& [condition, when] : s.function_guards[i]) {
      std::optional<bool> holds = truthOf(evalWithLocals(unit, file, condition, 0, locals));
      if (holds && *holds != when) {
        fm.functions[i].untaken = true;
        break;
      }
    }
  }
}

void collectConstants(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  FileModel& fm = unit.files[static_cast<std::size_t>(file)];
  std::unordered_set<std::string> seen;
  for (std::size_t i = s.assigns.size(); i-- > 0;) {  // the last assignment of a name wins
    const ModuleAssign& a = s.assigns[i];
    if (!seen.insert(a.name).second) continue;
    ConstValue v = lookupConstant(unit, file, a.name);
    if (!v.number.known() && !v.is_tuple) continue;
    Constant c;
    c.name = a.name;
    c.loc = a.loc;
    c.value = v.number;
    c.tuple = v.tuple;
    c.is_tuple = v.is_tuple;
    c.text = a.text;
    fm.constants.push_back(std::move(c));
  }
  std::reverse(fm.constants.begin(), fm.constants.end());
  collectTunables(unit, file);
  for (const Import& imp : fm.imports) {
    if (!imp.from || imp.name == "*" || seen.count(imp.alias)) continue;
    auto b = s.bindings.find(imp.alias);
    if (b == s.bindings.end() || b->second.kind != Binding::Kind::Name) continue;
    ConstValue v = lookupConstant(unit, file, imp.alias);
    if (!v.number.known() && !v.is_tuple) continue;
    Constant c;
    c.name = imp.alias;
    c.loc = imp.loc;
    c.value = v.number;
    c.tuple = v.tuple;
    c.is_tuple = v.is_tuple;
    c.imported = true;
    fm.constants.push_back(std::move(c));
  }
}

// `from incore import f` where incore.py only imports f itself (a re-export: ports re-export the
// kernels of the pypto-lib blocks they put on sys.path): the binding is pointed at the file that
// defines f, so calls resolve to the function and not to a name the importing file merely binds.
void followReexports(Unit& unit, int file) {
  for (auto& [alias, b] : unit.scans[static_cast<std::size_t>(file)].bindings) {
    for (int guard = 0; guard < 16 && b.kind == Binding::Kind::Name && b.file >= 0; ++guard) {
      const FileModel& target = unit.files[static_cast<std::size_t>(b.file)];
      const FileScan& ts = unit.scans[static_cast<std::size_t>(b.file)];
      if (target.functionIndex(b.name) >= 0 || ts.assign_index.count(b.name)) break;  // defined there
      auto next = ts.bindings.find(b.name);
      if (next == ts.bindings.end() || next->second.file == b.file || next->second.file == file) break;
      b = next->second;
    }
  }
}

}  // namespace
}  // namespace detail

ProgramModel buildProgramModel(std::span<const SourceFile> files, const ConstantOverrides* overrides) {
  return buildProgramModelAssuming(files, {}, overrides);
}

ProgramModel buildProgramModelAssuming(std::span<const SourceFile> files, const ConstantOverrides& assumed,
                                       const ConstantOverrides* overrides) {
  detail::Unit unit;
  unit.overrides = overrides;
  unit.assumed = assumed.empty() ? nullptr : &assumed;
  unit.scans.resize(files.size());
  unit.files.resize(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    unit.scans[i].src = &files[i];
    unit.scans[i].tree = parsePythonShared(files[i].text);
    detail::scanFile(unit, static_cast<int>(i));
  }
  for (std::size_t i = 0; i < files.size(); ++i) detail::bindImports(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::followReexports(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::collectConstants(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::markUntakenDefinitions(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::specialiseEntriesFromMain(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::specialiseEntriesFromFixtures(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::buildSignatures(unit, static_cast<int>(i));
  for (std::size_t i = 0; i < files.size(); ++i) detail::buildBodies(unit, static_cast<int>(i));
  for (int round = 0; round < 4 && detail::specialiseCalleesFromCallers(unit); ++round) {
  }
  detail::buildInlinedBodies(unit);
  detail::nameKernels(unit);
  ProgramModel pm;
  pm.files = std::move(unit.files);
  return pm;
}

FileModel buildFileModel(const SourceFile& file) {
  ProgramModel pm = buildProgramModel(std::span<const SourceFile>(&file, 1));
  return std::move(pm.files.front());
}

}  // namespace portcheck::dsl
