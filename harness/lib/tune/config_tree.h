#pragma once
// A configuration of a port written out for the compiler: a copy of the project's pypto_src with each
// knob's module assignment set to the configuration's value, beside a copy of the workspace's
// pypto-lib (the blocks a port imports through a relative sys.path), under
// <cache>/tune/<project>/<configuration hash>/ in the workspace's layout. The user's files are never
// touched.
#include <filesystem>
#include <optional>
#include <string>

#include "compiler/compile_driver.h"
#include "dsl/dsl_model.h"
#include "tune/config_space.h"
#include "workspace/workspace.h"

namespace portcheck::tune {

// `text` with the module-level `name = <value>` assignment's value replaced by `value`; nullopt when
// the file assigns no such constant.
std::optional<std::string> withConstant(const std::string& text, const std::string& name, std::int64_t value);

// The compile target of `config` for `project`, its tree written; nullopt with `error` when it could not be.
std::optional<CompileTarget> writeConfigTree(const Workspace& ws, const Project& project, const Config& config,
                                             const std::filesystem::path& cache_root, std::string& error);

}  // namespace portcheck::tune
