#pragma once
// Small helpers shared by the DSL checks (header-only; no state).
#include <string>
#include <string_view>

#include "dsl/dsl_model.h"

namespace portcheck::dsl_util {

inline const dsl::Stmt& stmtOf(const dsl::Function& fn, int i) { return fn.stmts[static_cast<std::size_t>(i)]; }
inline const dsl::Expr& exprOf(const dsl::Function& fn, int i) { return fn.exprs[static_cast<std::size_t>(i)]; }

// The statement holding a call / expression is in incore context.
inline bool inIncore(const dsl::Function& fn, const dsl::Expr& e) {
  return e.stmt >= 0 && stmtOf(fn, e.stmt).incore;
}

// A host-level function (@pl.function(level=pl.Level.HOST, ...)): plain Python run on the host,
// not parsed as DSL.
inline bool isHost(const dsl::Function& fn) {
  for (const dsl::Decorator& d : fn.decorators)
    if (d.text.find("Level.HOST") != std::string::npos) return true;
  return false;
}

// Code whose placement is known: not an inline helper (its context is the caller's) and not a
// plain Python function.
// AIC / AIV / Group functions (OtherDsl) and host functions are excluded too.
inline bool placementKnown(const dsl::Function& fn) {
  return fn.isDsl() && !fn.isInline() && fn.kind != dsl::FunctionKind::OtherDsl && !isHost(fn);
}

// The callee as written ("pl.load", "pl.tile.load").
inline std::string calleeText(const dsl::Expr& call) { return call.name; }

// "pl.<relative>" spelled with the conventional alias, for messages.
inline std::string plSpelled(std::string_view relative) { return "pl." + std::string(relative); }

// The relative name without an explicit namespace: "tile.load" -> "load", "tensor.create" -> "create".
inline std::string_view opBase(std::string_view relative) {
  std::size_t dot = relative.rfind('.');
  return dot == std::string_view::npos ? relative : relative.substr(dot + 1);
}

inline bool isMatmulStart(std::string_view rel) {
  std::string_view b = opBase(rel);
  return b == "matmul" || b == "matmul_bias" || b == "gemv" || b == "gemv_bias" || b == "batch_matmul" ||
         b == "matmul_mx" || b == "matmul_mx_bias";
}
inline bool isMatmulAcc(std::string_view rel) {
  std::string_view b = opBase(rel);
  return b == "matmul_acc" || b == "gemv_acc" || b == "matmul_mx_acc" || b == "batch_matmul_acc";
}

}  // namespace portcheck::dsl_util
