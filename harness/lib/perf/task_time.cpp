#include "perf/task_time.h"

#include <algorithm>
#include <array>
#include <utility>

namespace portcheck::perf {

PipeTimes taskTime(const cost::KernelWork& work, const DeviceSpec& spec, std::string_view core, int sharing) {
  const double us_per_cycle = 1e6 / spec.clock_hz;
  // One core's GM bandwidth, or its share of the HBM when many cores stream at once (bytes per µs).
  auto gm_rate = [&](double core_bytes_per_s) {
    return std::min(core_bytes_per_s, spec.hbm_bytes_per_s / std::max(1, sharing)) / 1e6;
  };
  PipeTimes t;
  t.mte2 = static_cast<double>(work.mte2_bytes) / gm_rate(core == "AIV" ? spec.gm_to_ub_bytes_per_s : spec.gm_to_l1_bytes_per_s);
  t.mte3 = static_cast<double>(work.mte3_bytes) / gm_rate(spec.ub_to_gm_bytes_per_s);
  t.mte1 = static_cast<double>(work.mte1_bytes) / (spec.l1_to_l0_bytes_per_s / 1e6);
  t.fixp = static_cast<double>(work.fixp_bytes) / (spec.l0c_out_bytes_per_s / 1e6);
  t.cube = (static_cast<double>(work.cube_macs_b16) / spec.cube_macs_b16 +
            static_cast<double>(work.cube_macs_b8) / spec.cube_macs_b8 +
            static_cast<double>(work.cube_macs_b32) / spec.cube_macs_b32) *
           us_per_cycle;
  t.vector = work.vector_cycles * us_per_cycle;
  t.scalar = static_cast<double>(work.instructions) * spec.issue_cycles * us_per_cycle;
  const std::array<std::pair<const char*, double>, 7> pipes = {{{"MTE2", t.mte2},
                                                                {"MTE1", t.mte1},
                                                                {"CUBE", t.cube},
                                                                {"FIXP", t.fixp},
                                                                {"VECTOR", t.vector},
                                                                {"MTE3", t.mte3},
                                                                {"SCALAR", t.scalar}}};
  double busiest = 0, sum = 0;
  t.bound = "SCALAR";
  for (std::size_t i = 0; i + 1 < pipes.size(); ++i) {
    sum += pipes[i].second;
    if (pipes[i].second > busiest) {
      busiest = pipes[i].second;
      t.bound = pipes[i].first;
    }
  }
  const double n = static_cast<double>(std::max<std::int64_t>(1, work.iterations));
  double body = busiest + (sum - busiest) / n;
  if (t.scalar > body) {
    body = t.scalar;
    t.bound = "SCALAR";
  }
  t.task = body + spec.task_start_us;
  return t;
}

}  // namespace portcheck::perf
