#include "lint/dsl/tile_as_tensor_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// The pl call that made the tensor an argument names, following the stores that return their target
// (`tmp = pl.store(t, off, tmp)`); nullptr when it was not made inside incore code by reshape / create.
const dsl::Expr* madeOnChip(const dsl::Function& fn, int arg) {
  for (int depth = 0; arg >= 0 && depth < 32; ++depth) {
    const dsl::Value* v = fn.valueOf(arg);
    if (!v || v->def_expr < 0 || v->def_stmt < 0) return nullptr;
    const dsl::Expr& def = exprOf(fn, v->def_expr);
    if (!def.isPlCall()) return nullptr;
    const std::string_view op = def.opName();
    if (op == "store") {  // a store returns the tensor it wrote
      arg = fn.arg(def, 2, "output_tensor");
      continue;
    }
    const bool creates = op == "create_tensor" || def.pl_name == "tensor.create";
    if (!(creates || op == "reshape") || !stmtOf(fn, v->def_stmt).incore) return nullptr;
    if (creates && fn.isIncoreFunction()) return nullptr;  // DSL104 reports the allocation itself
    if (op == "reshape") {  // reshaping a tile is fine; a tensor becomes a tile here
      const dsl::Value* src = fn.valueOf(fn.arg(def, 0, def.pl_name == "tensor.reshape" ? "tensor" : "input"));
      if (!src || src->type.kind == dsl::ValueKind::Tile) return nullptr;
    }
    return &def;
  }
  return nullptr;
}

}  // namespace

void TileAsTensorCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file, std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (!call.isPlCall() || !inIncore(fn, call)) continue;
      const std::string_view op = call.opName();
      const bool load = op == "load";
      if (!load && op != "store") continue;
      const int arg = load ? fn.arg(call, 0, "tensor") : fn.arg(call, 2, "output_tensor");
      const dsl::Expr* made = madeOnChip(fn, arg);
      if (!made) continue;
      const bool reshape = made->opName() == "reshape";
      const std::string compiler =
          std::string("The operator tile.") + (load ? "load requires first" : "store requires third") +
          " argument to be a TensorType or DistributedTensorType, but got TileType";
      out.push_back(makeDiagnostic(
          id(), file.path, call.loc.line, call.loc.col,
          plSpelled(call.pl_name) + (load ? " from '" : " into '") + std::string(file.text(exprOf(fn, arg))) +
              "', which " + plSpelled(made->pl_name) + " made inside the incore scope (line " +
              std::to_string(made->loc.line) + "): there it is an on-chip tile, not a GM tensor, and the compiler "
              "rejects it: \"" + compiler + "\"",
          reshape ? "reshape the tensor in the orchestration, before the pl.at scope, and load from the reshaped "
                    "tensor inside it (pl.reshape of a tile inside the scope is fine)"
                  : "create the tensor in the orchestration (outside the pl.at scope) and pass it in; for on-chip "
                    "scratch use pl.create_tile and tile ops"));
    }
  }
}

}  // namespace portcheck
