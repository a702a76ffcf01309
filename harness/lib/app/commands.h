#pragma once
// The subcommands, callable from the CLI and from tests.
#include <string>
#include <vector>

#include "app/options.h"

namespace portcheck {

// port-check lint PATH...: static rules over projects and files.
int runLint(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io);

// port-check check PATH...: every stage that can run (lint now; compile, estimate, run as they land).
int runCheck(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io);

struct RulesOptions {
  std::string id;         // explain one rule
  bool markdown = false;  // print docs/rules.md
};
// port-check rules [ID] [--markdown]: the catalogue.
int runRules(const CommonOptions& options, const RulesOptions& rules, const Io& io);

// port-check --version: tool, catalogue and toolchain.
int runVersion(const CommonOptions& options, const Io& io);

// The rule reference as Markdown (docs/rules.md is generated from this).
std::string rulesMarkdown();

// Subcommands that exist in the interface but are not built yet: say so, exit 2.
int runNotBuilt(const std::string& command, const Io& io);

}  // namespace portcheck
