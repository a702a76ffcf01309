#pragma once
// The PyPTO DSL source model: what a Python file of a port says, built from the tree-sitter tree.
//
// Per file: the pypto.language aliases, imports, module constants (evaluated), and every function
// with its kind, parameters and body. A body is a flat, pre-order list of statements (Stmt) whose
// structure is kept through parent / subtree-end indices, so a statement index is a position in
// program order: live ranges, "inside this loop" and "inside this pl.at scope" are index ranges.
// Expressions live in a per-function arena (Expr); every value a statement defines or an
// operation produces is a Value with its type (tensor / tile / scalar, shape, dtype, space) and
// the statements that use it.
//
// Consumers: the DSL rules (lint/dsl/) and the SRAM estimator. Nothing here reports diagnostics.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dsl/dsl_types.h"

namespace portcheck {
struct SourceFile;
}

namespace portcheck::dsl {

// Deepest statement / expression nesting the builder follows; deeper input becomes one
// Unsupported node of kind "TooDeep" (no recursion beyond this, whatever the input).
inline constexpr int kMaxNesting = 100;

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  Name, Attribute, Call, Int, Float, String, Bool, None, List, Tuple, Subscript, Slice,
  BinOp, UnaryOp, Compare, BoolOp, Keyword, Unsupported, Error, Other
};

struct Expr {
  ExprKind kind = ExprKind::Other;
  Loc loc;
  std::uint32_t begin = 0, end = 0;  // byte range in the file (FileModel::text)
  int stmt = -1;                     // statement holding the expression
  // Name: identifier. Attribute: attribute name. Keyword: argument name. BinOp/UnaryOp/Compare/
  // BoolOp: operator text. Unsupported: the Python AST kind the pypto parser rejects
  // ("ListComp", "Lambda", "IfExp", "Dict", ... or "TooDeep"). Call: the dotted callee text.
  std::string name;
  // Attribute chains / calls rooted at a pypto.language alias: the name relative to it
  // ("load", "tile.load", "MemorySpace.Vec"). Empty otherwise.
  std::string pl_name;
  std::vector<int> children;  // sub-expressions in source order (Call: callee first, then arguments)
  // Call only: positional arguments and keyword arguments (value expr ids), in source order.
  // Slice: exactly three entries {start, stop, step}, -1 where omitted.
  std::vector<int> args;
  std::vector<std::pair<std::string, int>> kwargs;
  Number number;      // compile-time value when it evaluates to a number
  int value = -1;     // Value this expression reads or produces (Function::values), -1 when none
  // Call only: the user function called, when resolved (same file, sibling file, self.method).
  int callee_file = -1;      // index into ProgramModel::files (-1 = unresolved)
  int callee_function = -1;  // index into that file's functions

  bool isPlCall() const { return kind == ExprKind::Call && !pl_name.empty(); }
  // The operation of a pl call without its namespace ("tile.load", "tensor.load", "block.load" -> "load").
  std::string_view opName() const {
    std::string_view op = pl_name;
    for (std::string_view prefix : {"tile.", "tensor.", "block."})
      if (op.rfind(prefix, 0) == 0) op.remove_prefix(prefix.size());
    return op;
  }
};

// ---------------------------------------------------------------- statements

enum class StmtKind {
  Expr,        // expression statement (usually a call)
  Assign,      // a = ..., a: T = ..., a, b = ..., out[:] = ... (targets / value / annotation)
  Return,
  For,         // loop: see Function::loops[loop]
  While,       // Python while (accepted by the pypto parser); also a loop
  If,          // children: the then-branch statements, then at most one Else
  Else,        // else / elif branch of its parent If (an elif holds one nested If)
  Scope,       // with pl.at(...) / pl.spmd(...) / pl.cluster() / other with: Function::scopes[scope]
  Pass, Break, Continue,
  Unsupported  // a statement the pypto parser rejects (AugAssign, Try, Assert, nested def, ...)
};

struct Stmt {
  StmtKind kind = StmtKind::Expr;
  Loc loc;
  std::uint32_t begin = 0, end = 0;
  int parent = -1;       // enclosing compound statement, -1 at function level
  int subtree_end = 0;   // one past the last statement nested in this one: children are (index, subtree_end)
  int depth = 0;         // nesting depth (0 at function level)
  int loop = -1;         // For / While: index into Function::loops
  int scope = -1;        // Scope: index into Function::scopes
  int enclosing_loop = -1;   // innermost loop statement containing this one
  bool incore = false;   // in incore context: inside pl.at, an InCore function or a pl.spmd body
  int region = -1;       // the incore region (Function::regions), -1 when not incore
  std::vector<int> targets;  // Assign: target exprs; For: the loop target
  int value = -1;            // Assign / Return / Expr: value expr; For: iterator expr; If/While: condition
  int annotation = -1;       // Assign with an annotation (a: pl.Tile[...] = ...)
  std::string unsupported;   // Unsupported: the Python AST kind ("AugAssign", "Try", "TooDeep", ...)
};

enum class LoopIter {
  PlRange, PlParallel, PlPipeline, PlSpmd, PlUnroll, PlWhile, PlSplitAiv,
  PythonRange,   // for ... in range(...): rejected by the pypto parser
  PythonWhile,   // while cond:
  Other          // any other iterable
};
std::string_view loopIterName(LoopIter k);  // "pl.range", "range", "while", ...

struct Loop {
  int stmt = -1;
  LoopIter iter = LoopIter::Other;
  std::vector<std::string> targets;   // every name bound by the for target, flattened
  std::vector<std::string> carried;   // names bound from init_values (for i, (a, b) in ...)
  Number start, stop, step;           // resolved bounds (start defaults to 0, step to 1)
  std::optional<std::int64_t> trip_count;
  Number stage;                       // pl.pipeline(..., stage=N)
  int init_values = -1;               // init_values= expr
};

enum class ScopeKind { At, Spmd, Cluster, SplitAiv, Other };

struct Scope {
  int stmt = -1;
  ScopeKind kind = ScopeKind::Other;
  int call = -1;                      // the context-manager call expr
  std::string level;                  // pl.at(level=pl.Level.X): "CORE_GROUP"
  std::string name_hint;              // as written; empty when not given
  bool has_name_hint = false;
  std::vector<std::string> optimizations;  // pl-relative callee of each entry: "split", "cross_core_slot"
  std::string split_mode;             // pl.split(pl.SplitMode.X): "UP_DOWN" / "LEFT_RIGHT"
  Number cross_core_slots;            // pl.cross_core_slot(slot_num=N)
  std::string as_name;                // with ... as name
};

enum class RegionKind { AtScope, SpmdBody, IncoreFunction };

// A stretch of code that runs on an AI core and becomes one kernel.
struct IncoreRegion {
  RegionKind kind = RegionKind::AtScope;
  int scope = -1;          // AtScope / SpmdBody (with form): Function::scopes index; -1 otherwise
  int stmt = -1;           // the with / for statement; -1 for a whole InCore function
  int first = 0, last = 0; // statement index range [first, last) of the body
  // Name the compiler gives the kernel: name_hint, else <function>_incore_<k> (k counts every
  // pl.at scope of the function in order), collisions suffixed as OutlineIncoreScopes does;
  // for an InCore function its own name. Empty when not predictable (spmd bodies, inline helpers
  // whose caller is not known).
  std::string kernel_name;
  // A region of an inline function: the name of each splice of it in the unit's functions, in the
  // order they are named (kernel_name is the first); a splice the compiler names `proj_1` where the
  // first is `proj`. Empty for a region of any other function.
  std::vector<std::string> instance_names;
  std::string spmd_name_hint;  // SpmdBody of the for form: `for i in pl.spmd(n, name_hint="x")`
};

// ---------------------------------------------------------------- values

struct Value {
  std::string name;        // variable name; empty for an intermediate result
  TypeInfo type;
  int def_stmt = -1;       // statement defining it (-1: a parameter, defined at function entry)
  int def_expr = -1;       // expression producing it (call, subscript, ...); -1 for params / targets
  int param = -1;          // Function::params index for parameters
  std::vector<int> uses;   // statements reading it, in program order (may repeat)
  bool on_chip = false;    // the compiler keeps it in an on-chip buffer (a tile, or tensor-level
                           // compute inside incore code that the compiler turns into tiles)
  bool loop_carried = false;  // redefined inside a loop whose earlier iterations read its name
  int carried_loop = -1;      // that loop's statement
  Number number;              // a local bound once to a compile-time number (N = 64)
};

// A tensor read or written through subscript sugar (x[a:b, c:d], out[:] = ...).
struct SubscriptAccess {
  int stmt = -1;
  int expr = -1;           // the Subscript expr
  int base_value = -1;     // the subscripted value
  bool write = false;
};

// ---------------------------------------------------------------- functions

enum class FunctionKind {
  Helper,          // plain Python function (no DSL decorator)
  JitEntry,        // @pl.jit
  JitIncore,       // @pl.jit.incore
  JitInline,       // @pl.jit.inline
  JitHost,         // @pl.jit.host
  JitExtern,       // @pl.jit.extern
  Opaque,          // @pl.function / @pl.function(type=pl.FunctionType.Opaque)
  InCore,          // @pl.function(type=pl.FunctionType.InCore)
  Orchestration,   // @pl.function(type=pl.FunctionType.Orchestration)
  Inline,          // @pl.function(type=pl.FunctionType.Inline) / @pl.inline
  OtherDsl         // @pl.function(type=<anything else>)
};
std::string_view functionKindName(FunctionKind k);

struct Param {
  std::string name;
  Loc loc;
  bool is_self = false;
  bool has_annotation = false;
  int annotation = -1;        // the annotation expr
  Loc annotation_loc;
  TypeInfo type;              // Tensor / Tile / Scalar from the annotation (space DDR for tensors)
  Direction direction = Direction::In;
  bool dynamic_shape = false; // a dim is pl.dynamic / a DynVar / not resolvable
  int value = -1;             // Function::values index
};

struct Decorator {
  std::string text;     // as written, without '@'
  std::string pl_name;  // relative to the pl alias ("jit", "jit.incore", "function", "program")
  Loc loc;
};

struct Function {
  std::string name;
  std::string class_name;       // @pl.program class (or any class) holding it; empty at module level
  bool in_program = false;      // a method of a @pl.program class
  FunctionKind kind = FunctionKind::Helper;
  Loc loc;                      // the def keyword (a decorated function: the def line, not the decorator)
  Loc name_loc;
  int last_line = 0;            // the def's last line
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  int return_annotation = -1;
  TypeInfo return_type;         // from the return annotation (Unknown kind when absent or a tuple)
  // Defined under an `if` (in a module or a plain function) whose condition Python evaluates to the
  // other branch at import: the name does not refer to it (FileModel::functionIndex skips it).
  bool untaken = false;

  std::vector<Stmt> stmts;      // pre-order, program order; a Helper has none (nor params: only DSL code is modelled)
  std::vector<Expr> exprs;
  std::vector<Value> values;
  std::vector<Loop> loops;
  std::vector<Scope> scopes;
  std::vector<IncoreRegion> regions;
  std::vector<int> calls;       // every Call expr in evaluation order (arguments before the call)
  std::vector<SubscriptAccess> subscripts;
  std::vector<int> unsupported_exprs;  // Unsupported exprs, in source order

  bool isDsl() const { return kind != FunctionKind::Helper; }
  // Code of the whole function runs on a core: InCore / @pl.jit.incore.
  bool isIncoreFunction() const { return kind == FunctionKind::InCore || kind == FunctionKind::JitIncore; }
  bool isInline() const { return kind == FunctionKind::Inline || kind == FunctionKind::JitInline; }

  // Argument of a call by position or keyword name; -1 when absent.
  int arg(const Expr& call, std::size_t position, std::string_view keyword) const;
  // Value (or -1) an expression refers to / produces.
  const Value* valueOf(int expr) const;
  // Statements [first, last] during which the value must be held, in statement indices:
  // from its definition (0 for parameters) to its last use; a use inside a loop that does not
  // contain the definition keeps the value for the whole loop, and a loop-carried value lives
  // to the end of its loop.
  std::pair<int, int> liveRange(int value) const;
  // Innermost loop statement enclosing `stmt` (or -1), and whether `outer` contains `inner`.
  bool contains(int outer, int inner) const {
    return outer >= 0 && inner > outer && inner < stmts[static_cast<std::size_t>(outer)].subtree_end;
  }
};

// ---------------------------------------------------------------- files and programs

// How pypto.language is bound in the file.
struct PlAlias {
  std::string alias;    // "pl", "pypto.language" for a bare import, "X" for `as X`
  std::string module;   // "pypto.language" or "pypto.language.distributed"
  Loc loc;
};

struct Import {
  std::string module;   // dotted module as written, without the leading dots
  int level = 0;        // number of leading dots of a relative import
  std::string name;     // imported name (from-import); empty for `import module`
  std::string alias;    // local name bound
  bool from = false;
  Loc loc;
};

struct Constant {
  std::string name;
  Loc loc;
  Number value;                      // a number
  std::vector<Number> tuple;         // a tuple / list of numbers (value Unknown then)
  bool is_tuple = false;
  std::string text;                  // the value as written
  bool imported = false;             // bound by a from-import of a sibling file
};

// A schedule knob declared next to the port, as Triton's autotune configs are: a module constant and
// the values `port-check tune` may give it (`TUNABLES = {"ROW_TILE": (16, 32, 64)}`, docs/tune.md).
struct Tunable {
  std::string name;
  Loc loc;                                       // the key
  std::vector<std::pair<Number, Loc>> candidates;
};

struct ProgramClass {
  std::string name;
  Loc loc;
  std::vector<int> functions;        // indices into FileModel::functions
};

struct SyntaxIssue {
  Loc loc;
  bool missing = false;              // a MISSING node (e.g. ')') rather than an ERROR node
  std::string missing_what;
};

struct FileModel {
  std::string path;                  // as in SourceFile::path
  std::string source;                // the file text (exprs point into it)
  bool parsed = false;               // false: tree-sitter timed out, nothing else is filled
  std::optional<SyntaxIssue> syntax_error;  // first ERROR / MISSING node
  bool truncated = false;            // something nested deeper than kMaxNesting was cut
  std::vector<PlAlias> pl_aliases;
  std::unordered_map<std::string, std::string> pl_names;  // from pypto.language import x as y: y -> x
  std::vector<Import> imports;
  std::vector<Constant> constants;   // module-level numeric constants, in source order
  std::vector<Tunable> tunables;     // the TUNABLES declaration of the file, if any
  std::vector<Function> functions;   // module-level functions and class methods, in source order
  std::vector<ProgramClass> programs;

  std::string_view text(const Expr& e) const;
  std::string_view text(std::uint32_t begin, std::uint32_t end) const;
  const Constant* constant(std::string_view name) const;
  int functionIndex(std::string_view name, std::string_view class_name = {}) const;
  bool usesJit() const;      // any @pl.jit* function
  bool usesProgram() const;  // any @pl.program class
};

struct FunctionRef {
  int file = -1;
  int function = -1;
  bool valid() const { return file >= 0 && function >= 0; }
};

// All Python files of one unit (a pypto_src/ folder, or one standalone file).
struct ProgramModel {
  std::vector<FileModel> files;

  const Function* function(FunctionRef r) const;
  // The callee of a call expression of `fn` in `file`, when resolved.
  FunctionRef callee(const Function& fn, const Expr& call) const;
  // Every (file, function) in file order.
  std::vector<FunctionRef> allFunctions() const;
  // Every incore kernel name (regions with a kernel name), in file and function order.
  std::vector<std::string> kernelNames() const;
};

// Builds the model of one file on its own (names imported from other files stay unresolved).
FileModel buildFileModel(const SourceFile& file);
// Builds the model of a unit: parses every file, resolves constants and functions imported from
// sibling files (`from .incore import f`, `from incore import f`, `import incore`), then types.
// Module constants of the program set to other values, as `port-check tune` tries them: NAME -> value
// for every file that assigns NAME at module level.
using ConstantOverrides = std::map<std::string, std::int64_t>;

ProgramModel buildProgramModel(std::span<const SourceFile> files, const ConstantOverrides* overrides = nullptr);

}  // namespace portcheck::dsl
