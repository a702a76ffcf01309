#include "perf/device_spec.h"

namespace portcheck::perf {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// a2a3: Ascend 910B (docs/perf-model.md, Constants).
constexpr DeviceSpec kA2A3{
    .clock_hz = 1.8e9,                     // Ascend910B2.ini cube_freq=1800
    .aic = 24,                             // cube_core_cnt=24
    .aiv = 48,                             // vector_core_cnt=48
    .hbm_bytes_per_s = 1.05e12,            // 1.6 TB/s peak; 1.0-1.1 TB/s sustained (pypto-lib#622)
    .gm_to_ub_bytes_per_s = 100.9 * kGiB,  // pto-isa arch_config.hpp flat table
    .gm_to_l1_bytes_per_s = 135.0 * kGiB,
    .ub_to_gm_bytes_per_s = 188.46 * kGiB,
    .l1_to_l0_bytes_per_s = 294.0 * kGiB,  // 2 / (1/441 + 1/220.5)
    .l0c_out_bytes_per_s = 128.0 * kGiB,   // L0C_TO_L1
    .cube_macs_b16 = 4096,                 // 16x16x16 per cycle
    .cube_macs_b8 = 8192,                  // 16x32x16
    .cube_macs_b32 = 1024,                 // 16x8x16 per 2 cycles
    .issue_cycles = 6,                     // the smallest fixed cost in pto-isa's formulas (TMATMUL head)
    .task_start_us = 0.8,                  // pickup latency (simpler sched-overhead-model.md)
    .submit_us = 5.0 / 3.0,                // ~5 us of scheduler work per task over 3 scheduler threads
};

// a5: Ascend 950PR (docs/perf-model.md, Constants): one die of the 9599 SKU; pto-isa has no a5
// bandwidth table, so the a2a3 transfer rates stand in, marked as such in the doc.
constexpr DeviceSpec kA5{
    .clock_hz = 1.8e9,                     // Ascend950PR_9599.ini cube_freq=1800
    .aic = 18,                             // 36 / 72 per device, 2 dies
    .aiv = 36,
    .hbm_bytes_per_s = 1.05e12,            // 950PR: 1.6 TB/s peak, as a2a3
    .gm_to_ub_bytes_per_s = 100.9 * kGiB,
    .gm_to_l1_bytes_per_s = 135.0 * kGiB,
    .ub_to_gm_bytes_per_s = 188.46 * kGiB,
    .l1_to_l0_bytes_per_s = 294.0 * kGiB,
    .l0c_out_bytes_per_s = 128.0 * kGiB,
    .cube_macs_b16 = 4096,                 // [DtypeMKN] 16,16,16
    .cube_macs_b8 = 8192,                  // 16,32,16
    .cube_macs_b32 = 1024,                 // 16,8,16
    .issue_cycles = 6,
    .task_start_us = 0.8,
    .submit_us = 5.0 / 3.0,
};

}  // namespace

const DeviceSpec& deviceSpec(Platform platform) { return platform == Platform::A5 ? kA5 : kA2A3; }

}  // namespace portcheck::perf
