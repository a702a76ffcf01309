#pragma once
// The C++ incore kernel model: what the kernel rules read. Built from the tree-sitter-cpp tree of one
// kernel file: functions (tile functions, kernel entries), declared tiles and GlobalTensors (through
// `using` aliases and constexpr shapes), PTO instruction calls with their operands, other calls (sync,
// intrinsics, methods such as .data()), structs and their members, assignments, raw GM accesses, and
// for each piece of code the builds that compile it (#ifdef __PTO_AUTO__, __DAV_VEC__/__DAV_CUBE__,
// `if constexpr (DAV_CUBE)`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/source_file.h"
#include "kernel/instruction_set.h"
#include "kernel/tile_type.h"
#include "parse/syntax_tree.h"

namespace portcheck::kernel {

// Three-valued truth of a preprocessor condition: macros the linter does not know are Unknown.
enum class Tri { False, True, Unknown };

// Which builds compile a piece of code, from the guards around it.
struct Reach {
  Tri in_auto = Tri::True;  // compiled when __PTO_AUTO__ is defined
  Tri on_vec = Tri::True;   // compiled for the vector core (__DAV_VEC__, __DAV_C220_VEC__)
  Tri on_cube = Tri::True;  // compiled for the cube core (__DAV_CUBE__, __DAV_C220_CUBE__)
  bool inAutoMode() const { return in_auto != Tri::False; }
};

struct Position {
  std::uint32_t byte = 0;
  int line = 0;    // 1-based
  int column = 0;  // 1-based code points
};

enum class SymbolKind { Tile, GlobalTensor, GmPointer, Event, Other };

// A declared variable or parameter.
struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Other;
  TileType tile;                 // kind == Tile
  std::string type_text;         // the type as written
  bool is_param = false;
  bool by_reference = false;
  bool by_pointer = false;
  bool is_array = false;
  std::optional<std::int64_t> array_elements;  // is_array: product of the dimensions when all are constant
  int function = -1;             // index into functions; -1 = file scope
  std::uint32_t scope_begin = 0, scope_end = 0;  // bytes where the name is visible
  Position pos;
  int loop_depth = 0;
  std::string copied_from;       // `T b = a;` or `T b(a);` with a single identifier initializer
  Reach reach;
};

struct Operand {
  std::string text;
  std::string base;        // the identifier the operand names: a, a[i] -> a; empty for other expressions
  int symbol = -1;         // index into symbols, resolved in scope
  bool subscripted = false;
  bool constant_index = true;  // subscripted: every index is a constant expression (literal, constexpr, template
                               // parameter); false for runtime indices such as `i % 2`
  Position pos;
};

struct Call {
  std::string name;                          // callee without qualification: "TADD", "set_flag", "data"
  std::string template_args;                 // text inside <...>, empty when none
  const Instruction* instruction = nullptr;  // PTO instruction (free or pto:: qualified call)
  std::string object;                        // method calls: identifier of the object (x in x.data())
  int object_symbol = -1;
  std::vector<Operand> args;
  Position pos;
  int function = -1;
  Reach reach;
  int loop_depth = 0;                        // enclosing loops inside the function
  std::uint32_t block_begin = 0, block_end = 0;  // the innermost enclosing block
  std::string context;                       // method calls: "argument", "bind-ref", "bind-copy" or "other"
  int loop = -1;                             // innermost enclosing loop (index into loops)
  bool multibuffered = false;                // inside the body lambda of `MultiBuffered<N>::loop<...>(...)`
};

// A for / range-for / while / do loop.
struct Loop {
  std::vector<std::string> induction;  // names the loop header declares (`for (int i = 0; ...)`, `for (auto& x : v)`)
  std::vector<std::string> written;    // names declared, assigned or incremented inside the loop (header included)
  std::vector<std::string> bound;      // other names the loop condition reads (`i < n` -> n)
  std::uint32_t begin = 0, end = 0;
  int parent = -1;                     // enclosing loop in the same function
  int function = -1;
  Position pos;
  Reach reach;
  bool writes(std::string_view name) const;
};

// `a OP b` in an if condition, OP one of == != < <= > >=.
struct Comparison {
  std::string op;
  std::string left, right;            // identifier of each side when it is a plain identifier, else empty
  bool left_constant = false, right_constant = false;  // constant expressions (literal, constexpr, template param)
  std::string left_text, right_text;
};

struct IfStatement {
  bool is_constexpr = false;
  bool compound = false;                      // the condition joins terms with && or ||
  std::vector<std::string> condition_names;   // identifiers the condition reads (callee names excluded)
  std::vector<Comparison> comparisons;        // every comparison in the condition
  std::string condition_text;
  std::uint32_t begin = 0, end = 0;           // the whole statement, else branches included
  std::uint32_t body_begin = 0;               // where the first branch starts
  int loop = -1;                              // innermost enclosing loop
  int function = -1;
  Position pos;
  Reach reach;
};

struct Function {
  std::string name;
  bool tile_function = false;  // declared __tf__
  bool entry = false;          // declared __global__
  bool aicore = false;         // declared AICORE / __aicore__ (device code)
  std::string return_type;
  std::vector<int> params;     // symbol indices
  Position pos;
  std::uint32_t body_begin = 0, body_end = 0;
  Reach reach;
};

struct Field {
  std::string name;
  bool has_default = false;
  Position pos;
};

struct Record {  // struct or class
  std::string name;
  std::vector<Field> fields;
  Position pos;
  Reach reach;
};

struct Assignment {  // a = b between plain identifiers
  std::string left, right;
  int left_symbol = -1, right_symbol = -1;
  Position pos;
  int function = -1;
  Reach reach;
};

enum class GmAccessKind { Subscript, Dereference };
struct GmAccess {  // element access to GM bypassing tiles
  std::string name;
  int symbol = -1;
  GmAccessKind kind = GmAccessKind::Subscript;
  Position pos;
  int function = -1;
  Reach reach;
};

struct Lambda {  // a lambda that captures by copy and names tiles declared outside it
  std::vector<int> copied_tiles;  // symbol indices
  Position pos;
  int function = -1;
  Reach reach;
};

struct TypeUse {  // a use of a type the rules look for, e.g. Event<Op::TLOAD, Op::TADD>
  std::string name;
  Position pos;
  int function = -1;
  Reach reach;
};

struct KernelModel {
  std::vector<Function> functions;
  std::vector<Symbol> symbols;
  std::vector<Call> calls;
  std::vector<Record> records;
  std::vector<Assignment> assignments;
  std::vector<GmAccess> gm_accesses;
  std::vector<Lambda> lambdas;
  std::vector<TypeUse> event_types;
  std::vector<Loop> loops;
  std::vector<IfStatement> ifs;
  bool mentions_pto_auto = false;   // the file tests __PTO_AUTO__
  bool mentions_vec_macro = false;  // the file tests __DAV_VEC__ / __DAV_C220_VEC__
  bool mentions_cube_macro = false; // the file tests __DAV_CUBE__ / __DAV_C220_CUBE__
  bool includes_pto = false;        // #include <pto/...> or "pto/..."
  bool names_pto = false;           // `pto::` qualifies a name, or `using namespace pto`

  const Symbol* symbolOf(const Operand& o) const { return o.symbol >= 0 ? &symbols[o.symbol] : nullptr; }
  // Location of the tile an operand names; Unknown when it is not a known tile.
  Loc locOf(const Operand& o) const;
  const Function* functionOf(int index) const { return index >= 0 ? &functions[index] : nullptr; }
};

// Builds the model of `file`; `tree` is the grammar's tree of parseableText(file.text).
KernelModel buildModel(const SourceFile& file, const SyntaxTree& tree);

}  // namespace portcheck::kernel
