#pragma once
// How many cores of a kind a platform has, for advice that must keep every core busy
// (shared reference pypto-language-and-runtime.md §3.1; pypto src/backend/common/soc.cpp):
// a2a3 24 AIC + 48 AIV cores per die, a5 18 clusters of 1 AIC + 2 AIV.
#include <string_view>

#include "core/platform.h"

namespace portcheck::advice {

// `core` is "AIC" or "AIV" (anything else counts as AIV).
inline int coreCount(Platform p, std::string_view core) {
  const bool aic = core == "AIC";
  if (p == Platform::A5) return aic ? 18 : 36;
  return aic ? 24 : 48;
}

}  // namespace portcheck::advice
