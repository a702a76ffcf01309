#include "lint/dsl/host_tensor_computation_check.h"

#include <algorithm>
#include <set>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// Methods of torch tensors and numpy arrays that compute or copy on the host; none is a PyPTO DSL
// operation (pl.* functions are called on the pl alias, never as methods of a tensor).
constexpr std::string_view kHostTensorMethods[] = {
    "clone",   "copy_",    "copy",     "numpy",    "tolist",      "item",         "cpu",      "cuda",     "detach",
    "sum",     "mean",     "std",      "var",      "prod",        "softmax",      "log_softmax", "exp",   "exp_",
    "log",     "sqrt",     "rsqrt",    "abs",      "pow",         "matmul",       "mm",       "bmm",      "amax",
    "amin",    "argmax",   "argmin",   "cumsum",   "fill_",       "zero_",        "add_",     "sub_",     "mul_",
    "div_",    "clamp",    "clamp_",   "masked_fill", "masked_fill_", "index_select", "scatter_", "topk", "astype",
    "float",   "double",   "half",     "bfloat16", "max",         "min",          "tanh",     "sigmoid",  "relu"};

bool hostTensorMethod(std::string_view name) {
  return std::find(std::begin(kHostTensorMethods), std::end(kHostTensorMethods), name) != std::end(kHostTensorMethods);
}

// The root of a dotted name: "torch" of "torch.nn.functional".
std::string_view dottedRoot(std::string_view dotted) { return dotted.substr(0, dotted.find('.')); }

// Names bound to torch or numpy, or to something imported from them (`import numpy as np`,
// `from torch.nn import functional as F`, `from torch import softmax`).
std::set<std::string, std::less<>> hostLibraryNames(const dsl::FileModel& file) {
  std::set<std::string, std::less<>> names;
  for (const dsl::Import& im : file.imports) {
    if (im.level != 0) continue;
    std::string_view root = dottedRoot(im.module);
    if (root != "torch" && root != "numpy") continue;
    names.emplace(dottedRoot(im.alias.empty() ? im.module : im.alias));
  }
  return names;
}

// The tensor parameter `name` of `fn`, or null.
const dsl::Param* tensorParam(const dsl::Function& fn, std::string_view name) {
  for (const dsl::Param& p : fn.params)
    if (!p.is_self && p.name == name && p.type.kind == dsl::ValueKind::Tensor) return &p;
  return nullptr;
}

// The tensor parameter an expression names directly (`x`), or null.
const dsl::Param* namedTensorParam(const dsl::Function& fn, int e) {
  if (e < 0) return nullptr;
  const dsl::Expr& x = exprOf(fn, e);
  if (x.kind != dsl::ExprKind::Name) return nullptr;
  const dsl::Value* v = fn.valueOf(e);
  if (!v || v->param < 0) return nullptr;
  return tensorParam(fn, x.name);
}

// The tensor parameter whose data `e` computes with through Python operators (`x * 2.0`, `x[r] + y`),
// not descending into calls (a pl.* operation computes on the device); null when none.
const dsl::Param* arithmeticOnTensor(const dsl::Function& fn, int e, bool under_operator, int depth = 0) {
  if (e < 0 || depth > dsl::kMaxNesting) return nullptr;
  const dsl::Expr& x = exprOf(fn, e);
  switch (x.kind) {
    case dsl::ExprKind::Name:
      return under_operator ? namedTensorParam(fn, e) : nullptr;
    case dsl::ExprKind::Subscript:
      return under_operator && !x.children.empty() ? namedTensorParam(fn, x.children[0]) : nullptr;
    case dsl::ExprKind::BinOp:
    case dsl::ExprKind::UnaryOp:
      for (int c : x.children)
        if (const dsl::Param* p = arithmeticOnTensor(fn, c, true, depth + 1)) return p;
      return nullptr;
    default:
      return nullptr;
  }
}

std::string_view placeOf(const dsl::Function& fn) {
  if (fn.isIncoreFunction()) return "incore function";
  if (fn.kind == dsl::FunctionKind::Orchestration) return "orchestration";
  if (fn.kind == dsl::FunctionKind::JitEntry) return "@pl.jit entry";
  if (fn.isInline()) return "inline function";
  return "DSL function";
}

}  // namespace

void HostTensorComputationCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                           std::vector<Diagnostic>& out) const {
  const std::set<std::string, std::less<>> host = hostLibraryNames(file);
  for (const dsl::Function& fn : file.functions) {
    // Code the compiler turns into tasks and kernels; host-level functions run on the host by design.
    if (!fn.isDsl() || fn.stmts.empty() || fn.kind == dsl::FunctionKind::JitExtern ||
        fn.kind == dsl::FunctionKind::JitHost || isHost(fn))
      continue;
    std::set<int> reported;  // one finding per statement
    const std::string where = std::string(placeOf(fn)) + " '" + fn.name + "'";
    auto report = [&](int stmt, const dsl::Loc& loc, const std::string& what) {
      if (stmt >= 0 && !reported.insert(stmt).second) return;
      out.push_back(makeDiagnostic(
          id(), file.path, loc.line, loc.col,
          what + " inside " + where +
              ": this computes on the host, not on the device; the pypto parser rejects it, and where the body runs "
              "as Python the golden passes without any kernel",
          "compute with pl.* operations on tiles (pl.load / pl.add / pl.store, ...) and leave torch and numpy to "
          "golden.py"));
    };
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (call.isPlCall() || call.children.empty()) continue;
      if (host.count(dottedRoot(call.name))) {
        report(call.stmt, call.loc, "call of " + call.name + "()");
        continue;
      }
      const dsl::Expr& callee = exprOf(fn, call.children[0]);
      if (callee.kind != dsl::ExprKind::Attribute || callee.children.empty() || !hostTensorMethod(callee.name)) continue;
      if (const dsl::Param* p = namedTensorParam(fn, callee.children[0]))
        report(call.stmt, call.loc, "tensor method ." + callee.name + "() on the tensor parameter '" + p->name + "'");
    }
    for (std::size_t s = 0; s < fn.stmts.size(); ++s) {
      const dsl::Stmt& st = fn.stmts[s];
      // out[...] = x * 2.0: Python arithmetic on tensor data stored into a tensor parameter.
      if (st.kind == dsl::StmtKind::Assign && st.value >= 0) {
        for (int t : st.targets) {
          const dsl::Expr& target = exprOf(fn, t);
          if (target.kind != dsl::ExprKind::Subscript || target.children.empty()) continue;
          const dsl::Expr& base = exprOf(fn, target.children[0]);
          if (base.kind != dsl::ExprKind::Name || !tensorParam(fn, base.name)) continue;
          if (const dsl::Param* p = arithmeticOnTensor(fn, st.value, false))
            report(static_cast<int>(s), st.loc,
                   "Python arithmetic on the tensor parameter '" + p->name + "' stored into '" + base.name + "'");
        }
        continue;
      }
      if (st.kind != dsl::StmtKind::Unsupported || st.unsupported != "AugAssign" || st.targets.empty()) continue;
      const dsl::Expr& target = exprOf(fn, st.targets[0]);
      const dsl::Expr* base = &target;
      if (target.kind == dsl::ExprKind::Subscript && !target.children.empty()) base = &exprOf(fn, target.children[0]);
      if (base->kind != dsl::ExprKind::Name) continue;
      if (const dsl::Param* p = tensorParam(fn, base->name))
        report(static_cast<int>(s), st.loc, "augmented assignment to the tensor parameter '" + p->name + "'");
    }
  }
}

}  // namespace portcheck
