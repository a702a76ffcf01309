#include "advice/fuse_producer_consumer_check.h"

#include "advice/advice_text.h"
#include "advice/task_graph.h"
#include "rules/catalogue.h"

namespace portcheck {

void FuseProducerConsumerCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(ctx.program, ctx.kernels))
    for (const advice::Edge& e : g.edges) {
      const advice::Task& p = g.tasks[static_cast<std::size_t>(e.from)];
      const advice::Task& c = g.tasks[static_cast<std::size_t>(e.to)];
      if (e.to != e.from + 1 || p.enclosing_loop != c.enclosing_loop) continue;  // adjacent dispatches only
      auto fused = advice::fusedEstimate(ctx.kernels, p, c, e.tensor, ctx.settings.platform);
      if (fused.empty()) continue;
      const sram::SpaceEstimate* worst = nullptr;
      bool fits = true;
      for (const auto& s : fused) {
        if (s.capacity > 0 && s.hwm > s.capacity) fits = false;
        if (s.capacity > 0 && (!worst || s.hwm * worst->capacity > worst->hwm * s.capacity)) worst = &s;
      }
      if (!fits || !worst) continue;
      Diagnostic d = makeDiagnostic(
          id(), c.file, c.line, 1,
          "fuse '" + p.kernel + "' and '" + c.kernel + "' into one incore kernel: '" + e.tensor +
              "' goes through GM between them (" + std::to_string(e.bytes) +
              " bytes stored and loaded again); fused, the estimated " + worst->space + " use is " +
              std::to_string(worst->hwm) + " of " + std::to_string(worst->capacity) + " bytes (" +
              advice::percent(worst->hwm, worst->capacity) + ")");
      d.notes.push_back({p.file, p.line, 0, "the producer '" + p.kernel + "' stores '" + e.tensor + "' here"});
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck
