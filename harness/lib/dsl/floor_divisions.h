#pragma once
// Every `EXTENT // NAME` of a program: a known positive extent floor-divided by a name (the loop counts
// a tile constant shapes, `pl.range(ROWS // ROW_TILE)`). TUNE002 checks candidates against them and
// `port-check tune` proposes candidates from them.
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/dsl_model.h"

namespace portcheck::dsl {

struct FloorDivision {
  std::string name;        // the divisor
  std::int64_t extent = 0;
  std::string text;        // as written
  std::string file;
  int line = 0;
  const Function* function = nullptr;  // the function it is in
};

std::vector<FloorDivision> floorDivisions(const ProgramModel& program);

}  // namespace portcheck::dsl
