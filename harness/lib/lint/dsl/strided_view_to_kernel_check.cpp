#include "lint/dsl/strided_view_to_kernel_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// When the value of `expr` is a pl.slice of a GM tensor that is not contiguous in it (several rows,
// fewer columns than the parent: consecutive rows of the window are not adjacent in memory), the
// window's and the parent's shapes as text; nullopt otherwise or when a shape is not static.
std::optional<std::pair<std::string, std::string>> columnWindow(const dsl::Function& fn, int expr) {
  const dsl::Value* v = fn.valueOf(expr);
  if (!v || v->def_expr < 0) return std::nullopt;
  const dsl::Expr& def = exprOf(fn, v->def_expr);
  if (def.kind != dsl::ExprKind::Call || opBase(def.pl_name) != "slice" || def.args.empty()) return std::nullopt;
  const dsl::Value* parent = fn.valueOf(def.args[0]);
  if (!parent || parent->type.kind != dsl::ValueKind::Tensor || v->type.kind != dsl::ValueKind::Tensor)
    return std::nullopt;
  const dsl::Shape& w = v->type.shape;
  const dsl::Shape& p = parent->type.shape;
  if (!w.fullyStatic() || !p.fullyStatic() || w.dims.size() != 2 || p.dims.size() != 2) return std::nullopt;
  if (*w.dims[0] <= 1 || *w.dims[1] >= *p.dims[1]) return std::nullopt;
  return std::make_pair(w.str(), p.str());
}

const char* kHint =
    "let the kernel address the parent itself: pass the whole tensor and store at the offset "
    "(pl.store(tile, [row, col], parent)), or write a dense tensor and copy it into place from a "
    "pl.at scope that stores at the offset";

}  // namespace

void StridedViewToKernelCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const dsl::FileModel& file : ctx.program.files) {
    if (!file.parsed) continue;
    for (const dsl::Function& fn : file.functions) {
      for (int c : fn.calls) {
        const dsl::Expr& call = exprOf(fn, c);
        // A kernel call: the window as an Out / InOut argument of an incore function.
        if (const dsl::Function* callee = ctx.program.function(ctx.program.callee(fn, call));
            callee && callee->isIncoreFunction()) {
          std::size_t position = 0;
          for (const dsl::Param& p : callee->params) {
            if (p.is_self) continue;
            int a = fn.arg(call, position++, p.name);
            if (a < 0 || p.direction == dsl::Direction::In) continue;
            if (auto win = columnWindow(fn, a)) {
              const dsl::Expr& arg = exprOf(fn, a);
              out.push_back(makeDiagnostic(
                  "DSL119", file.path, arg.loc.line, arg.loc.col,
                  "'" + exprOf(fn, a).name + "' is a " + win->first + " column window of a " + win->second +
                      " tensor, passed as output '" + p.name + "' of kernel '" + callee->name +
                      "': the kernel addresses it with the dense strides of " + win->first +
                      ", so its rows after the first land in the wrong place",
                  kHint));
            }
          }
          continue;
        }
        std::string_view b = opBase(call.pl_name);
        // A kernel's result assembled into a column window of a tensor by the orchestration: the
        // compiler makes the kernel's output a view of that window, again with dense strides.
        if (b == "assemble" && !inIncore(fn, call)) {
          int target = fn.arg(call, 0, "target"), source = fn.arg(call, 1, "source");
          const dsl::Value* t = target >= 0 ? fn.valueOf(target) : nullptr;
          const dsl::Value* src = source >= 0 ? fn.valueOf(source) : nullptr;
          if (!t || !src || src->def_expr < 0) continue;
          const dsl::Function* producer = ctx.program.function(ctx.program.callee(fn, exprOf(fn, src->def_expr)));
          if (!producer || !producer->isIncoreFunction()) continue;
          const dsl::Shape& w = src->type.shape;
          const dsl::Shape& p = t->type.shape;
          if (!w.fullyStatic() || !p.fullyStatic() || w.dims.size() != 2 || p.dims.size() != 2) continue;
          if (*w.dims[0] <= 1 || *w.dims[1] >= *p.dims[1]) continue;
          const dsl::Expr& at = exprOf(fn, source);
          out.push_back(makeDiagnostic(
              "DSL119", file.path, at.loc.line, at.loc.col,
              "'" + at.name + "', the " + w.str() + " output of kernel '" + producer->name +
                  "', is assembled into a column window of a " + p.str() +
                  " tensor: the kernel writes the window with the dense strides of " + w.str() +
                  ", so its rows after the first land in the wrong place",
              kHint));
          continue;
        }
        // A scope's store or assemble into a window made outside the scope.
        if (!inIncore(fn, call) || (b != "assemble" && b != "store")) continue;
        int target = b == "assemble" ? fn.arg(call, 0, "target") : fn.arg(call, 2, "output_tensor");
        if (target < 0) continue;
        const dsl::Value* v = fn.valueOf(target);
        if (!v || v->def_stmt < 0 || stmtOf(fn, v->def_stmt).incore) continue;
        if (auto win = columnWindow(fn, target)) {
          const dsl::Expr& t = exprOf(fn, target);
          out.push_back(makeDiagnostic(
              "DSL119", file.path, t.loc.line, t.loc.col,
              "'" + t.name + "' is a " + win->first + " column window of a " + win->second +
                  " tensor, written from inside a pl.at scope: the outlined kernel gets the dense strides of " +
                  win->first + ", so its rows after the first land in the wrong place",
              kHint));
        }
      }
    }
  }
}

}  // namespace portcheck
