// port-check report end to end: the SRAM table and the advice on stdout, the JSON rows, and the HTML
// page checked structurally (it is XHTML: parsed with tinyxml2) and, where Debian's chromium is
// installed, rendered headless to a PNG.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

class ReportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("projects/chain/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/chain/pypto_src/program.py",
             test::readFile(fs::path(test::fixturesDir()) / "sram_rules" / "FUSE001_bad.py"));
    ws.write("projects/big/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/big/pypto_src/program.py",
             test::readFile(fs::path(test::fixturesDir()) / "sram_rules" / "MEM001_bad.py"));
  }
  test::CommandResult report(Format f, std::vector<std::string> args, ReportOptions ro = {}) {
    auto o = test::optionsIn(ws.path(), f);
    return test::runInProcess([&](const Io& io) { return runReport(o, ro, args, io); });
  }
  test::TempDir ws;
};

const tinyxml2::XMLElement* findFirst(const tinyxml2::XMLElement* e, const std::function<bool(const tinyxml2::XMLElement*)>& pred) {
  if (!e) return nullptr;
  if (pred(e)) return e;
  for (auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
    if (auto* f = findFirst(c, pred)) return f;
  return nullptr;
}

int countAll(const tinyxml2::XMLElement* e, const std::function<bool(const tinyxml2::XMLElement*)>& pred) {
  if (!e) return 0;
  int n = pred(e) ? 1 : 0;
  for (auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) n += countAll(c, pred);
  return n;
}

bool hasAttr(const tinyxml2::XMLElement* e, const char* name, const char* value) {
  const char* v = e->Attribute(name);
  return v && std::string(v) == value;
}

// A kernel that doubles 64 rows from row r0, for the ragged projects.
const char* kDoubleRows = R"(import pypto.language as pl


@pl.jit.incore
def double_rows(src: pl.Tensor[[1024, 128], pl.FP32], dst: pl.Out[pl.Tensor[[1024, 128], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(src, [r0, 0], [64, 128])
    pl.store(pl.mul(t, 2.0), [r0, 0], dst)
    return dst

)";

TEST_F(ReportCommand, PrintsTheTableAndTheAdviceAndExitsOneOnAnOverflow) {
  auto r = report(Format::Text, {"projects/chain", "projects/big"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // MEM001 is an error
  EXPECT_NE(r.out.find("[MEM001]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[FUSE001]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[FUSE003]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("big_exp_incore_0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("add_bias"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("wrote the HTML report to .port-check-cache/report/report.html"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(ws / ".port-check-cache/report/report.html"));
}

// The last `port-check tune` of a project (its JSON in the cache) becomes a section of the page; a
// malformed one is left out, not a failure.
TEST_F(ReportCommand, ThePageShowsTheLastTuneOfEachProject) {
  nlohmann::json tuned = {{"project", "chain"}, {"platform", "a2a3"}, {"strategy", "grid"}, {"pruned_by_estimate", 0},
                          {"compiles_saved", 0}, {"compiled", 0}, {"ran", 0}};
  tuned["configs"] = nlohmann::json::array({{{"label", "T=8"}, {"verdict", "estimate only"}, {"use", 0.5},
                                             {"gm_bytes", 4096}, {"tasks", 2}, {"current", true}, {"binding", "k/Vec"}}});
  ws.write(".port-check-cache/tune/chain/a2a3.json", tuned.dump());
  ws.write(".port-check-cache/tune/big/a2a3.json", "{not json");
  report(Format::Text, {"projects/chain", "projects/big"});
  std::string page = test::readFile(ws / ".port-check-cache/report/report.html");
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(page.c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  EXPECT_NE(page.find("<section class=\"tune\" id=\"tune-chain\">"), std::string::npos);
  EXPECT_EQ(page.find("id=\"tune-big\""), std::string::npos);
}

TEST_F(ReportCommand, JsonCarriesEstimateRowsNamedAsTheCompilerNamesTheKernels) {
  auto r = report(Format::Json, {"projects/chain"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("sram")) << r.out;
  std::set<std::string> fns;
  for (const auto& row : j["sram"]) {
    fns.insert(row["function"].get<std::string>());
    EXPECT_EQ(row["project"], "chain");
    EXPECT_TRUE(row["estimate"].is_number());
    EXPECT_TRUE(row["actual"].is_null());
  }
  EXPECT_EQ(fns, (std::set<std::string>{"scale_by_three", "add_bias"}));
}

TEST_F(ReportCommand, HtmlIsWellFormedWithBarsPerKernelAndTheTaskGraph) {
  ReportOptions ro;
  ro.html = "out/page.html";
  auto r = report(Format::Text, {"projects/chain", "projects/big"}, ro);
  ASSERT_TRUE(fs::exists(ws / "out/page.html")) << r.err;
  std::string text = test::readFile(ws / "out/page.html");
  EXPECT_EQ(text.find("http://"), text.find("http://www.w3.org/"));  // only namespace URIs: no external assets
  EXPECT_EQ(text.find("<script"), std::string::npos);
  EXPECT_EQ(text.find("<link"), std::string::npos);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(text.c_str(), text.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const auto* html = doc.RootElement();
  ASSERT_NE(html, nullptr);
  EXPECT_STREQ(html->Name(), "html");
  // The table: one row per (function, space) estimate.
  const auto* table = findFirst(html, [](auto* e) { return hasAttr(e, "id", "sram-table"); });
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(countAll(table, [](auto* e) { return std::string(e->Name()) == "tr"; }), 1 + 3);  // header + 3 kernels x Vec
  // The bars: one SVG card per kernel, an estimate rect per space, red when over capacity.
  const auto* bars = findFirst(html, [](auto* e) { return hasAttr(e, "id", "sram-bars"); });
  ASSERT_NE(bars, nullptr);
  EXPECT_EQ(countAll(bars, [](auto* e) { return std::string(e->Name()) == "svg"; }), 3);
  EXPECT_EQ(countAll(bars, [](auto* e) { return hasAttr(e, "class", "estimate"); }), 3);
  EXPECT_EQ(countAll(bars, [](auto* e) { return hasAttr(e, "class", "estimate") && hasAttr(e, "fill", "#e0766f"); }), 1);
  // The task graph of the chain: two kernels and the producer -> consumer edge through 'scaled'.
  const auto* graphs = findFirst(html, [](auto* e) { return hasAttr(e, "id", "task-graphs"); });
  ASSERT_NE(graphs, nullptr);
  EXPECT_NE(findFirst(graphs, [](auto* e) { return hasAttr(e, "data-kernel", "scale_by_three"); }), nullptr);
  EXPECT_NE(findFirst(graphs, [](auto* e) { return hasAttr(e, "data-kernel", "add_bias"); }), nullptr);
  const auto* edge = findFirst(graphs, [](auto* e) { return hasAttr(e, "class", "edge"); });
  ASSERT_NE(edge, nullptr);
  EXPECT_TRUE(hasAttr(edge, "data-from", "0"));
  EXPECT_TRUE(hasAttr(edge, "data-to", "1"));
  // The advice list names the fusion.
  const auto* advice = findFirst(html, [](auto* e) { return hasAttr(e, "id", "advice"); });
  ASSERT_NE(advice, nullptr);
  EXPECT_GE(countAll(advice, [](auto* e) { return std::string(e->Name()) == "li"; }), 3);
  // Each finding keeps its hint and its notes (the largest tiles, the producer's store).
  EXPECT_GE(countAll(advice, [](auto* e) { return hasAttr(e, "class", "hint"); }), 3);
  EXPECT_GE(countAll(advice, [](auto* e) { return hasAttr(e, "class", "notes"); }), 1);
}

TEST_F(ReportCommand, NeedsAPathAndReportsAnUnwritableHtmlFile) {
  auto r = report(Format::Text, {});
  EXPECT_EQ(r.exit_code, 2);
  ws.write("blocker", "a file where a folder is needed\n");
  ReportOptions ro;
  ro.html = "blocker/page.html";
  r = report(Format::Text, {"projects/chain"}, ro);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write the HTML report"), std::string::npos) << r.err;
}

std::string findChromium() {
  for (const char* c : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(c)) return c;
  return "";
}

// The cost of each project's schedule, counted from the source: chain is two kernels, one task each,
// moving 64 KiB + 64 KiB (scale_by_three) and 3 x 64 KiB (add_bias). A loop whose trip count is a
// runtime scalar leaves the figures unknown, with the loop named, never a guess.
TEST_F(ReportCommand, ReportsTheScheduleOfEachProject) {
  ws.write("projects/ragged/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/ragged/pypto_src/program.py", std::string(kDoubleRows) + R"(
@pl.jit
def ragged(x: pl.Tensor[[1024, 128], pl.FP32], y: pl.Out[pl.Tensor[[1024, 128], pl.FP32]], n: pl.Scalar[pl.INDEX]):
    for i in pl.range(n):
        r0 = i * 64
        y = double_rows(x, y, r0)
    return y
)");
  auto text = report(Format::Text, {"projects/chain", "projects/ragged"});
  EXPECT_NE(text.out.find("Schedule (one run, counted from the source; device time from the model"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("? ragged: trip count of the loop at projects/ragged/pypto_src/program.py:13"),
            std::string::npos)
      << text.out;

  auto r = report(Format::Json, {"projects/chain", "projects/ragged"});
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedule"].size(), 2u) << r.out;
  const nlohmann::json& chain = j["schedule"][0];
  EXPECT_EQ(chain["project"], "chain");
  EXPECT_EQ(chain["kernels"], 2);
  EXPECT_EQ(chain["tasks"], 2);
  EXPECT_EQ(chain["gm_bytes"], 327680);
  EXPECT_EQ(chain["critical_gm_bytes"], 327680);  // one task per site: one wave each
  EXPECT_TRUE(chain["unknown"].empty());
  const nlohmann::json& ragged = j["schedule"][1];
  EXPECT_EQ(ragged["project"], "ragged");
  EXPECT_EQ(ragged["kernels"], 1);
  EXPECT_TRUE(ragged["tasks"].is_null());
  EXPECT_TRUE(ragged["gm_bytes"].is_null());
  ASSERT_EQ(ragged["unknown"].size(), 1u);
  EXPECT_EQ(ragged["unknown"][0], "trip count of the loop at projects/ragged/pypto_src/program.py:13");
  // The device-time model: the chain's two kernels one after the other (the consumer waits for the
  // producer), each on one AIV core; the ragged run has no figure.
  const nlohmann::json& dev = chain["device"];
  ASSERT_TRUE(dev["us"].is_number()) << dev.dump();
  ASSERT_EQ(dev["kernels"].size(), 2u);
  EXPECT_EQ(dev["kernels"][0]["core"], "AIV");
  EXPECT_EQ(dev["aiv_cores"], 48);
  EXPECT_GE(dev["kernels"][1]["start_us"].get<double>(), dev["kernels"][0]["end_us"].get<double>());
  ASSERT_EQ(dev["critical_path"].size(), 2u);
  EXPECT_EQ(dev["critical_path"][1]["waits"], dev["kernels"][0]["kernel"]);
  EXPECT_NEAR(dev["us"].get<double>(), dev["kernels"][1]["end_us"].get<double>(), 0.02);
  EXPECT_TRUE(ragged["device"]["us"].is_null());
}

// A project nested in another that takes its kernels from the outer project's incore.py through
// sys.path (a stack of a ported layer): the imported module joins its model, so the report has its
// schedule (it printed none: only pypto-lib blocks were followed for projects).
TEST_F(ReportCommand, AProjectImportingKernelsFromOutsideItselfHasItsSchedule) {
  ws.write("projects/layer/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/layer/pypto_src/incore.py", kDoubleRows);
  ws.write("projects/layer/stack/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/layer/stack/pypto_src/orchestration.py", R"(import sys
from pathlib import Path

_LAYER = Path(__file__).resolve().parents[2] / "pypto_src"
if str(_LAYER) not in sys.path:
    sys.path.insert(0, str(_LAYER))

import pypto.language as pl  # noqa: E402
from incore import double_rows  # noqa: E402


@pl.jit
def stack(x: pl.Tensor[[1024, 128], pl.FP32], y: pl.Out[pl.Tensor[[1024, 128], pl.FP32]]):
    for i in pl.range(4):
        r0 = i * 64
        y = double_rows(x, y, r0)
    return y
)");
  auto r = report(Format::Json, {"projects/layer/stack"});
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedule"].size(), 1u) << r.out;
  EXPECT_EQ(j["schedule"][0]["kernels"], 1) << r.out;
  EXPECT_EQ(j["schedule"][0]["tasks"], 4) << r.out;
  EXPECT_TRUE(j["schedule"][0]["device"]["us"].is_number()) << r.out;
}

TEST_F(ReportCommand, AssumedRunTimeValuesCountTheLoopsTheSourceLeavesOpen) {
  ws.write("projects/ragged/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/ragged/pypto_src/program.py", std::string(kDoubleRows) + R"(
@pl.jit
def ragged(x: pl.Tensor[[1024, 128], pl.FP32], y: pl.Out[pl.Tensor[[1024, 128], pl.FP32]], n: pl.Scalar[pl.INDEX]):
    m = pl.min(n, 8)
    for i in pl.range(m):
        r0 = i * 64
        y = double_rows(x, y, r0)
    return y
)");
  ReportOptions ro;
  ro.assume = {"n=12"};
  auto r = report(Format::Json, {"projects/ragged"}, ro);
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedule"].size(), 1u) << r.out;
  EXPECT_EQ(j["schedule"][0]["tasks"], 8) << r.out;  // min(12, 8)
  EXPECT_TRUE(j["schedule"][0]["device"]["us"].is_number()) << r.out;
  bool said = false;
  for (const auto& s : j["run"]["stages"]) said |= s["name"] == "assume" && s["detail"].get<std::string>().find("n=12") != std::string::npos;
  EXPECT_TRUE(said) << r.out;
  ro.assume = {"n=twelve"};
  auto bad = report(Format::Json, {"projects/ragged"}, ro);
  EXPECT_EQ(bad.exit_code, kExitToolError);
  EXPECT_NE(bad.err.find("--assume takes NAME=INTEGER"), std::string::npos) << bad.err;
}

TEST_F(ReportCommand, ThePageLeadsWithTheDeviceTimeAndDrawsTheTimeline) {
  ReportOptions ro;
  ro.html = "out/page.html";
  report(Format::Text, {"projects/chain"}, ro);
  std::string text = test::readFile(ws / "out/page.html");
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(text.c_str(), text.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const auto* html = doc.RootElement();
  // The summary comes before the SRAM table.
  EXPECT_LT(text.find("id=\"summary\""), text.find("id=\"sram-table\""));
  EXPECT_NE(text.find(" µs</div>"), std::string::npos);
  const auto* schedule = findFirst(html, [](auto* e) { return hasAttr(e, "id", "schedule-table"); });
  ASSERT_NE(schedule, nullptr);
  EXPECT_EQ(countAll(schedule, [](auto* e) { return std::string(e->Name()) == "tr"; }), 1 + 1);
  // The timeline: one bar per task, the critical path outlined, lanes labelled by core.
  const auto* timeline = findFirst(html, [](auto* e) { return hasAttr(e, "id", "timeline-0"); });
  ASSERT_NE(timeline, nullptr);
  EXPECT_EQ(countAll(timeline, [](auto* e) { return std::string(e->Name()) == "rect" && e->Attribute("class") &&
                                                    std::string(e->Attribute("class")).rfind("task", 0) == 0; }), 2);
  EXPECT_EQ(countAll(timeline, [](auto* e) { return hasAttr(e, "class", "task critical"); }), 2);
  EXPECT_NE(findFirst(timeline, [](auto* e) { return hasAttr(e, "class", "lane"); }), nullptr);
  // Printing does not clip the panels that scroll on screen.
  EXPECT_NE(text.find("@media print{"), std::string::npos);
  EXPECT_NE(text.find("overflow:visible;max-height:none"), std::string::npos);
}

TEST_F(ReportCommand, RendersHeadlessInChromiumToAPng) {
  std::string chromium = findChromium();
  if (chromium.empty()) GTEST_SKIP() << "Debian's chromium is not installed (apt-get install chromium)";
  ReportOptions ro;
  ro.html = "page.html";
  report(Format::Text, {"projects/chain", "projects/big"}, ro);
  ASSERT_TRUE(fs::exists(ws / "page.html"));
  fs::path png = ws / "page.png";
  std::string cmd = "'" + chromium + "' --headless --no-sandbox --disable-gpu --disable-background-networking "
                    "--disable-component-update --no-first-run --user-data-dir='" + (ws / "profile").string() +
                    "' --window-size=1200,1400 --screenshot='" + png.string() + "' 'file://" +
                    (ws / "page.html").string() + "' >/dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << cmd;
  ASSERT_TRUE(fs::exists(png));
  std::string bytes = test::readFile(png);
  ASSERT_GT(bytes.size(), 1000u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  if (const char* keep = std::getenv("PORTCHECK_KEEP_REPORT_PNG")) fs::copy_file(png, keep, fs::copy_options::overwrite_existing);
}

// A program of n incore kernels in a chain, every third one also reading the one three back: what a
// model from pypto-lib dispatches (40 to 400 kernels).
std::string generatedModel(int n) {
  std::string src = "import pypto.language as pl\n\n";
  for (int i = 0; i < n; ++i) {
    std::string k = "decoder_layer_" + std::to_string(i) + "_attention_output_projection";
    bool two = i >= 3 && i % 3 == 0;
    src += "\n@pl.jit.incore\ndef " + k + "(\n    a: pl.Tensor[[64, 128], pl.FP32],\n";
    if (two) src += "    b: pl.Tensor[[64, 128], pl.FP32],\n";
    src += "    dst: pl.Out[pl.Tensor[[64, 128], pl.FP32]],\n):\n    t = pl.load(a, [0, 0], [64, 128])\n";
    if (two) src += "    u = pl.load(b, [0, 0], [64, 128])\n    t = pl.add(t, u)\n";
    src += "    r = pl.exp(t)\n    pl.store(r, [0, 0], dst)\n    return dst\n\n";
  }
  src += "\n@pl.jit\ndef model(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n";
  for (int i = 0; i < n; ++i) {
    std::string k = "decoder_layer_" + std::to_string(i) + "_attention_output_projection";
    std::string in = i == 0 ? "x" : "h" + std::to_string(i - 1);
    std::string out = i == n - 1 ? "y" : "h" + std::to_string(i);
    if (i != n - 1) src += "    " + out + " = pl.create_tensor([64, 128], dtype=pl.FP32)\n";
    std::string args = in + (i >= 3 && i % 3 == 0 ? ", h" + std::to_string(i - 3) : "") + ", " + out;
    src += "    " + out + " = " + k + "(" + args + ")\n";
  }
  src += "    return y\n";
  return src;
}

// Prints a 48-kernel model's report to PDF in chromium and reads the text back: every row of the SRAM
// table, every kernel of the device-time table and the timeline's title are on some page (a panel
// that scrolls on screen must not cut them on paper).
TEST_F(ReportCommand, PrintingThePageToPdfKeepsEveryRow) {
  std::string chromium = findChromium();
  if (chromium.empty()) GTEST_SKIP() << "Debian's chromium is not installed (apt-get install chromium)";
  if (std::system("command -v pdftotext >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "pdftotext is not installed (apt-get install poppler-utils)";
  ws.write("projects/model/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/model/pypto_src/program.py", generatedModel(48));
  ReportOptions ro;
  ro.html = "model.html";
  report(Format::Json, {"projects/model"}, ro);
  ASSERT_TRUE(fs::exists(ws / "model.html"));
  const fs::path pdf = ws / "model.pdf", txt = ws / "model.txt";
  std::string cmd = "'" + chromium + "' --headless --no-sandbox --disable-gpu --disable-background-networking "
                    "--disable-component-update --no-first-run --no-pdf-header-footer --user-data-dir='" +
                    (ws / "profile").string() + "' --print-to-pdf='" + pdf.string() + "' 'file://" +
                    (ws / "model.html").string() + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_EQ(std::system(("pdftotext -raw '" + pdf.string() + "' '" + txt.string() + "'").c_str()), 0);
  const std::string text = test::readFile(txt);
  int missing = 0;
  for (int i = 0; i < 48; ++i) {
    const std::string k = "decoder_layer_" + std::to_string(i) + "_attention_output_projection";
    // Twice at least: its SRAM row and its device-time row (plus its card and graph box).
    std::size_t first = text.find(k + " ");
    if (first == std::string::npos) first = text.find(k + "\n");
    const bool twice = first != std::string::npos && text.find(k, first + k.size()) != std::string::npos;
    if (!twice) ++missing;
  }
  EXPECT_EQ(missing, 0) << text.substr(0, 3000);
  EXPECT_NE(text.find("timeline"), std::string::npos);
}

// Renders a 300-kernel model's report in chromium with a check injected into a copy of the page: no
// two texts of the page overlap and nothing reaches beyond the page's width (the task graph scrolls in
// its own panel). PORTCHECK_KEEP_REPORT_PNG=<file> keeps the screenshot to look at.
TEST_F(ReportCommand, AModelOfThreeHundredKernelsStaysLegibleInChromium) {
  std::string chromium = findChromium();
  if (chromium.empty()) GTEST_SKIP() << "Debian's chromium is not installed (apt-get install chromium)";
  ws.write("projects/model/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/model/pypto_src/program.py", generatedModel(300));
  ReportOptions ro;
  ro.html = "model.html";
  auto r = report(Format::Json, {"projects/model"}, ro);
  ASSERT_TRUE(fs::exists(ws / "model.html")) << r.err;
  std::string page = test::readFile(ws / "model.html");
  EXPECT_EQ(page.find("<script"), std::string::npos);
  // The graph has all 300 tasks, each linking to its kernel's SRAM card.
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(page.c_str(), page.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const auto* graphs = findFirst(doc.RootElement(), [](auto* e) { return hasAttr(e, "id", "task-graphs"); });
  EXPECT_EQ(countAll(graphs, [](auto* e) { return hasAttr(e, "class", "task"); }), 300);
  EXPECT_EQ(countAll(graphs, [](auto* e) { return std::string(e->Name()) == "a"; }), 300);
  EXPECT_NE(page.find("id=\"kernel-"), std::string::npos);

  const char* check = R"(<script>
window.addEventListener('load', () => {
  // What is visible of each text: clipped to every scrolling panel around it.
  const clip = (e, r) => {
    let v = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    for (let p = e.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowY === 'visible') continue;
      const c = p.getBoundingClientRect();
      v = {left: Math.max(v.left, c.left), right: Math.min(v.right, c.right),
           top: Math.max(v.top, c.top), bottom: Math.min(v.bottom, c.bottom)};
    }
    return v;
  };
  const boxes = [...document.querySelectorAll('svg text, h1, h2, h3, th, td, li, p.legend, .meta')]
    .map(e => ({e, r: clip(e, e.getBoundingClientRect())})).filter(b => b.r.right > b.r.left && b.r.bottom > b.r.top);
  let overlaps = [];
  for (let i = 0; i < boxes.length; ++i)
    for (let j = i + 1; j < boxes.length; ++j) {
      const a = boxes[i], b = boxes[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      if (a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5 && a.r.top < b.r.bottom - 0.5 && b.r.top < a.r.bottom - 0.5)
        overlaps.push(a.e.textContent.slice(0, 40) + ' / ' + b.e.textContent.slice(0, 40));
    }
  const wide = document.documentElement.scrollWidth > window.innerWidth;
  const panel = document.querySelector('.graph-panel');  // the task graph scrolls in its own panel
  document.body.setAttribute('data-layout-check', JSON.stringify({
    texts: boxes.length, overlaps: overlaps.length, first: overlaps.slice(0, 5), wide,
    pageWidth: document.documentElement.scrollWidth, window: window.innerWidth,
    panelScrolls: panel ? panel.scrollHeight > panel.clientHeight : false}));
});
</script></body>)";
  std::string checked = page;
  checked.replace(checked.rfind("</body>"), 7, check);
  ws.write("checked.html", checked);
  std::string base = "'" + chromium + "' --headless --no-sandbox --disable-gpu --disable-background-networking "
                     "--disable-component-update --no-first-run --hide-scrollbars --user-data-dir='" +
                     (ws / "profile").string() + "' --window-size=1200,1400 ";
  fs::path dom = ws / "dom.txt";
  std::string cmd = base + "--virtual-time-budget=10000 --dump-dom 'file://" + (ws / "checked.html").string() + "' > '" +
                    dom.string() + "' 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string out = test::readFile(dom);
  std::size_t at = out.find("data-layout-check=\"");
  ASSERT_NE(at, std::string::npos) << out.substr(0, 400);
  std::string json = out.substr(at + 19, out.find('"', at + 19) - at - 19);
  for (auto [from, to] : {std::pair<std::string, std::string>{"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}})
    for (std::size_t p = json.find(from); p != std::string::npos; p = json.find(from, p)) json.replace(p, from.size(), to);
  auto result = nlohmann::json::parse(json);
  EXPECT_GT(result["texts"].get<int>(), 300) << json;  // what the panels show of the table, the bars and the graph
  EXPECT_EQ(result["overlaps"].get<int>(), 0) << json;
  EXPECT_FALSE(result["wide"].get<bool>()) << json;
  EXPECT_TRUE(result["panelScrolls"].get<bool>()) << json;  // the graph scrolls inside its own panel
  fs::path png = ws / "model.png";
  cmd = base + "--screenshot='" + png.string() + "' 'file://" + (ws / "model.html").string() + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_TRUE(fs::exists(png));
  if (const char* keep = std::getenv("PORTCHECK_KEEP_REPORT_PNG")) fs::copy_file(png, keep, fs::copy_options::overwrite_existing);
}

}  // namespace
}  // namespace portcheck
