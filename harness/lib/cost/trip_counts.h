#pragma once
// Trip counts of the loops around a statement, statically or under the values of the loop variables
// and scalar parameters of one task (the orchestration's loops around a dispatch, the scalars a kernel
// is called with). Shared by the GM-byte count and the device-time model's per-task work.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dsl/dsl_model.h"

namespace portcheck::cost {

// Values of index names in one task: the loop variables around its dispatch, and through them the
// scalar parameters a kernel or stage is called with ("qb" -> 3).
using Env = std::map<std::string, std::int64_t>;

// "file.py:12": where statement `stmt` of `fn` is.
std::string where(const dsl::FileModel& file, const dsl::Function& fn, int stmt);

// An index expression's value under `env`: integer literals and constants, names bound in `env`, and
// + - * // % of those; nullopt otherwise.
std::optional<std::int64_t> evalIndex(const dsl::Function& fn, int expr, const Env& env, int depth = 0);

// Two index expressions written alike (the same names, numbers and operators): `k0` in `k0:k0 + K`.
bool sameIndexExpr(const dsl::Function& fn, int a, int b, int depth = 0);

// The truth of condition `expr` under `env`: a comparison of two index expressions (evalIndex), `and` /
// `or` / `not` of conditions, a known number; nullopt when it is not known (run-time data, a name not
// bound).
std::optional<bool> evalCondition(const dsl::Function& fn, int expr, const Env& env, int depth = 0);

// What decides how often a statement runs: a loop around it, or an `if` branch it sits in (`negated`:
// the else branch of `stmt`, an If).
struct Enclosing {
  int stmt = -1;
  bool guard = false;
  bool negated = false;
};

// The loops and branches around `stmt`, outermost first, from (not counting) statement `stop` and
// inside `[first, ...)`.
std::vector<Enclosing> enclosingOf(const dsl::Function& fn, int stmt, int first, int stop);

// A loop's range: its first value, its step and its trip count.
struct Range {
  std::int64_t start = 0, step = 1, trips = 0;
};

// The range of loop statement `l`: its static bounds, else its bounds evaluated under `env`.
std::optional<Range> rangeOf(const dsl::Function& fn, int l, const Env& env);

// The trip count of loop statement `l`: its static one, else its range's bounds evaluated under `env`.
std::optional<std::int64_t> tripCount(const dsl::Function& fn, int l, const Env& env);

// How often `stmt` runs within the loops around it, stopping at (not counting) loop statement `stop` or
// at a loop outside `[first, ...)`: the product of their trip counts; nullopt when one is not static
// (nor known under `env`), with `why` naming it. An `if` around it whose condition is known under the
// loops' values (`if sb < n_blocks:`, `if dd < valid:`) counts the trips it is taken; one whose
// condition is not known (run-time data) counts as taken, and its statement is added to `undecided`.
std::optional<std::int64_t> tripsAround(const dsl::FileModel& file, const dsl::Function& fn, int stmt, int first,
                                        int stop, std::string& why, const Env& env = {},
                                        std::set<int>* undecided = nullptr);

// The most tasks (or loop-variable assignments) a count follows one by one.
inline constexpr std::size_t kTaskLimit = 1 << 16;
// The name under which an Env carries the block a `with pl.spmd(n)` kernel's task runs as
// (`pl.tile.get_block_idx()`); not a Python name, so no source name can take it.
inline constexpr const char* kBlockIndexName = "$block_idx";

// Every assignment of the loop variables of the loops around `stmt` in `fn` (outermost first), each
// extended from `base`, under which it runs (an `if` around it whose condition is known drops the
// assignments it is not taken in; one not known keeps them: none when it is never taken); nullopt when
// a loop around it has no static trip count or more than `limit` assignments would result.
std::optional<std::vector<Env>> loopEnvs(const dsl::Function& fn, int stmt, const Env& base, std::size_t limit);

// A function's scalar parameters bound to the values `call` passes them under `caller_env`.
Env bindParams(const dsl::Function& caller, const dsl::Expr& call, const dsl::Function& callee, const Env& caller_env);

}  // namespace portcheck::cost
