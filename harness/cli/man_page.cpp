#include "man_page.h"

#include <set>
#include <sstream>

namespace portcheck::cli {

namespace {

// Text for a roff line: backslashes escaped, and a line that would start with a control character
// ('.' or '\'') guarded with \&.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

// An option or command name: every '-' a minus sign, as man(7) wants for what is typed.
std::string typed(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

bool hidden(const CLI::Option* o) { return o->get_group().empty(); }

// The value an option takes, as its help shows it: the option text, else the type ("TEXT", "INT"), or
// for a fixed set of values the set ("text|json|sarif").
std::string valueName(const CLI::Option& o) {
  if (!o.get_option_text().empty()) return o.get_option_text();
  std::string type = o.get_type_name();
  auto open = type.find(":{");
  if (open != std::string::npos && type.back() == '}') {
    std::string set = type.substr(open + 2, type.size() - open - 3);
    for (char& c : set)
      if (c == ',') c = '|';
    return set;
  }
  return type.substr(0, type.find(':'));
}

bool isFlag(const CLI::Option& o) { return o.get_type_size() == 0; }

void describeOption(std::ostringstream& out, const CLI::Option& o) {
  out << ".TP\n";
  if (o.get_positional() && !o.nonpositional()) {
    out << "\\fI" << roff(o.get_name(true)) << "\\fR" << (o.get_items_expected_max() > 1 ? "..." : "") << "\n";
  } else {
    out << "\\fB" << typed(optionNames(o)) << "\\fR";
    if (!isFlag(o)) out << " \\fI" << roff(valueName(o)) << "\\fR";
    out << "\n";
  }
  std::string description = o.get_description();
  if (o.get_required() && o.nonpositional()) description += " (required)";
  out << roff(description) << "\n";
}

std::string synopsis(const CLI::App& app, const std::string& path) {
  std::string s = "\\fB" + typed(path) + "\\fR [\\fIOPTION\\fR]...";
  for (const CLI::Option* o : app.get_options([](const CLI::Option* o) { return o->get_positional() && !o->nonpositional(); })) {
    std::string arg = "\\fI" + roff(o->get_name(true)) + "\\fR" + (o->get_items_expected_max() > 1 ? "..." : "");
    s += " " + (o->get_required() ? arg : "[" + arg + "]");
  }
  // A few subcommands are named ("check|install"); many are one COMMAND, each described under COMMANDS.
  auto subs = app.get_subcommands([](const CLI::App*) { return true; });
  if (subs.size() > 3) {
    s += " \\fICOMMAND\\fR [\\fIARG\\fR]...";
  } else if (!subs.empty()) {
    std::string names;
    for (const CLI::App* sub : subs) names += (names.empty() ? "" : "|") + typed(sub->get_name());
    s += " \\fB" + names + "\\fR [\\fIARG\\fR]...";
  }
  return s;
}

// One subsection per command: its synopsis, what it does, its arguments and the options only it takes
// (the common ones are under OPTIONS), then its own subcommands.
void describeCommand(std::ostringstream& out, const CLI::App& sub, const std::string& path,
                     const std::set<std::string>& common) {
  out << ".SS \"" << typed(path) << "\"\n" << synopsis(sub, path) << "\n.PP\n" << roff(sub.get_description()) << "\n";
  for (const CLI::Option* o : sub.get_options()) {
    if (hidden(o) || o == sub.get_help_ptr()) continue;
    if (o->nonpositional() && common.count(optionNames(*o))) continue;
    describeOption(out, *o);
  }
  for (const CLI::App* child : sub.get_subcommands([](const CLI::App*) { return true; }))
    describeCommand(out, *child, path + " " + child->get_name(), common);
}

}  // namespace

std::string optionNames(const CLI::Option& option) {
  std::string names;
  for (const std::string& s : option.get_snames()) names += (names.empty() ? "-" : ", -") + s;
  for (const std::string& l : option.get_lnames()) names += (names.empty() ? "--" : ", --") + l;
  return names.empty() ? option.get_name(true) : names;
}

// CLI11's names ("-o,--output", which the bash completion splits on ','), without a flag's default value.
std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
  std::string names = CLI::Formatter::make_option_name(option, is_positional);
  for (auto open = names.find('{'); open != std::string::npos; open = names.find('{', open)) {
    auto close = names.find('}', open);
    if (close == std::string::npos) break;
    names.erase(open, close - open + 1);
  }
  return names;
}

std::string manPage(const CLI::App& app, const std::string& version, const std::string& date) {
  const std::string name = app.get_name();
  std::ostringstream out;
  out << ".TH " << typed(name == "port-check" ? "PORT-CHECK" : name) << " 1 \"" << roff(date) << "\" \""
      << roff(name + " " + version) << "\" \"User Commands\"\n";
  out << ".SH NAME\n" << typed(name) << " \\- lint, compile and check PyPTO ports for Ascend NPUs\n";
  out << ".SH SYNOPSIS\n" << synopsis(app, name) << "\n";
  out << ".SH DESCRIPTION\n" << roff(app.get_description()) << "\n";

  out << ".SH OPTIONS\nThe options of \\fB" << typed(name)
      << "\\fR itself; those a command accepts as well are not repeated under COMMANDS.\n";
  std::set<std::string> common;
  for (const CLI::Option* o : app.get_options()) {
    if (hidden(o)) continue;
    if (o != app.get_help_ptr()) common.insert(optionNames(*o));
    describeOption(out, *o);
  }
  out << ".SH COMMANDS\nEach command also prints its options with \\fB" << typed(name)
      << "\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR.\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    describeCommand(out, *sub, name + " " + sub->get_name(), common);
  return out.str();
}

}  // namespace portcheck::cli
