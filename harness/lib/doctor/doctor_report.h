#pragma once
// What port-check doctor prints: the checks by level, the level reached, and the self-test's cases, as
// text for people or JSON (schema port-check-doctor/1, docs/doctor.md) for agents.
#include <optional>
#include <string>
#include <vector>

#include "doctor/doctor_checks.h"
#include "doctor/op_coverage.h"
#include "doctor/self_test.h"

namespace portcheck::doctor {

struct DoctorReport {
  std::string tool_version;
  std::string platform;                 // the simulator the self-test ran on: a2a3sim / a5sim
  Level asked = Level::Simulator;       // --level
  std::vector<Check> checks;
  std::optional<Level> reached;
  bool self_test_ran = false;
  std::string self_test_skipped;        // why --run did not run (the simulator level is not reached)
  std::vector<SelfTestCase> self_test;
  std::vector<PortAtRisk> at_risk;      // ports and blocks calling an op only failed self-tests exercise
  bool interrupted = false;             // a probe was interrupted (Ctrl-C) or cancelled: its checks are skipped

  // The asked level is reached, and with --run every self-test case passed.
  bool healthy() const;
};

std::string doctorText(const DoctorReport& report);
std::string doctorJson(const DoctorReport& report);

}  // namespace portcheck::doctor
