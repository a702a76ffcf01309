#include "tune/estimate_screen.h"

#include "cost/schedule_cost.h"
#include "dsl/assumed_constants.h"
#include "dsl/kernel_arg_shapes.h"
#include "lint/dsl/tile_row_alignment_check.h"
#include "perf/device_schedule.h"
#include "sram/sram_estimator.h"

namespace portcheck::tune {

namespace {

// A pl.create_tensor of incore code larger than Vec: PyPTO creates it in Vec first and checks its size
// there (src/ir/transforms/op_conversion_registry.cpp, tensor.create -> tile.create), an accumulator
// bound for Acc included, and stops with an internal error. "file:line (N bytes)", or empty.
std::string createOverVec(const dsl::ProgramModel& model, Platform platform) {
  const std::int64_t vec = capacityBytes(platform, "Vec");
  for (const dsl::FileModel& file : model.files)
    for (const dsl::Function& fn : file.functions)
      for (int c : fn.calls) {
        const dsl::Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        if (call.opName() != "create_tensor" || call.stmt < 0 || call.value < 0) continue;
        if (!fn.stmts[static_cast<std::size_t>(call.stmt)].incore) continue;
        const std::optional<std::int64_t> bytes = fn.values[static_cast<std::size_t>(call.value)].type.bytes();
        if (bytes && *bytes > vec)
          return file.path + ":" + std::to_string(call.loc.line) + " (" + std::to_string(*bytes) + " bytes)";
      }
  return "";
}

}  // namespace

Screened screen(std::span<const SourceFile> files, const Config& config, Platform platform,
                const std::vector<std::string>& run_files, const cost::Env& assumed) {
  Screened s;
  s.config = config;
  dsl::ConstantOverrides overrides(config.begin(), config.end());
  const dsl::ConstantOverrides assumed_constants(assumed.begin(), assumed.end());
  dsl::ProgramModel model = dsl::buildProgramModelAssuming(files, assumed_constants, &overrides);
  const std::vector<sram::KernelEstimate> kernels = sram::estimateProgram(model, platform);
  const cost::ScheduleCost cost = cost::scheduleCost(model, kernels, platform, run_files, assumed);
  s.tasks = cost.tasks;
  s.gm_bytes = cost.gm_bytes;
  s.critical_gm_bytes = cost.critical_gm_bytes;
  s.cost_unknown = cost.unknown;
  s.device_us = perf::deviceTime(cost, perf::deviceSpec(platform)).total_us;
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
  if (s.pruned.empty())
    if (std::string where = createOverVec(model, platform); !where.empty())
      s.pruned = "over capacity: pl.create_tensor at " + where + " is created in Vec first, of " +
                 std::to_string(capacityBytes(platform, "Vec")) + " bytes";
  // A tile the hardware cannot hold (DSL111: a row that is not a multiple of 32 bytes, an [N, 1] FP32
  // column with N not a multiple of 8): the simulator's kernel build stops on it, so it is no candidate.
  if (s.pruned.empty()) {
    const portcheck::Config no_project_config;
    LintSettings settings;
    settings.platform = platform;
    settings.config = &no_project_config;
    const DslCheckContext ctx{model, settings, ""};
    std::vector<Diagnostic> found;
    TileRowAlignmentCheck alignment;
    for (const dsl::FileModel& f : model.files)
      if (f.parsed) alignment.checkFile(ctx, f, found);
    for (const Diagnostic& d : found)
      if (d.severity == Severity::Error) {
        s.pruned = "tile alignment (DSL111): " + d.message;
        break;
      }
  }
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
