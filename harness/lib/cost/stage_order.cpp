#include "cost/stage_order.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

#include "lint/dsl/tensor_writes.h"

namespace portcheck::cost {

namespace {

using Names = std::set<std::string>;

// How deep a chain of views (`a = pl.reshape(b)`, `b = pl.slice(c)`, ...) is followed.
constexpr int kViewDepth = 16;

void namesRead(const dsl::Function& fn, int expr, Names& out, int depth);

// The names a value stands for: its own, and for a value a pl call makes of others (a view, a cast, a
// read) theirs as well.
void valueNames(const dsl::Function& fn, const dsl::Value& v, Names& out, int depth) {
  if (!v.name.empty()) out.insert(v.name);
  if (depth > kViewDepth || v.def_expr < 0) return;
  const dsl::Expr& def = fn.exprs[static_cast<std::size_t>(v.def_expr)];
  if (!def.isPlCall()) return;
  for (int a : def.args) namesRead(fn, a, out, depth + 1);
  for (const auto& kw : def.kwargs) namesRead(fn, kw.second, out, depth + 1);
}

// Every name expression `expr` reads, followed through the values it names.
void namesRead(const dsl::Function& fn, int expr, Names& out, int depth) {
  if (expr < 0) return;
  const dsl::Expr& e = fn.exprs[static_cast<std::size_t>(expr)];
  if (e.kind == dsl::ExprKind::Name) {  // a name of the function; not a module's (`pl`, a constant)
    if (const dsl::Value* v = fn.valueOf(expr)) valueNames(fn, *v, out, depth);
    return;
  }
  const std::size_t from = e.kind == dsl::ExprKind::Call ? 1 : 0;  // a call's callee is not data
  for (std::size_t c = from; c < e.children.size(); ++c) namesRead(fn, e.children[c], out, depth);
}

// The names an assignment target binds (a tuple's elements, a subscript's base).
void namesBound(const dsl::Function& fn, int expr, Names& out) {
  if (expr < 0) return;
  const dsl::Expr& e = fn.exprs[static_cast<std::size_t>(expr)];
  if (e.kind == dsl::ExprKind::Name) {
    if (!e.name.empty()) out.insert(e.name);
    return;
  }
  if (e.kind == dsl::ExprKind::Subscript) {
    if (!e.children.empty()) namesRead(fn, e.children.front(), out, 0);
    return;
  }
  for (int c : e.children) namesBound(fn, c, out);
}

struct CallTensors {
  Names uses, defines;
};

CallTensors tensorsOf(const dsl::Function& caller, const dsl::Expr& call, const dsl::Function& stage,
                      const WriteFinder& writes) {
  CallTensors t;
  for (std::size_t a = 0; a < call.args.size(); ++a) namesRead(caller, call.args[a], t.uses, 0);
  for (const auto& kw : call.kwargs) namesRead(caller, kw.second, t.uses, 0);
  const dsl::Stmt& st = caller.stmts[static_cast<std::size_t>(call.stmt)];
  const bool assigned = st.kind == dsl::StmtKind::Assign && !st.targets.empty();
  if (assigned)
    for (int target : st.targets) namesBound(caller, target, t.defines);
  // The arguments bound to parameters the stage writes.
  std::size_t position = 0;
  for (const dsl::Param& p : stage.params) {
    if (p.is_self) continue;
    const int arg = caller.arg(call, position++, p.name);
    if (arg < 0) continue;
    if (p.direction != dsl::Direction::In || writes.writes(stage, p)) namesRead(caller, arg, t.defines, 0);
  }
  // A call whose result is not kept and that writes no parameter the model sees: it may write any of them.
  if (!assigned && t.defines.empty()) t.defines = t.uses;
  return t;
}

bool meets(const Names& a, const Names& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& n) { return b.count(n) > 0; });
}

}  // namespace

void orderStageSites(const dsl::ProgramModel& model, std::vector<KernelCost>& sites, std::size_t first,
                     const std::vector<StageCallRef>& calls) {
  const std::size_t n = calls.size();
  if (n == 0 || first + n != sites.size()) return;
  const dsl::Function* caller = calls.front().caller;
  for (const StageCallRef& c : calls)
    if (!c.caller || c.caller != caller || c.caller->isInline() || !c.call || c.call->stmt < 0 || !c.stage) return;
  // Call order: the calling statement, the call's place in it, then the stage's scopes in order.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple(calls[a].call->stmt, calls[a].call->begin, calls[a].scope_stmt) <
           std::tuple(calls[b].call->stmt, calls[b].call->begin, calls[b].scope_stmt);
  });
  const WriteFinder writes(model);
  std::map<const dsl::Expr*, CallTensors> tensors;
  for (const StageCallRef& c : calls)
    if (!tensors.count(c.call)) tensors[c.call] = tensorsOf(*caller, *c.call, *c.stage, writes);
  std::vector<KernelCost> placed;
  placed.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    KernelCost k = std::move(sites[first + order[i]]);
    k.after.clear();
    for (std::size_t before = 0; before < first; ++before) k.after.push_back({static_cast<int>(before), false});
    const StageCallRef& mine = calls[order[i]];
    const CallTensors& t = tensors[mine.call];
    for (std::size_t j = 0; j < i; ++j) {
      const StageCallRef& theirs = calls[order[j]];
      const CallTensors& u = tensors[theirs.call];
      if (theirs.call == mine.call || meets(u.defines, t.uses) || meets(u.defines, t.defines) || meets(u.uses, t.defines))
        k.after.push_back({static_cast<int>(first + j), false});
    }
    placed.push_back(std::move(k));
  }
  std::move(placed.begin(), placed.end(), sites.begin() + static_cast<std::ptrdiff_t>(first));
}

}  // namespace portcheck::cost
