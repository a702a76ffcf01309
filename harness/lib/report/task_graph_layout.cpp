#include "report/task_graph_layout.h"

#include <algorithm>

namespace portcheck {

namespace {

constexpr int kBoxW = 200, kGapX = 24, kGapY = 40, kMargin = 12;
constexpr int kNameLine = 20, kFileLine = 14, kInputLine = 13, kInputsShown = 2;

}  // namespace

TaskGraphLayout layoutTaskGraph(const advice::TaskGraph& g, int max_width) {
  TaskGraphLayout out;
  const int n = static_cast<int>(g.tasks.size());
  out.box_w = kBoxW;
  out.inputs_shown = kInputsShown;
  out.box_h = 6 + kNameLine + kFileLine + kInputLine * (kInputsShown + 1);
  // Every line is monospace: 12 px is 7.2 px a character (0.6 em), the 10 px detail lines 6 px.
  out.name_chars = (kBoxW - 16) * 10 / 72;
  out.detail_chars = (kBoxW - 16) / 6;
  out.boxes.assign(static_cast<std::size_t>(n), {});
  // Layers: a task sits one below the deepest earlier producer it reads from.
  std::vector<advice::Edge> edges = g.edges;
  std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) { return a.to < b.to; });
  for (const advice::Edge& e : edges) {
    if (e.from < 0 || e.to < 0 || e.from >= n || e.to >= n || e.from >= e.to) continue;
    auto& to = out.boxes[static_cast<std::size_t>(e.to)];
    to.layer = std::max(to.layer, out.boxes[static_cast<std::size_t>(e.from)].layer + 1);
  }
  const int columns = std::max(1, (max_width - 2 * kMargin + kGapX) / (kBoxW + kGapX));
  int layers = 0;
  for (const TaskBox& b : out.boxes) layers = std::max(layers, b.layer + 1);
  int y = kMargin, widest = 0;
  for (int layer = 0; layer < layers; ++layer) {
    int column = 0;
    bool any = false;
    for (TaskBox& b : out.boxes) {
      if (b.layer != layer) continue;
      if (column == columns) {  // wrap: the layer continues on the next row
        column = 0;
        y += out.box_h + kGapY;
      }
      b.x = kMargin + column * (kBoxW + kGapX);
      b.y = y;
      widest = std::max(widest, b.x + kBoxW);
      ++column;
      any = true;
    }
    if (any) y += out.box_h + kGapY;
  }
  out.width = std::max(widest + kMargin, 2 * kMargin);
  out.height = std::max(y - kGapY + kMargin, 2 * kMargin);
  return out;
}

std::string fitText(const std::string& text, int chars) {
  if (chars <= 0) return {};
  int count = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
    if (count == chars - 1) cut = i;
    if (++count > chars) return text.substr(0, cut) + "…";
  }
  return text;
}

}  // namespace portcheck
