#pragma once
// --shard I/N of check, lint and verify (docs/cli.md, docs/scale-out.md): a CI matrix of N jobs splits the
// units of one run (each project, each loose file) without talking to each other. A unit belongs to
// shard 1 + (XXH3-64 of its workspace-relative path) mod N: the same on every machine, whatever the
// order of the arguments or the other units named, so the N shards together check every unit once.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "app/options.h"
#include "workspace/workspace.h"

namespace portcheck {

struct Shard {
  int index = 1;  // 1-based: 1..count
  int count = 1;
};

// "I/N" with 1 <= I <= N <= 4096; nullopt with `error` saying what is wrong.
std::optional<Shard> parseShard(std::string_view text, std::string& error);

// The shard (1..count) of a unit, by its workspace-relative '/'-separated path.
int shardOfUnit(std::string_view relative_path, int count);

// Keeps the projects and loose files of `shard`; returns how many units the run named in all.
std::size_t keepShard(Targets& targets, const Workspace& workspace, Shard shard);

// The SARIF runAutomationDetails.id of one shard of a command: "port-check/lint/shard-2-of-4/". The
// trailing '/' makes the whole id the category GitHub code scanning keeps one set of alerts for.
std::string shardAutomationId(std::string_view command, Shard shard);

// What check, lint and verify do with --shard after collecting their targets: nullopt to go on with the
// shard's units (the report carries the automation id), or the exit status when there is nothing to do
// (a bad value: exit 2 with why; a shard with no unit: said on stderr, an empty report emitted, exit 0).
std::optional<int> applyShardOption(const CommonOptions& options, std::string_view command, const Session& session,
                                    Targets& targets, Report& report, const Io& io);

}  // namespace portcheck
