// Instances of kernels of inline functions: an inline function spliced into a program several times
// (called on several paths, or inside pl.unroll) gives each of its kernels that many instances, which
// the compiler names <name>, <name>_0, <name>_1, ...
#include "sram/sram_estimator_internal.h"

#include <algorithm>
#include <functional>

namespace portcheck::sram::detail {

namespace {

// How many copies of a statement pl.unroll makes: the product of the static trip counts of the
// pl.unroll loops around it in its function (an unknown count counts once).
int unrollCopies(const Function& fn, int stmt) {
  std::int64_t copies = 1;
  for (int l = stmt >= 0 ? fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop : -1; l >= 0;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const dsl::Stmt& s = fn.stmts[static_cast<std::size_t>(l)];
    if (s.loop < 0) continue;
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(s.loop)];
    if (loop.iter == dsl::LoopIter::PlUnroll && loop.trip_count && *loop.trip_count > 1)
      copies = std::min<std::int64_t>(copies * *loop.trip_count, 4096);
  }
  return static_cast<int>(copies);
}

}  // namespace

// How many times each inline function is spliced into one program: per DSL entry (a @pl.jit, an
// orchestration or opaque function), the number of call paths reaching it through inline functions,
// each call inside pl.unroll counted once per copy the unrolling makes; the largest over the
// entries. Functions reached by no entry are not in the map.
std::map<std::pair<int, int>, int> inlineInstances(const dsl::ProgramModel& model) {
  std::map<std::pair<int, int>, int> most;
  for (const dsl::FunctionRef entry : model.allFunctions()) {
    const Function* e = model.function(entry);
    if (!e || !e->isDsl() || e->isInline() || e->kind == dsl::FunctionKind::JitIncore ||
        e->kind == dsl::FunctionKind::InCore)
      continue;
    std::map<std::pair<int, int>, int> count;
    // Depth-first over call sites; `on_path` stops recursion cycles.
    std::set<std::pair<int, int>> on_path;
    std::function<void(const Function&, int, int)> visit = [&](const Function& fn, int depth, int copies) {
      if (depth > 16) return;
      for (int c : fn.calls) {
        const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        std::pair<int, int> key{call.callee_file, call.callee_function};
        const Function* callee = model.function({key.first, key.second});
        if (!callee || !callee->isInline() || on_path.count(key)) continue;
        const int here = std::min(4096, copies * unrollCopies(fn, call.stmt));
        if ((count[key] += here) > 4096) return;
        on_path.insert(key);
        visit(*callee, depth + 1, here);
        on_path.erase(key);
      }
    };
    visit(*e, 0, 1);
    for (const auto& [key, n] : count) most[key] = std::max(most[key], n);
  }
  return most;
}

// `name` with the instance suffix before a _aic / _aiv split suffix: kernel_3_aic.
std::string instanceName(const std::string& kernel, const std::string& base, int k) {
  std::string rest = kernel.substr(std::min(base.size(), kernel.size()));
  return base + "_" + std::to_string(k) + rest;
}

}  // namespace portcheck::sram::detail
