#pragma once
// How the command line describes itself: option names as a reader types them (CLI11's help shows a
// flag's default as "--no-cache{false}"), and the port-check(1) man page generated from the same
// CLI11 app, so its commands and options cannot drift from what the parser accepts.
#include <CLI/CLI.hpp>
#include <string>

namespace portcheck::cli {

// "-j, --jobs"; a positional's own name.
std::string optionNames(const CLI::Option& option);

// The help formatter port-check uses: CLI11's, without the flag defaults ("--no-cache{false}").
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
};

// man(7) source of the page: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (those every command takes) and
// COMMANDS (one subsection per subcommand, nested ones too, with its arguments and its own options).
// The hand-written sections (EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO) are appended by the build
// (packaging/port-check.sections.man). `date` goes into the title line.
std::string manPage(const CLI::App& app, const std::string& version, const std::string& date);

}  // namespace portcheck::cli
