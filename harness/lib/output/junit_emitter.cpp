// JUnit XML (tinyxml2): a test suite per checked file, a test case per finding named
// "RULE line:col" so CI systems do not merge repeated findings, a passing case for a clean file. A
// finding at or above --fail-on is a <failure>; one below it is a passing case with the finding in
// <system-out>, so the counts agree with the exit status.
#include <map>
#include <tinyxml2.h>

#include "core/text.h"
#include "output/emitter.h"

namespace portcheck {

namespace {

std::string position(const Diagnostic& d) {
  if (d.line <= 0) return "";
  return std::to_string(d.line) + ":" + std::to_string(std::max(d.column, 1));
}

}  // namespace

std::string emitJunit(const Report& report, const EmitOptions& options) {
  // Group findings by file; findings with no file go to a suite named "port-check".
  std::map<std::string, std::vector<const Diagnostic*>> by_file;
  for (const std::string& f : report.run.files) by_file[f];
  for (const Diagnostic& d : report.diagnostics) by_file[d.file.empty() ? "port-check" : d.file].push_back(&d);

  tinyxml2::XMLDocument doc;
  doc.InsertEndChild(doc.NewDeclaration());
  tinyxml2::XMLElement* root = doc.NewElement("testsuites");
  doc.InsertEndChild(root);
  int total_tests = 0, total_failures = 0;
  for (const auto& [file, diags] : by_file) {
    const std::string suite_name = sanitizeUtf8(file);
    tinyxml2::XMLElement* suite = doc.NewElement("testsuite");
    root->InsertEndChild(suite);
    suite->SetAttribute("name", suite_name.c_str());
    int tests = 0, failures = 0;
    for (const Diagnostic* d : diags) {
      tinyxml2::XMLElement* tc = doc.NewElement("testcase");
      suite->InsertEndChild(tc);
      std::string pos = position(*d);
      std::string name = d->rule + (pos.empty() ? "" : " " + pos);
      tc->SetAttribute("classname", suite_name.c_str());
      tc->SetAttribute("name", name.c_str());
      if (!d->file.empty()) tc->SetAttribute("file", sanitizeUtf8(d->file).c_str());
      if (d->line > 0) tc->SetAttribute("line", d->line);
      ++tests;
      std::string body = (d->file.empty() ? "port-check" : d->file) + (pos.empty() ? "" : ":" + pos) + ": " +
                         std::string(toString(d->severity)) + ": " + d->message + " [" + d->rule + "]";
      if (!d->hint.empty()) body += "\nhint: " + d->hint;
      if (!d->doc.empty()) body += "\ndoc: " + docLink(d->doc, options);
      body = sanitizeUtf8(body);
      // Below --fail-on a finding does not fail the run: a passing case that carries it as output.
      if (!options.failing_severity || d->severity < *options.failing_severity) {
        tinyxml2::XMLElement* out = doc.NewElement("system-out");
        out->SetText(body.c_str());
        tc->InsertEndChild(out);
        continue;
      }
      ++failures;
      tinyxml2::XMLElement* failure = doc.NewElement("failure");
      failure->SetAttribute("message", sanitizeUtf8(d->message).c_str());
      failure->SetAttribute("type", d->rule.c_str());
      failure->SetText(body.c_str());
      tc->InsertEndChild(failure);
    }
    if (diags.empty()) {
      tinyxml2::XMLElement* tc = doc.NewElement("testcase");
      suite->InsertEndChild(tc);
      tc->SetAttribute("classname", suite_name.c_str());
      tc->SetAttribute("name", "port-check");
      ++tests;
    }
    suite->SetAttribute("tests", tests);
    suite->SetAttribute("failures", failures);
    suite->SetAttribute("errors", 0);
    suite->SetAttribute("skipped", 0);
    total_tests += tests;
    total_failures += failures;
  }
  root->SetAttribute("name", "port-check");
  root->SetAttribute("tests", total_tests);
  root->SetAttribute("failures", total_failures);
  root->SetAttribute("errors", 0);
  root->SetAttribute("time", report.run.seconds);
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

}  // namespace portcheck
