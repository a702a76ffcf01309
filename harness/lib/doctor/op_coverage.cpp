#include "doctor/op_coverage.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace portcheck::doctor {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStructural[] = {
    "range", "parallel", "pipeline", "spmd", "at", "incore", "split", "create_tensor", "tensor.read",
    "tensor.write", "slice", "reshape", "assemble", "min", "max", "yield_", "dynamic", "Scalar", "Tensor",
    "Tile", "Out", "InOut", "jit", "jit.incore", "program", "function",
};

std::string sourceText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The argument text of the call whose '(' is at `open` (nested parentheses balanced).
std::string_view callArguments(std::string_view source, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < source.size(); ++i) {
    if (source[i] == '(') ++depth;
    if (source[i] == ')' && --depth == 0) return source.substr(open + 1, i - open - 1);
  }
  return source.substr(open + 1);
}

std::set<std::string> opsOfFiles(const std::vector<fs::path>& files) {
  std::set<std::string> ops;
  for (const fs::path& f : files) {
    std::set<std::string> found = opsCalled(sourceText(f));
    ops.insert(found.begin(), found.end());
  }
  return ops;
}

std::vector<fs::path> pythonFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".py" && it->path().filename().string().rfind("test_", 0) != 0)
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

// The pypto-lib modules a port's file imports (`from swiglu_gate_up import ...`, `import matmul_bt`): the
// ports put the blocks' folders on sys.path and call their kernels.
std::vector<fs::path> importedBlocks(const std::vector<fs::path>& files, const std::map<std::string, fs::path>& blocks) {
  static const std::regex import_line(R"((?:^|\n)\s*(?:from\s+([A-Za-z_][A-Za-z0-9_]*)\s+import|import\s+([A-Za-z_][A-Za-z0-9_]*)))");
  std::vector<fs::path> found;
  for (const fs::path& f : files) {
    std::string text = sourceText(f);
    for (std::sregex_iterator it(text.begin(), text.end(), import_line), end; it != end; ++it) {
      std::string module = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
      auto b = blocks.find(module);
      if (b != blocks.end() && std::find(found.begin(), found.end(), b->second) == found.end()) found.push_back(b->second);
    }
  }
  return found;
}

// "projects/<name>" -> its pypto_src files and the pypto-lib modules they import; "pypto-lib/<name>" -> the
// block's own files.
std::vector<std::pair<std::string, std::vector<fs::path>>> units(const fs::path& workspace) {
  std::map<std::string, fs::path> blocks;  // module stem -> file
  {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(workspace / "pypto-lib", ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".py") blocks.emplace(it->path().stem().string(), it->path());
  }
  std::vector<std::pair<std::string, std::vector<fs::path>>> out;
  for (const auto& [folder, inner] : {std::pair<std::string, std::string>{"projects", "pypto_src"}, {"pypto-lib", ""}}) {
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (fs::directory_iterator it(workspace / folder, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory()) dirs.push_back(it->path());
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      std::vector<fs::path> files = pythonFiles(inner.empty() ? d : d / inner);
      if (!inner.empty())
        for (const fs::path& b : importedBlocks(files, blocks))
          if (std::find(files.begin(), files.end(), b) == files.end()) files.push_back(b);
      if (!files.empty()) out.emplace_back(folder + "/" + d.filename().string(), std::move(files));
    }
  }
  return out;
}

}  // namespace

bool isStructuralOp(std::string_view op) {
  return std::find(std::begin(kStructural), std::end(kStructural), op) != std::end(kStructural) ||
         (!op.empty() && std::isupper(static_cast<unsigned char>(op[0])));
}

std::set<std::string> opsCalled(std::string_view source) {
  static const std::regex call(R"(\bpl\.(tile\.)?([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)\s*\()");
  std::set<std::string> ops;
  std::string text(source);
  for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
    const std::smatch& m = *it;
    std::string op = m[2].str();
    const bool tile_form = m[1].matched;
    if (isStructuralOp(op)) {
      if (!tile_form) continue;
      op = "tile." + op;  // a view in the orchestration, a tile instruction in a kernel
    }
    if (op == "recip") {
      std::size_t open = static_cast<std::size_t>(m.position(0) + m.length(0) - 1);
      std::string_view args = callArguments(source, open);
      if (args.find("high_precision=True") != std::string_view::npos) op += "[high_precision]";
    }
    ops.insert(op);
  }
  return ops;
}

std::vector<PortAtRisk> portsAtRisk(const fs::path& workspace, const fs::path& selftest_dir,
                                    const std::vector<SelfTestCase>& cases) {
  // op -> (self-tests exercising it, whether one of them passed)
  std::map<std::string, std::pair<std::vector<std::string>, bool>> tested;
  for (const SelfTestCase& c : cases)
    for (const std::string& op : opsCalled(sourceText(selftest_dir / (c.program + ".py")))) {
      auto& [names, passed] = tested[op];
      names.push_back(c.program);
      passed |= c.verdict == "pass";
    }
  std::vector<PortAtRisk> risky;
  for (const auto& [unit, files] : units(workspace)) {
    PortAtRisk r{unit, {}, {}};
    for (const std::string& op : opsOfFiles(files)) {
      auto it = tested.find(op);
      if (it == tested.end() || it->second.second) continue;  // untested ops are the coverage test's concern
      r.ops.push_back(op);
      for (const std::string& t : it->second.first)
        if (std::find(r.self_tests.begin(), r.self_tests.end(), t) == r.self_tests.end()) r.self_tests.push_back(t);
    }
    if (!r.ops.empty()) risky.push_back(std::move(r));
  }
  return risky;
}

}  // namespace portcheck::doctor
