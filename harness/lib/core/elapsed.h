// Wall-clock seconds since a steady_clock start: the elapsed time commands print and report.
#pragma once

#include <chrono>

namespace portcheck {

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace portcheck
