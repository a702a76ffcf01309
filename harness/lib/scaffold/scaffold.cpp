#include "scaffold/scaffold.h"

#include <fstream>
#include <map>

#include "core/embedded_file.h"
#include "core/text.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kBase = "templates/project/";
constexpr std::string_view kKernel = "templates/kernels/auto_row_softmax.cpp";

std::string fill(std::string text, const ScaffoldRequest& r) {
  text = replaceAll(std::move(text), "{{name}}", r.name);
  return replaceAll(std::move(text), "{{kind}}", std::string(toString(r.kind)));
}

}  // namespace

std::optional<ProjectKind> parseProjectKind(std::string_view text) {
  if (text == "op") return ProjectKind::Op;
  if (text == "model") return ProjectKind::Model;
  return std::nullopt;
}

std::string_view toString(ProjectKind k) { return k == ProjectKind::Op ? "op" : "model"; }

std::string projectNameProblem(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.size() > 64) return "is longer than 64 characters";
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front())) return "must start with a lower-case letter or a digit";
  for (char c : name)
    if (!alnum(c) && c != '_' && c != '-') return "may only use lower-case letters, digits, '_' and '-'";
  return {};
}

std::vector<ScaffoldFile> projectSkeleton(const ScaffoldRequest& r) {
  std::string overlay = "templates/project-" + std::string(toString(r.kind)) + "/";
  std::map<std::string, std::string> files;  // sorted, overlay wins
  for (const std::string_view prefix : {kBase, std::string_view(overlay)})
    for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
      std::string_view p = kResourceFiles[i].path;
      if (startsWith(p, prefix)) files[std::string(p.substr(prefix.size()))] = std::string(kResourceFiles[i].bytes());
    }
  if (r.with_kernel)
    for (std::size_t i = 0; i < kResourceFilesCount; ++i)
      if (kResourceFiles[i].path == kKernel)
        files["pypto_src/kernels/" + fs::path(std::string(kKernel)).filename().string()] =
            std::string(kResourceFiles[i].bytes());
  std::vector<ScaffoldFile> out;
  for (auto& [path, bytes] : files) out.push_back({path, fill(std::move(bytes), r)});
  return out;
}

ScaffoldOutcome scaffoldProject(const fs::path& workspace_root, const ScaffoldRequest& r) {
  ScaffoldOutcome out;
  if (std::string why = projectNameProblem(r.name); !why.empty()) {
    out.error = "project name '" + r.name + "' " + why;
    return out;
  }
  out.dir = workspace_root / "projects" / r.name;
  std::error_code ec;
  if (fs::exists(out.dir, ec) && !(fs::is_directory(out.dir, ec) && fs::is_empty(out.dir, ec))) {
    out.error = "projects/" + r.name + " already exists; choose another name or remove it first";
    return out;
  }
  std::vector<ScaffoldFile> skeleton = projectSkeleton(r);
  if (skeleton.empty()) {
    out.error = "this port-check was built without templates/project/";
    return out;
  }
  for (const ScaffoldFile& f : skeleton) {
    fs::path p = out.dir / f.path;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream o(p, std::ios::binary | std::ios::trunc);
    if (!(o << f.bytes) || !o.flush()) {
      out.error = "cannot write " + p.string();
      return out;
    }
    out.files.push_back(p);
  }
  return out;
}

}  // namespace portcheck
