#pragma once
// What port-check doctor finds out about the toolchain before it judges anything (doctor_probes.h
// gathers it by running processes; doctor_checks.h turns it into checks, without running anything).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "toolchain/toolchain.h"

namespace portcheck::doctor {

// ptoas as the compile stage finds it, and the version PyPTO pins (<pypto>/toolchain/versions.env).
struct PtoasFacts {
  bool ran = false;              // `ptoas --version` exited 0
  std::string version;           // "0.27", from its --version output; "" when not recognised
  std::string version_output;    // first line of the output, or why it did not run
  std::string pinned;            // "v0.57" (PTOAS_VERSION), "" when PyPTO declares none
};

// The C++ compiler the simulator builds kernels with: simpler calls it `g++-15` (on PATH) with
// -std=c++23 and the pto-isa CPU headers (simpler_setup/toolchain.py, Gxx15Toolchain).
struct KernelCompilerFacts {
  std::filesystem::path path;    // g++-15 found on PATH; empty when none
  std::string version_line;      // first line of --version
  bool probed = false;           // the header and BF16 probes ran (a compiler and pto-isa headers exist)
  bool headers_ok = false;       // pto/pto-inst.hpp compiles with the simulator's flags
  std::string headers_error;     // first error line otherwise
  bool bf16_type_real = false;   // bfloat16_t is not pto-isa's _Float16 fallback
  bool bf16_runs = false;        // a linked program converts FP32 -> BF16 with the right bits
  std::string bf16_error;        // why not (link error, wrong bits)
};

// Everything doctor knows. `probe` is the Python probe's JSON (harness/adapter/port_check_doctor.py);
// `probe_error` says why there is none (no interpreter, the probe crashed).
struct ToolchainFacts {
  Toolchain toolchain;
  nlohmann::json probe;
  std::string probe_error;
  bool probe_interrupted = false;  // cancelled (MCP) or interrupted (Ctrl-C) before it answered
  PtoasFacts ptoas;
  KernelCompilerFacts kernel_compiler;
  bool interrupted = false;        // some probe was stopped by a cancellation; later ones did not run
};

}  // namespace portcheck::doctor
