#include "app/shard_option.h"

#include <algorithm>
#include <charconv>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace portcheck {

namespace {

constexpr int kMaxShards = 4096;

std::optional<int> shardNumber(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The unit's key: its workspace-relative path without a trailing '/'.
std::string shardKeyOf(const Workspace& workspace, const std::filesystem::path& p) {
  std::string rel = workspace.relative(p);
  while (rel.size() > 1 && rel.back() == '/') rel.pop_back();
  return rel;
}

}  // namespace

std::optional<Shard> parseShard(std::string_view text, std::string& error) {
  const std::size_t slash = text.find('/');
  const std::string why = "--shard takes I/N, shard I of N counted from 1 (1 <= I <= N <= " +
                          std::to_string(kMaxShards) + "), got '" + std::string(text) + "'";
  if (slash == std::string_view::npos) {
    error = why;
    return std::nullopt;
  }
  std::optional<int> index = shardNumber(text.substr(0, slash));
  std::optional<int> count = shardNumber(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *count > kMaxShards || *index < 1 || *index > *count) {
    error = why;
    if (index && count && *index == 0 && *count >= 1) error += ": shards are counted from 1 (1/" + std::to_string(*count) + " is the first)";
    return std::nullopt;
  }
  return Shard{*index, *count};
}

int shardOfUnit(std::string_view relative_path, int count) {
  const XXH64_hash_t h = XXH3_64bits(relative_path.data(), relative_path.size());
  return 1 + static_cast<int>(h % static_cast<std::uint64_t>(std::max(1, count)));
}

std::size_t keepShard(Targets& targets, const Workspace& workspace, Shard shard) {
  const std::size_t all = targets.projects.size() + targets.files.size();
  std::erase_if(targets.projects, [&](const Project& p) {
    return shardOfUnit(shardKeyOf(workspace, p.dir), shard.count) != shard.index;
  });
  std::erase_if(targets.files, [&](const std::filesystem::path& f) {
    return shardOfUnit(shardKeyOf(workspace, f), shard.count) != shard.index;
  });
  return all;
}

std::string shardAutomationId(std::string_view command, Shard shard) {
  return "port-check/" + std::string(command) + "/shard-" + std::to_string(shard.index) + "-of-" +
         std::to_string(shard.count) + "/";
}

std::optional<int> applyShardOption(const CommonOptions& options, std::string_view command, const Session& session,
                                    Targets& targets, Report& report, const Io& io) {
  if (!options.shard) return std::nullopt;
  std::string error;
  const std::optional<Shard> shard = parseShard(*options.shard, error);
  if (!shard) {
    io.err << "port-check: error: " << error << "\n";
    return kExitToolError;
  }
  const std::size_t all = keepShard(targets, session.workspace, *shard);
  report.run.automation_id = shardAutomationId(command, *shard);
  if (!targets.projects.empty() || !targets.files.empty() || !targets.problems.empty()) return std::nullopt;
  // Not an empty target: the other shards have the units. The report is still written (an empty SARIF
  // log, so the matrix job's upload step has its file) and the exit status is 0.
  io.err << "port-check: shard " << shard->index << "/" << shard->count << " has none of the " << all << " unit"
         << (all == 1 ? "" : "s") << " named (the other shards check them): nothing to " << command << " here\n";
  report.run.stages.push_back({std::string(command), StageState::Skipped, "no unit in shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count)});
  return emitAndExit(report, session, options, io);
}

}  // namespace portcheck
