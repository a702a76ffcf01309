#pragma once
// The time one task takes on its core: each pipe's time for the task's work (cost::KernelWork), then
// the pipes overlapped as the hardware runs them. Within one loop iteration the pipes wait on each
// other (load, compute, store); across iterations the auto-synchronised, double-buffered code lets
// iteration i+1's loads run under iteration i's compute, so a task of n iterations takes the busiest
// pipe's time plus the other pipes' time of one iteration (fill and drain): busiest + (sum - busiest) / n.
// The scalar unit issues every tile instruction and bounds the task from below (docs/perf-model.md).
#include <string>
#include <string_view>

#include "cost/kernel_work.h"
#include "perf/device_spec.h"

namespace portcheck::perf {

struct PipeTimes {
  double mte2 = 0, mte1 = 0, cube = 0, fixp = 0, vector = 0, mte3 = 0, scalar = 0;  // µs
  double task = 0;       // the task's time on its core, start-up included (µs)
  std::string bound;     // the busiest pipe: "MTE2", "MTE1", "CUBE", "FIXP", "VECTOR", "MTE3", "SCALAR"
};

// `core`: AIV, AIC or MIX (an AIC's MTE2 loads into L1, an AIV's into UB); `sharing`: tasks streaming
// from GM at once (the HBM bandwidth is split between them).
PipeTimes taskTime(const cost::KernelWork& work, const DeviceSpec& spec, std::string_view core, int sharing);

}  // namespace portcheck::perf
