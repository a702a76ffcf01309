// AUTO007: one destination tile bound by two views, and a view rebound every iteration to a new source.
#include <pto/pto-inst.hpp>
using namespace pto;

using Block = Tile<TileType::Vec, float, 16, 64>;
using Half = Tile<TileType::Vec, float, 8, 64>;
using Flat = Tile<TileType::Vec, float, 1, 1024>;

AICORE void halves(Block& x, Half& out) {
  Half top;
  TSUBVIEW(top, x, 0, 0);
  TSUBVIEW(top, x, 8, 0);  // expect: AUTO007
  TADD(out, top, top);
}

AICORE void per_step(Flat& out, int steps) {
  Block view;
  for (int i = 0; i < steps; ++i) {
    Flat step;
    TEXPANDS(step, 1.0f);
    TRESHAPE(view, step);  // expect: AUTO007
  }
}
