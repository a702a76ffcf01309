#pragma once
// The hardware figures the device-time model reads, per platform. Every figure has its public source
// in docs/perf-model.md ("Constants"): the CANN platform files, pto-isa's cost model (its flat
// bandwidth table and its on-device fitted cycle formulas), simpler's runtime measurements.
#include "core/platform.h"

namespace portcheck::perf {

struct DeviceSpec {
  double clock_hz = 0;              // AI core clock
  int aic = 0, aiv = 0;             // cube cores and vector cores the runtime schedules (one die)
  double hbm_bytes_per_s = 0;       // GM bandwidth all cores share (sustained, not peak)
  double gm_to_ub_bytes_per_s = 0;  // one AIV's MTE2
  double gm_to_l1_bytes_per_s = 0;  // one AIC's MTE2
  double ub_to_gm_bytes_per_s = 0;  // MTE3
  double l1_to_l0_bytes_per_s = 0;  // MTE1 (L0A at 441, L0B at 220.5 GiB/s: their mean for equal operands)
  double l0c_out_bytes_per_s = 0;   // FIXP
  double cube_macs_b16 = 0;         // cube multiply-accumulates per cycle, FP16 / BF16 operands
  double cube_macs_b8 = 0;          // INT8 / FP8 operands
  double cube_macs_b32 = 0;         // FP32 operands
  double issue_cycles = 0;          // the scalar unit's issue of one tile instruction
  double task_start_us = 0;         // a core's pickup of its next task
  double submit_us = 0;             // the runtime's throughput limit: one task per submit_us at best
};

const DeviceSpec& deviceSpec(Platform platform);

}  // namespace portcheck::perf
