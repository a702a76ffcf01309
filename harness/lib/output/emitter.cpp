#include "output/emitter.h"

namespace portcheck {

std::optional<Format> parseFormat(std::string_view t) {
  for (Format f : {Format::Text, Format::Json, Format::Sarif, Format::Junit, Format::Github})
    if (toString(f) == t) return f;
  return std::nullopt;
}

std::string_view toString(Format f) {
  switch (f) {
    case Format::Text: return "text";
    case Format::Json: return "json";
    case Format::Sarif: return "sarif";
    case Format::Junit: return "junit";
    case Format::Github: return "github";
  }
  return "text";
}

std::string emitReport(const Report& report, Format format, const EmitOptions& options) {
  switch (format) {
    case Format::Text: return emitText(report, options);
    case Format::Json: return emitJson(report, options);
    case Format::Sarif: return emitSarif(report, options);
    case Format::Junit: return emitJunit(report, options);
    case Format::Github: return emitGithub(report, options);
  }
  return emitText(report, options);
}

std::string docLink(std::string_view doc, const EmitOptions& options) {
  if (options.doc_base_url.empty() || doc.empty()) return std::string(doc);
  std::string base = options.doc_base_url;
  if (base.back() != '/') base += '/';
  return base + std::string(doc);
}

}  // namespace portcheck
