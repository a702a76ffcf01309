#pragma once
// Jobs of a tune sweep or an eval set run as Ray tasks (--ray ADDR|auto, docs/scale-out.md). port-check
// stays the driver: it writes the jobs (each one port-check command line for one configuration or one
// attempt) into a spec file, and the embedded driver script harness/adapter/port_check_ray.py submits
// them to the cluster with the Ray API, one task each, retried (max_retries) when a worker or its node
// dies. Each task runs this same port-check on its worker, which writes its result into the cache (the
// shared store when one is configured); the driver then goes on as locally and replays it.
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/options.h"

namespace portcheck {

struct RayJob {
  std::string id;                 // unique in one submission; the tune configuration or the eval attempt
  std::vector<std::string> args;  // port-check's arguments; the program is the driver's own binary
};

struct RayJobResult {
  std::string id;
  int exit_code = -1;
  std::string out;   // the job's standard output (its JSON document)
  std::string err;   // the end of its standard error
  std::string node;  // the Ray node it finished on
};

struct RaySubmission {
  std::string address;                 // "auto" or host:port of the cluster's head
  std::string python;                  // the interpreter with ray (rayPython)
  std::filesystem::path cwd;           // where each job runs: the workspace
  std::filesystem::path cache_root;    // the driver script is installed there; the spec and result under ray/
  int max_retries = 3;                 // per task, for a worker or node that died
  std::chrono::milliseconds timeout{std::chrono::hours(24)};  // the whole submission
};

struct RayOutcome {
  bool ok = false;
  std::string error;                 // why the jobs did not all run: no ray, no cluster, a job lost
  std::vector<RayJobResult> results; // in job order when ok
  double seconds = 0;
};

// The interpreter with ray: --ray-python, else PORTCHECK_RAY_PYTHON, else the virtual environment
// scripts/bootstrap.sh makes (${XDG_CACHE_HOME:-$HOME/.cache}/port-check/ray-venv/bin/python) when it
// exists, else python3 on PATH.
std::string rayPython(const std::optional<std::string>& option, const std::function<const char*(const char*)>& getenv);

// Submits the jobs and waits for all; the results in job order.
RayOutcome runRayJobs(const RaySubmission& submission, const std::vector<RayJob>& jobs);

// The options of the driver's command line every job repeats, with the toolchain the driver resolved:
// --platform (when given), --pypto, --python, --config, --pto-isa, --no-kernel-compile.
std::vector<std::string> rayCommonArgs(const Session& session, const CommonOptions& options);

}  // namespace portcheck
