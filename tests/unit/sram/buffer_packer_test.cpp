// The buffer packer: first-fit-decreasing with touching lifetimes sharing, and MemoryReuse's capacity
// gate on pipeline stages (pypto memory_reuse_pass.cpp: F_g = min(stages, capacity / largest tile),
// shed while the space overflows, legacy guard when no depth fits).
#include <gtest/gtest.h>

#include "sram/buffer_packer.h"

namespace portcheck {
namespace {

sram::Interval iv(std::string name, std::int64_t bytes, int def, int last) {
  sram::Interval i;
  i.name = std::move(name);
  i.bytes = bytes;
  i.def = def;
  i.last = last;
  return i;
}

// A tile of pipeline group `group`'s clone `stage`.
sram::Interval staged(std::int64_t bytes, int group, int stage, bool load = false) {
  sram::Interval i = iv("t", bytes, 10, 20);
  i.pipe_group = group;
  i.pipe_stage = stage;
  i.is_load = load;
  return i;
}

TEST(BufferPacker, LargestFirstAndTouchingLifetimesShare) {
  std::vector<sram::Interval> ivs = {iv("a", 100, 0, 10), iv("b", 300, 5, 20), iv("c", 200, 10, 30), iv("d", 50, 20, 40)};
  sram::Packing p = sram::pack(ivs);
  // b (300) first; c overlaps b -> new buffer; a overlaps b but not c? a [0,10] c [10,30] touch -> shares c;
  // d [20,40] touches b -> shares b.
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0], 320);  // 300 aligned to 32
  EXPECT_EQ(p.buffers[1], 224);  // 200 aligned to 32
  EXPECT_EQ(p.hwm, 544);
  EXPECT_EQ(ivs[0].buffer, 1);
  EXPECT_EQ(ivs[3].buffer, 0);
  EXPECT_EQ(sram::pack(ivs, 1024).hwm, 1024 + 544);
  EXPECT_EQ(sram::pack(ivs, 1000).hwm, 1024 + 544);  // the reserved region is aligned too
}

// Two clones' compute tiles run one after the other: they stay apart while the space holds both...
TEST(BufferPacker, PipelineStagesStayApartWhenTheSpaceHoldsThem) {
  std::vector<sram::Interval> ivs = {staged(16384, 1, 0), staged(16384, 1, 1)};
  EXPECT_EQ(sram::pack(ivs, 0, {65536, true}).hwm, 32768);
  EXPECT_NE(ivs[0].buffer, ivs[1].buffer);
}

// ...and share once they would overflow it (the group sheds to depth 1).
TEST(BufferPacker, PipelineStagesShareWhenKeepingThemApartOverflows) {
  std::vector<sram::Interval> ivs = {staged(32768, 1, 0), staged(32768, 1, 1), iv("other", 32768, 10, 20)};
  EXPECT_EQ(sram::pack(ivs, 0, {65536, true}).hwm, 65536);
  EXPECT_EQ(ivs[0].buffer, ivs[1].buffer);
  // With room for both, the same tiles take three buffers.
  EXPECT_EQ(sram::pack(ivs, 0, {131072, true}).hwm, 98304);
}

// The group with the largest tile sheds first; the other keeps its stages apart.
TEST(BufferPacker, TheGroupWithTheLargestTileShedsFirst) {
  std::vector<sram::Interval> ivs = {staged(32768, 1, 0), staged(32768, 1, 1), staged(8192, 2, 0),
                                     staged(8192, 2, 1)};
  for (auto& t : ivs) t.last = t.pipe_group == 1 ? 20 : 30;  // co-live across the groups
  ivs[2].def = ivs[3].def = 15;
  EXPECT_EQ(sram::pack(ivs, 0, {65536, true}).hwm, 32768 + 2 * 8192);
  EXPECT_EQ(ivs[0].buffer, ivs[1].buffer);
  EXPECT_NE(ivs[2].buffer, ivs[3].buffer);
}

// A tile of a pipeline nested in a pipelined body carries a clone of each loop: tiles in the same inner
// stage but different outer clones stay apart (the outer group differs), as MemoryReuse compares every
// group two memberships share; tiles in the same clone of both loops may share by lifetime.
TEST(BufferPacker, NestedPipelineClonesStayApartInEitherLoop) {
  std::vector<sram::Interval> ivs;
  for (int outer = 0; outer < 2; ++outer)
    for (int inner = 0; inner < 2; ++inner) {
      sram::Interval t = staged(4096, 1, inner);
      t.outer_pipes.emplace_back(2, outer);
      ivs.push_back(t);
    }
  EXPECT_EQ(sram::pack(ivs, 0, {65536, true}).hwm, 4 * 4096);
  for (std::size_t a = 0; a < ivs.size(); ++a)
    for (std::size_t b = a + 1; b < ivs.size(); ++b) EXPECT_NE(ivs[a].buffer, ivs[b].buffer) << a << " " << b;
  // The same tile of one clone of both loops, twice: they share by lifetime (touching).
  std::vector<sram::Interval> same = {ivs[0], ivs[0]};
  same[1].def = same[0].last;
  same[1].last = same[0].last + 10;
  EXPECT_EQ(sram::pack(same, 0, {65536, true}).hwm, 4096);
  // The outer group sheds when the space holds only one outer clone's two buffers.
  std::vector<sram::Interval> tight = ivs;
  EXPECT_EQ(sram::pack(tight, 0, {8192, true}).hwm, 8192);
}

// Loads of every clone are hoisted together: a later clone's load is live with the earlier clone.
TEST(BufferPacker, ALaterStagesLoadIsLiveWithTheEarlierStage) {
  std::vector<sram::Interval> ivs = {staged(4096, 1, 0, true), staged(4096, 1, 1, true)};
  EXPECT_EQ(sram::pack(ivs, 0, {4096, false}).hwm, 8192);  // over the space, but they cannot share
  std::vector<sram::Interval> compute = {staged(4096, 1, 0), staged(4096, 1, 1)};
  EXPECT_EQ(sram::pack(compute, 0, {4096, false}).hwm, 4096);
}

// Without a known capacity the legacy guard applies: only load tiles are kept apart, never in L0.
TEST(BufferPacker, UnknownCapacityKeepsOnlyLoadsApartOutsideL0) {
  std::vector<sram::Interval> loads = {staged(1024, 1, 0, true), staged(1024, 1, 1, true)};
  loads[0].last = 11;
  loads[1].def = 11;  // touching: they could share by lifetime
  EXPECT_EQ(sram::pack(loads, 0, {0, false}).hwm, 2048);
  EXPECT_EQ(sram::pack(loads, 0, {0, true}).hwm, 1024);
  std::vector<sram::Interval> compute = {staged(1024, 1, 0), staged(1024, 1, 1)};
  EXPECT_EQ(sram::pack(compute, 0, {0, false}).hwm, 1024);
}

}  // namespace
}  // namespace portcheck
