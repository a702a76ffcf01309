#pragma once
// Mutants of a port for the contract's mutation check (GOLD024, docs/contract.md §5): copies of the port
// with one output store dropped or one operation changed. A contract that a mutant still passes is too
// weak to mean anything. Mutations are made on single source lines, so each mutant still parses.
#include <filesystem>
#include <string>
#include <vector>

namespace portcheck {

struct Mutant {
  std::string file;         // relative to pypto_src, '/'-separated
  int line = 0;             // 1-based
  std::string kind;         // drop-store, swap-op
  std::string before;       // the line as written, trimmed
  std::string after;        // the mutated line, trimmed
  std::string text;         // the whole mutated file
  std::string describe() const;  // "incore.py:42 drop-store: `pl.store(t, [r, 0], out)` -> `pass`"
};

// Every mutant of the .py files under `pypto_src` but golden.py, in file and line order.
std::vector<Mutant> portMutants(const std::filesystem::path& pypto_src);

// Every mutant of one program file (a pypto-lib block: its kernel's lines; its golden section is torch, which
// no mutation matches), Mutant::file naming the file.
std::vector<Mutant> programFileMutants(const std::filesystem::path& file);

// At most `limit` of them, spread evenly over the list (the first and the last included), deterministic.
std::vector<Mutant> pickMutants(const std::vector<Mutant>& all, std::size_t limit);

// Copies the project folder `project_dir` to `dest` (replaced when present) with the mutant's file
// rewritten; false with `error` when it cannot.
bool writeMutantProject(const std::filesystem::path& project_dir, const Mutant& mutant,
                        const std::filesystem::path& dest, std::string& error);

// Writes the mutated text of the program file `file`'s mutant to the file `dest`, beside copies of the files
// next to `file` that are not Python (what the block reads at run time); false with `error` when it cannot.
bool writeMutantFile(const std::filesystem::path& file, const Mutant& mutant, const std::filesystem::path& dest,
                     std::string& error);

}  // namespace portcheck
