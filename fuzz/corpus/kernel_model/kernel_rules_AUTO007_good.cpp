// AUTO007: each view has its own destination declared right before it; a fixed source rebound in a loop is fine.
#include <pto/pto-inst.hpp>
using namespace pto;

using Block = Tile<TileType::Vec, float, 16, 64>;
using Half = Tile<TileType::Vec, float, 8, 64>;
using Flat = Tile<TileType::Vec, float, 1, 1024>;

AICORE void halves(Block& x, Half& out) {
  Half top;
  TSUBVIEW(top, x, 0, 0);
  Half bottom;
  TSUBVIEW(bottom, x, 8, 0);
  TADD(out, top, bottom);
}

AICORE void per_step(Flat& flat, int steps) {
  Block view;
  for (int i = 0; i < steps; ++i) {
    TRESHAPE(view, flat);
    TADDS(view, view, 1.0f);
  }
}
