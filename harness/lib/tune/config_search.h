#pragma once
// Which configurations `port-check tune` screens: the whole grid of the knobs' candidates when it has
// at most `grid_limit` configurations, else a beam search one knob at a time (tinygrad's BEAM over
// one axis action at a time): from the port as it is, each knob in turn is set to each of its
// candidates in every configuration of the beam, and the `width` best survivors by the cost model
// (tune/cost_model.h) are kept; two passes over the knobs, or fewer when a pass changes nothing.
// The port's current configuration is always screened: it is the baseline the pick is measured against.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tune/config_space.h"
#include "tune/estimate_screen.h"

namespace portcheck::tune {

struct SearchResult {
  std::vector<Screened> configs;  // every configuration screened, in the order screened
  std::string strategy;           // "grid" or "beam search, width N"
  double grid_size = 0;           // configurations in the whole grid
};

using ScreenFn = std::function<Screened(const Config&)>;

SearchResult searchConfigs(const std::vector<Knob>& knobs, const ScreenFn& screen, std::size_t grid_limit,
                           std::size_t width);

// The grid's size: the product of the knobs' candidate counts.
double gridSize(const std::vector<Knob>& knobs);

// The port as it is: every knob at its current value.
Config currentConfig(const std::vector<Knob>& knobs);

}  // namespace portcheck::tune
