#include "lint/kernel/tload_into_output_tile_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// Does `ins` replace its first operand's whole contents without reading them? The docs' formulas decide
// (TMULADDDST reads dst, TINSERT writes part of it); an instruction they do not describe goes by its kind.
bool overwritesFirstOperand(const Instruction& ins) {
  switch (dstAccessOf(ins.name)) {
    case DstAccess::Overwrite: return true;
    case DstAccess::ReadWrite: case DstAccess::Partial: return false;
    case DstAccess::Unknown: break;
  }
  switch (ins.kind) {
    case OpKind::Vector: case OpKind::VecOrMat: case OpKind::Matmul: case OpKind::Move: case OpKind::Load:
    case OpKind::Gather: return true;
    default: return false;
  }
}

}  // namespace

void TloadIntoOutputTileCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (std::size_t i = 0; i < m.calls.size(); ++i) {
    const Call& load = m.calls[i];
    if (!load.instruction || load.name != "TLOAD" || !load.reach.inAutoMode() || load.args.empty()) continue;
    const Operand& dst = load.args[0];
    if (dst.symbol < 0 || dst.subscripted) continue;
    // The next call that names the tile decides: a read keeps the load, an overwrite makes it dead.
    for (std::size_t j = i + 1; j < m.calls.size(); ++j) {
      const Call& next = m.calls[j];
      if (next.function != load.function) break;
      bool as_dst = false, as_src = false;
      for (std::size_t k = 0; k < next.args.size(); ++k)
        if (next.args[k].symbol == dst.symbol) (k == 0 ? as_dst : as_src) = true;
      if (next.object_symbol == dst.symbol) as_src = true;
      if (!as_dst && !as_src) continue;
      // Only an overwrite in the load's own block (or nested in it) follows it on every path.
      bool same_path = load.block_begin <= next.pos.byte && next.pos.byte < load.block_end;
      if (as_dst && !as_src && same_path && next.instruction && overwritesFirstOperand(*next.instruction)) {
        Diagnostic d = at(ctx, load.pos, "TLOAD into tile '" + dst.base + "', which " + next.name + " at line " +
                                             std::to_string(next.pos.line) +
                                             " overwrites before anything reads it: liveness-based reuse may "
                                             "alias it with a source and race");
        d.notes.push_back({ctx.file.path, next.pos.line, next.pos.column, "overwritten here"});
        out.push_back(std::move(d));
      }
      break;
    }
  }
}

}  // namespace portcheck
