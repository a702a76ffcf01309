#include "advice/fuse_producer_consumer_check.h"

#include "advice/advice_text.h"
#include "advice/task_graph.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

std::string usage(const sram::SpaceEstimate& s) {
  return "the estimated " + s.space + " use is " + std::to_string(s.hwm) + " of " + std::to_string(s.capacity) +
         " bytes (" + advice::percent(s.hwm, s.capacity) + ")";
}

}  // namespace

void FuseProducerConsumerCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(ctx.program, ctx.kernels))
    for (const advice::Edge& e : g.edges) {
      const advice::Task& p = g.tasks[static_cast<std::size_t>(e.from)];
      const advice::Task& c = g.tasks[static_cast<std::size_t>(e.to)];
      if (e.to != e.from + 1 || p.enclosing_loop != c.enclosing_loop) continue;  // adjacent dispatches only
      std::string p_core = advice::coreOf(ctx.kernels, p), c_core = advice::coreOf(ctx.kernels, c);
      bool cross = !p_core.empty() && !c_core.empty() && p_core != c_core;
      // A cube result handed to a vector stage (or back) crosses cores even when fused: on a2a3 TPUSH
      // writes it to GM and TPOP reads it back, so fusing saves no GM traffic there (FUSE004 counts the
      // dispatches a merged scope saves); on a5 TPUSH writes the consumer's SRAM directly.
      if (cross && ctx.settings.platform != Platform::A5) continue;
      std::string ring;
      auto fused = cross ? advice::crossCoreEstimate(ctx.kernels, p, c, e.tensor, ctx.settings.platform, 2, &ring)
                         : advice::fusedEstimate(ctx.kernels, p, c, e.tensor, ctx.settings.platform);
      bool fits = true;
      for (const auto& s : fused) fits &= s.capacity <= 0 || s.hwm <= s.capacity;
      const sram::SpaceEstimate* worst = advice::dominantSpace(fused);
      if (!fits || !worst) continue;
      // Across cores, the figure that matters is the consumer's space holding the ring.
      for (const auto& s : fused)
        if (cross && s.space == ring && s.capacity > 0) worst = &s;
      std::string gm = "'" + e.tensor + "' goes through GM between them (" + std::to_string(e.bytes) +
                       " bytes stored and loaded again)";
      std::string message =
          cross ? "fuse '" + p.kernel + "' (" + p_core + ") and '" + c.kernel + "' (" + c_core +
                      ") into one mixed incore scope: " + gm + "; on a5 the cross-core pipe writes it straight into the "
                      "memory of '" + c.kernel + "' instead (a ring of 2 tiles there); fused, " + usage(*worst)
                : "fuse '" + p.kernel + "' and '" + c.kernel + "' into one incore kernel: " + gm + "; fused, " +
                      usage(*worst);
      Diagnostic d = makeDiagnostic(id(), c.file, c.line, 1, std::move(message));
      d.notes.push_back({p.file, p.line, 0, "the producer '" + p.kernel + "' stores '" + e.tensor + "' here"});
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck
