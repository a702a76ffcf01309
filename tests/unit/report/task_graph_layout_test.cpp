// The task graph's layout: layered, wrapped to the page width, boxes apart, texts cut to fit.
#include "report/task_graph_layout.h"

#include <gtest/gtest.h>

namespace portcheck {
namespace {

// A model-sized graph: n kernels in a chain, every third one also reading the one three back, and
// every tenth task independent of the rest (a layer of its own width).
advice::TaskGraph modelGraph(int n) {
  advice::TaskGraph g;
  g.caller = "decode_layer";
  for (int i = 0; i < n; ++i) {
    advice::Task t;
    t.kernel = "decoder_layer_" + std::to_string(i) + "_attention_output_projection";
    t.file = "model.py";
    t.line = 10 + i;
    g.tasks.push_back(t);
    if (i > 0 && i % 10 != 0) g.edges.push_back({i - 1, i, "h" + std::to_string(i - 1), 65536});
    if (i >= 3 && i % 3 == 0) g.edges.push_back({i - 3, i, "r" + std::to_string(i - 3), 4096});
  }
  return g;
}

bool overlap(const TaskBox& a, const TaskBox& b, const TaskGraphLayout& l) {
  return a.x < b.x + l.box_w && b.x < a.x + l.box_w && a.y < b.y + l.box_h && b.y < a.y + l.box_h;
}

TEST(TaskGraphLayout, ThreeHundredKernelsFitThePageWidthWithoutOverlappingBoxes) {
  advice::TaskGraph g = modelGraph(300);
  TaskGraphLayout l = layoutTaskGraph(g, 1100);
  ASSERT_EQ(l.boxes.size(), 300u);
  EXPECT_LE(l.width, 1100);
  for (std::size_t i = 0; i < l.boxes.size(); ++i) {
    EXPECT_GE(l.boxes[i].x, 0);
    EXPECT_LE(l.boxes[i].x + l.box_w, l.width);
    EXPECT_LE(l.boxes[i].y + l.box_h, l.height);
    for (std::size_t j = i + 1; j < l.boxes.size(); ++j) EXPECT_FALSE(overlap(l.boxes[i], l.boxes[j], l)) << i << " " << j;
  }
  // Every consumer is drawn below its producer, a layer further down.
  for (const advice::Edge& e : g.edges) {
    const TaskBox& from = l.boxes[static_cast<std::size_t>(e.from)];
    const TaskBox& to = l.boxes[static_cast<std::size_t>(e.to)];
    EXPECT_GT(to.layer, from.layer);
    EXPECT_GE(to.y, from.y + l.box_h);
  }
}

TEST(TaskGraphLayout, IndependentTasksShareALayerAndWrapIntoRows) {
  advice::TaskGraph g;
  for (int i = 0; i < 12; ++i) g.tasks.push_back({"k" + std::to_string(i), {}, "p.py", i + 1});
  TaskGraphLayout l = layoutTaskGraph(g, 700);  // three boxes a row
  for (const TaskBox& b : l.boxes) EXPECT_EQ(b.layer, 0);
  EXPECT_EQ(l.boxes[0].y, l.boxes[2].y);
  EXPECT_GT(l.boxes[3].y, l.boxes[2].y);  // the fourth wraps
  EXPECT_EQ(l.boxes[3].x, l.boxes[0].x);
  EXPECT_LE(l.width, 700);
}

TEST(TaskGraphLayout, TextIsCutToTheCharactersThatFit) {
  EXPECT_EQ(fitText("short", 10), "short");
  EXPECT_EQ(fitText("exactly_10", 10), "exactly_10");
  EXPECT_EQ(fitText("longer_than_ten", 10), "longer_th…");
  EXPECT_EQ(fitText("\u2190 \u00e9\u00e9\u00e9\u00e9", 4), "\u2190 \u00e9…");  // characters, not bytes
  EXPECT_EQ(fitText("abc", 0), "");
}

}  // namespace
}  // namespace portcheck
