#pragma once
// Internal to dsl/: the pieces buildProgramModel() puts together (module scan, constant
// evaluation across files, function bodies). Consumers include dsl/dsl_model.h only.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/source_file.h"
#include "dsl/dsl_model.h"
#include "parse/syntax_tree.h"

namespace portcheck::dsl::detail {

struct RecordValue;

// A compile-time value of a module-level name: a number, a tuple of numbers, a record (a
// dataclass / NamedTuple instance built from literals, `FLASH = Config(hidden_size=4096, ...)`), a
// string, a tuple whose elements are not all numbers, or a dict (`PRESETS = {p.name: p for p in
// (DEMO, PRO)}`). Strings, items and dicts exist so that a configuration chosen by name at import
// time (`ACTIVE = PRESETS[_variant()]`) evaluates; kernels only ever read numbers from them.
struct ConstValue {
  Number number;
  bool is_tuple = false;
  std::vector<Number> tuple;
  std::shared_ptr<const RecordValue> record;
  std::shared_ptr<const std::string> str;
  std::shared_ptr<const std::vector<ConstValue>> items;  // a tuple / list with a non-number element
  std::shared_ptr<const std::vector<std::pair<ConstValue, ConstValue>>> dict;
  bool none = false;  // Python's None (`SPARSE_TOPK_EFF = None`): only `is` / `is not` and truth read it
  bool known() const { return number.known() || is_tuple || record || str || dict; }
};

// Python equality of two known values (numbers, strings, tuples); false when either is unknown.
bool sameValue(const ConstValue& a, const ConstValue& b);
// The elements of a tuple / list value (numbers or items), or none.
std::vector<ConstValue> elementsOf(const ConstValue& v);
ConstValue stringValue(std::string s);

// The fields of a record and where its class is (for defaults and @property fields).
struct RecordValue {
  int file = -1;            // file defining the class
  std::string class_name;
  std::vector<std::pair<std::string, ConstValue>> fields;
  const ConstValue* field(std::string_view name) const {
    for (const auto& [n, v] : fields)
      if (n == name) return &v;
    return nullptr;
  }
};

// What a module-level name is bound to by an import.
struct Binding {
  enum class Kind { Module, Name } kind = Kind::Name;
  int file = -1;        // the sibling file
  std::string name;     // Kind::Name: the name inside that file
};

struct ModuleAssign {
  std::string name;
  TSNode value{};
  Loc loc;
  std::string text;
};

// A module-level `module.NAME = value` (`config.SPARSE_TOPK_EFF = WIN`): an importer setting a name of
// another module of the unit, for the modules imported after it to read.
struct ModuleAttributeSet {
  std::string object;       // the name the module is bound to here (`config`)
  std::string name;         // the attribute set
  TSNode value{};
  Loc loc;                  // the statement's start
  std::uint32_t end = 0;    // the statement's end byte: reads after it see the value
  std::string text;         // the value as written
};

// Everything kept per file while the unit is built.
struct FileScan {
  const SourceFile* src = nullptr;
  SyntaxTree tree;
  std::string module_path;  // path without ".py" ('/' separated, lexically normal)
  std::vector<ModuleAssign> assigns;                     // module-level NAME = value, in order
  std::vector<ModuleAttributeSet> attribute_sets;        // module-level module.NAME = value, in order
  std::unordered_map<std::string, std::size_t> assign_index;  // name -> last assignment
  std::vector<int> state;                                // per assignment: 0 todo, 1 running, 2 done
  std::vector<ConstValue> values;
  std::unordered_map<std::string, Binding> bindings;     // names bound by imports of sibling files
  std::vector<TSNode> function_nodes;                    // aligned with FileModel::functions
  // Aligned with function_nodes: the plain function a DSL function or @pl.program class is defined
  // in (the build_*_program pattern), or a null node; and each builder's local constants, computed
  // on first use (builder_scope.cpp), keyed by the builder's start byte.
  std::vector<TSNode> function_builders;
  // Aligned with function_nodes: the `if` conditions a definition sits under (condition, branch taken
  // when it is true), outermost first; guards_now is the chain while the scan is inside one.
  std::vector<std::vector<std::pair<TSNode, bool>>> function_guards;
  std::vector<std::pair<TSNode, bool>> guards_now;
  std::map<std::uint32_t, std::shared_ptr<const std::unordered_map<std::string, ConstValue>>> builder_scopes;
};

struct Unit {
  std::vector<FileScan> scans;
  std::vector<FileModel> files;
  const ConstValue* self_record = nullptr;  // `self` while a record's @property body is evaluated
  // Names local to the function being read (a builder's parameters and assignments), looked up before
  // the module's while `locals_file` is read; module constants never see them.
  const std::unordered_map<std::string, ConstValue>* locals = nullptr;
  int locals_file = -1;
  const std::map<std::string, std::int64_t>* overrides = nullptr;  // module constants the tuner sets
  // Values the user gives names the source leaves to run time (`--assume EP=8` for `EP =
  // _parse_ep_argv()`): a module constant whose value is not known takes its assumed value.
  const std::map<std::string, std::int64_t>* assumed = nullptr;
  int call_depth = 0;  // plain functions being interpreted for a constant's value (function_eval.cpp)
  int constants_open = 0;  // module constants being evaluated, one inside another (lookupConstant)
  // Parameter types a bare `pl.Tensor` takes where the program specialises it: (file, function) ->
  // per parameter index the type (dtype, shape) of what the file's __main__ or a caller passes.
  std::map<std::pair<int, int>, std::vector<std::optional<TypeInfo>>> specialised;
};

// The source text of node `n` of `file`.
inline std::string_view textOf(const Unit& unit, int file, TSNode n) {
  return unit.scans[static_cast<std::size_t>(file)].tree.nodeText(n);
}

// Pass 1: aliases, imports, constants' nodes, functions (kinds, decorators) of one file.
void scanFile(Unit& unit, int file);
// Pass 2: binds imported names to sibling files.
void bindImports(Unit& unit, int file);
// Value of a module-level name of `file` (local assignment or import), evaluated on demand.
ConstValue lookupConstant(Unit& unit, int file, const std::string& name, int depth = 0);
// Evaluates an expression node at module level of `file`.
ConstValue evalNode(Unit& unit, int file, TSNode node, int depth);
// record_eval.cpp: NAME of module file `module` as module `reader` reads it at byte `at` (reading
// `config.NAME`, or `from config import NAME`), when a module of the unit set it (`config.NAME = v`)
// before that read: in the reader itself above the read, or in another module that had not imported
// the reader yet. Sets `found` and returns the value set, evaluated where it was set; `found` stays
// false when no module set it, or when two set it differently (the module's own value stands).
ConstValue importerSetValue(Unit& unit, int reader, int module, const std::string& name, std::uint32_t at,
                            bool& found, int depth);
// The local constants of the builder function `def` of `file` (its parameters bound as the file calls
// it, and its straight-line assignments); cached.
const std::unordered_map<std::string, ConstValue>& builderScope(Unit& unit, int file, TSNode def);

// Sets unit.locals to the builder scope of function `function` of `file` (when it has a builder) for
// the guard's lifetime.
class BuilderScopeGuard {
 public:
  BuilderScopeGuard(Unit& unit, int file, int function);
  ~BuilderScopeGuard();
  BuilderScopeGuard(const BuilderScopeGuard&) = delete;
  BuilderScopeGuard& operator=(const BuilderScopeGuard&) = delete;

 private:
  Unit& unit_;
  const std::unordered_map<std::string, ConstValue>* saved_;
  int saved_file_;
};
// `Cls(a=1, b=2)` of a dataclass / NamedTuple class of the unit: the record (keyword arguments, then
// the class's defaults); an empty value for any other call.
ConstValue evalRecordCall(Unit& unit, int file, TSNode call, int depth);
// value_eval.cpp: strings, dicts, truth values and configuration calls. Each returns true when it
// handled the node (`out` may still be unknown), false to leave it to the arithmetic evaluator.
bool evalValueNode(Unit& unit, int file, TSNode node, int depth, ConstValue& out);
bool evalValueCall(Unit& unit, int file, TSNode call, int depth, ConstValue& out);
// `a <op> b` where an operand is a string, a tuple or the operator is `in` / `not in`.
bool evalValueComparison(std::string_view op, const ConstValue& a, const ConstValue& b, bool& holds);
// Evaluates `node` with `names` as the locals of `file` (a builder's scope, comprehension variables,
// an interpreted function's frame), restoring the previous locals after.
ConstValue evalWithLocals(Unit& unit, int file, TSNode node, int depth,
                          const std::unordered_map<std::string, ConstValue>& names);
// Python truth of a known value; nullopt when unknown.
std::optional<bool> truthOf(const ConstValue& v);
// Binds a for / comprehension target (a name or a tuple of names) to `value` in `names`; false when
// it cannot (another target, a length mismatch).
bool bindTarget(Unit& unit, int file, TSNode target, const ConstValue& value,
                std::unordered_map<std::string, ConstValue>& names);
// base[index] of a dict, string or tuple of values.
ConstValue evalValueSubscript(const ConstValue& base, const ConstValue& index);
// function_eval.cpp: `f(args)` of a plain module-level function, interpreted; false when `f` is none.
bool callPlainFunction(Unit& unit, int file, TSNode call, int depth, ConstValue& out);
// `x.attr`: a record's field (or @property), or a module-level name of an imported module.
ConstValue evalAttribute(Unit& unit, int file, TSNode attribute, int depth);
// Pass 3: parameters and return types of every function of the file.
void buildSignatures(Unit& unit, int file);
// Pass 4: bodies of every function of the file (after every file's signatures).
void buildBodies(Unit& unit, int file);
// Pass 3b: bare tensor parameters of the @pl.jit entries typed from the calls of the file's
// `if __name__ == "__main__":` block (torch tensors built there), as the JIT specialises them.
void specialiseEntriesFromMain(Unit& unit, int file);
// Pass 3b, then: those still untyped from a fixture function of the file returning a dict of torch
// tensors keyed by the entry's parameter names (the inputs its golden run passes by name).
void specialiseEntriesFromFixtures(Unit& unit, int file);
// Pass 4a: bare tensor parameters of kernels / inline functions typed from their callers' arguments,
// and those bodies rebuilt; true when something changed.
bool specialiseCalleesFromCallers(Unit& unit);
// Rebuilds one function's signature and body (after its parameter types were specialised).
void rebuildFunction(Unit& unit, int file, int function, bool inlined_into_kernel);
// Pass 4b: inline functions called only from incore code rebuilt as incore code (spliced into kernels).
void buildInlinedBodies(Unit& unit);
// Pass 5: kernel names of every incore region of the unit.
void nameKernels(Unit& unit);

// The name of a dotted reference relative to a pypto.language alias ("pl.jit.incore" ->
// "jit.incore"), also through `from pypto.language import x`; "" when not rooted at one.
std::string relativeToPl(const FileModel& fm, const std::string& dotted);

// Location of a node in `src`.
Loc locOf(const SourceFile& src, TSNode n);

}  // namespace portcheck::dsl::detail
