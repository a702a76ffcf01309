#pragma once
// Where each task of an orchestration task graph goes on the page: layered top to bottom (a task one
// layer below the lowest producer it reads from, so the tasks of a layer are independent), each layer
// wrapped into rows that fit the page width. Boxes never overlap and nothing lies right of `width`;
// edges carry no text on the canvas (a consumer's box lists what it reads), so no label can overlap.
#include <string>
#include <vector>

#include "advice/task_graph.h"

namespace portcheck {

struct TaskBox {
  int x = 0, y = 0;   // top-left corner
  int layer = 0;
};

struct TaskGraphLayout {
  int width = 0, height = 0;
  int box_w = 0, box_h = 0;
  std::vector<TaskBox> boxes;             // one per task, in dispatch order
  int inputs_shown = 0;                   // lines of inputs a box lists before "+k more"
  int name_chars = 0, detail_chars = 0;   // characters that fit a box's name line / detail lines
};

// `max_width`: the widest the drawing may be (the page's content width).
TaskGraphLayout layoutTaskGraph(const advice::TaskGraph& g, int max_width = 1100);

// `text` cut to `chars` characters (UTF-8 aware), ending in "…" when cut.
std::string fitText(const std::string& text, int chars);

}  // namespace portcheck
