#pragma once
// `port-check tune --apply`: the winning configuration written into the port itself: in each file of
// pypto_src that assigns a knob at module level, that assignment's value replaced (the comment after
// it kept), each file replaced atomically. Nothing is written unless every knob is found.
#include <string>
#include <vector>

#include "tune/config_space.h"
#include "workspace/workspace.h"

namespace portcheck::tune {

// The files changed (absolute paths), or false with `error`.
bool applyConfig(const Project& project, const Config& config, std::vector<std::string>& changed, std::string& error);

}  // namespace portcheck::tune
