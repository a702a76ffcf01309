#include "lint/dsl/tile_op_outside_incore_check.h"

#include "dsl/pl_names.h"
#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// The compiler's name of the op a call becomes outside incore code ("tile.load"), or "" when the
// call is not a tile operation.
std::string tileOpName(const dsl::Function& fn, int c) {
  const dsl::Expr& call = exprOf(fn, c);
  const dsl::PlName* entry = dsl::findPlName(call.pl_name);
  if (!entry) return {};
  std::string_view base = opBase(call.pl_name);
  // Scalar forms (pl.min(a, b) on scalars, pl.tile.get_element) are fine anywhere.
  if (const dsl::Value* r = fn.valueOf(c); r && r->type.kind == dsl::ValueKind::Scalar)
    return {};
  if (call.pl_name.rfind("tile.", 0) == 0) return call.pl_name;
  if (entry->kind == dsl::PlNameKind::TileOp) return "tile." + std::string(base);
  if (entry->kind != dsl::PlNameKind::UnifiedOp) return {};
  // A unified op dispatches on its operands: on a tile it is a tile op.
  for (int a : call.args) {
    const dsl::Value* v = fn.valueOf(a);
    if (v && v->type.kind == dsl::ValueKind::Tile) return "tile." + std::string(base);
  }
  return {};
}

}  // namespace

void TileOpOutsideIncoreCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                         std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!placementKnown(fn) || fn.isIncoreFunction()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (call.pl_name.empty() || inIncore(fn, call)) continue;
      std::string op = tileOpName(fn, c);
      if (op.empty()) continue;
      out.push_back(makeDiagnostic(
          "DSL101", file.path, call.loc.line, call.loc.col,
          "tile operation '" + calleeText(call) + "' outside any incore scope in '" + fn.name +
              "': the compiler rejects it with \"Misplaced tensor op '" + op +
              "' in Orchestration function (should be inside InCore block)\"",
          "move this statement into a `with pl.at(level=pl.Level.CORE_GROUP):` block (or an InCore function) "
          "together with the pl.load/pl.store around it"));
    }
  }
}

}  // namespace portcheck
