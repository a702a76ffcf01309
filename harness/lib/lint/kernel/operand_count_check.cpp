#include "lint/kernel/operand_count_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// Extra trailing arguments may be manual-mode Event<> tokens (WaitEvents&...): only tiles, tensors and
// literals prove a call has too many operands.
bool provablyOperand(const KernelModel& m, const Operand& o) {
  if (const Symbol* s = m.symbolOf(o))
    return s->kind == SymbolKind::Tile || s->kind == SymbolKind::GlobalTensor || s->kind == SymbolKind::GmPointer;
  return !o.text.empty() && (std::isdigit(static_cast<unsigned char>(o.text[0])) || o.text[0] == '"');
}

std::string range(const Instruction& i) {
  return i.min_args == i.max_args ? std::to_string(i.min_args)
                                  : std::to_string(i.min_args) + " to " + std::to_string(i.max_args);
}

}  // namespace

void OperandCountCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction) continue;
    const Instruction& ins = *c.instruction;
    int n = static_cast<int>(c.args.size());
    bool too_few = n < ins.min_args;
    bool too_many = false;
    for (int i = ins.max_args; i < n; ++i) too_many |= provablyOperand(m, c.args[i]);
    if (!too_few && !too_many) continue;
    out.push_back(at(ctx, c.pos, c.name + " called with " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") +
                                     "; it takes " + range(ins) + " (pto_instr.hpp:" +
                                     std::to_string(ins.header_line) + ")"));
  }
}

}  // namespace portcheck
