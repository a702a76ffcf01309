#include "tune/estimate_screen.h"

#include "cost/schedule_cost.h"
#include "dsl/kernel_arg_shapes.h"
#include "sram/sram_estimator.h"

namespace portcheck::tune {

Screened screen(std::span<const SourceFile> files, const Config& config, Platform platform,
                const std::vector<std::string>& run_files) {
  Screened s;
  s.config = config;
  dsl::ConstantOverrides overrides(config.begin(), config.end());
  dsl::ProgramModel model = dsl::buildProgramModel(files, &overrides);
  const std::vector<sram::KernelEstimate> kernels = sram::estimateProgram(model, platform);
  const cost::ScheduleCost cost = cost::scheduleCost(model, kernels, run_files);
  s.tasks = cost.tasks;
  s.gm_bytes = cost.gm_bytes;
  s.cost_unknown = cost.unknown;
  for (const sram::KernelEstimate& k : sram::firstInstances(kernels)) {
    ++s.kernels;
    for (const sram::SpaceEstimate& space : k.spaces) {
      if (space.capacity <= 0) continue;
      double use = static_cast<double>(space.hwm) / static_cast<double>(space.capacity);
      if (use > s.use) {
        s.use = use;
        s.binding = k.kernel + "/" + space.space;
        s.bytes = space.hwm;
        s.capacity = space.capacity;
      }
    }
  }
  s.fits = s.use <= 1.0;
  if (!s.fits)
    s.pruned = "over capacity: " + s.binding + " " + std::to_string(s.bytes) + " of " + std::to_string(s.capacity);
  // A kernel called with another shape than it is compiled for computes the wrong numbers (DSL120).
  if (s.pruned.empty()) {
    const std::vector<dsl::KernelShapeMismatch> mismatches = dsl::kernelShapeMismatches(model);
    if (!mismatches.empty()) {
      const dsl::KernelShapeMismatch& m = mismatches.front();
      s.pruned = "kernel shape (DSL120): '" + m.kernel->name + "' parameter '" + m.param + "' is " + m.param_shape +
                 ", called with " + m.arg_shape;
    }
  }
  return s;
}

}  // namespace portcheck::tune
