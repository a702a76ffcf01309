#pragma once
// How the text and HTML outputs print the device-time model's figures.
#include <cstdio>
#include <string>

namespace portcheck {

// Microseconds with three significant figures or so: 2.54, 47.9, 272.
inline std::string microseconds(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, us >= 100 ? "%.0f" : us >= 10 ? "%.1f" : "%.2f", us);
  return buf;
}

// A share 0..1 as a whole percentage: "48%".
inline std::string wholePercent(double share) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", share * 100.0);
  return buf;
}

}  // namespace portcheck
