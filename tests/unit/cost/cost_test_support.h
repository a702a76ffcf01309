#pragma once
// The schedule cost of one program file written in a test: its model, its kernel estimates and the cost
// scheduleCost gives them.
#include <string>
#include <vector>

#include "core/source_file.h"
#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck::test {

inline cost::ScheduleCost scheduleOfText(const std::string& text, const cost::Env& assumed = {},
                                         Platform platform = Platform::A2A3) {
  SourceFile f;
  f.path = "p.py";
  f.text = text;
  std::vector<SourceFile> files{f};
  dsl::ProgramModel model = dsl::buildProgramModel(files);
  return cost::scheduleCost(model, sram::estimateProgram(model, platform), platform, {}, assumed);
}

// The first reason a figure is unknown, for failure messages.
inline std::string firstUnknown(const cost::ScheduleCost& c) { return c.unknown.empty() ? "" : c.unknown[0]; }

}  // namespace portcheck::test
