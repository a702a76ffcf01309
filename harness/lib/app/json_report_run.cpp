#include "app/json_report_run.h"

#include <sstream>

namespace portcheck {

JsonReportRun runForJsonReport(const std::function<int(const CommonOptions&, const Io&)>& command,
                               CommonOptions options, std::function<const char*(const char*)> getenv) {
  options.format = Format::Json;
  options.output.reset();
  std::ostringstream out, err;
  Io io{out, err, false, std::move(getenv)};
  JsonReportRun r;
  r.code = command(options, io);
  r.report = nlohmann::json::parse(out.str(), nullptr, false);
  if (!r.report.is_object()) r.report = nlohmann::json(nlohmann::json::value_t::discarded);
  r.text = out.str() + err.str();
  return r;
}

}  // namespace portcheck
