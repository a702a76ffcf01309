#include "tune/estimate_screen.h"

#include "sram/sram_estimator.h"

namespace portcheck::tune {

Screened screen(std::span<const SourceFile> files, const Config& config, Platform platform) {
  Screened s;
  s.config = config;
  dsl::ConstantOverrides overrides(config.begin(), config.end());
  dsl::ProgramModel model = dsl::buildProgramModel(files, &overrides);
  for (const sram::KernelEstimate& k : sram::firstInstances(sram::estimateProgram(model, platform))) {
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
  return s;
}

}  // namespace portcheck::tune
