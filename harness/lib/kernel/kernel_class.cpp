#include "kernel/kernel_class.h"

#include <algorithm>

#include "kernel/code_words.h"
#include "kernel/instruction_set.h"
#include "kernel/kernel_source.h"

namespace portcheck::kernel {

bool inPortSources(std::string_view path) {
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) return false;  // the last segment is the file name
    if (path.substr(start, end - start) == "pypto_src") return true;
    start = end + 1;
  }
  return false;
}

bool bindsTile(const KernelModel& m, const Call& c) {
  if (!c.instruction || c.name != "TASSIGN" || c.args.empty()) return false;
  const Symbol* s = m.symbolOf(c.args[0]);
  if (s && (s->kind == SymbolKind::GlobalTensor || s->kind == SymbolKind::GmPointer)) return false;
  if (s && s->kind == SymbolKind::Tile) return true;
  // An operand of unknown type (a template parameter): TASSIGN(x, gmPointer) binds a GlobalTensor, an integer
  // address (a literal, an offset variable, `(uint64_t)x.data() + n`) binds a tile.
  if (c.args.size() < 2) return true;
  const Operand& addr = c.args[1];
  if (const Symbol* a = m.symbolOf(addr); a && a->kind == SymbolKind::GmPointer) return false;
  return addr.text.find("__gm__") == std::string::npos;
}

bool ordersPipesByHand(const KernelModel& m, const Call& c) {
  if (!c.object.empty()) return false;
  const Function* f = m.functionOf(c.function);
  if (f && f->tile_function) return false;
  return c.name == "set_flag" || c.name == "wait_flag" || c.name == "pipe_barrier" || c.name == "PtoSetWaitFlag" ||
         (c.instruction && c.name == "TSYNC");
}

namespace {

std::string lineOf(const Position& p) { return "line " + std::to_string(p.line); }

// Is the file PTO-ISA code at all?
bool usesPtoIsa(const KernelModel& m) {
  if (m.includes_pto || m.names_pto) return true;
  if (std::any_of(m.symbols.begin(), m.symbols.end(), [](const Symbol& s) { return s.kind == SymbolKind::Tile; }))
    return true;
  return std::any_of(m.calls.begin(), m.calls.end(), [](const Call& c) { return c.instruction != nullptr; });
}

// A CCE qualifier anywhere in the text: device code, whatever its function heads say.
bool hasDeviceWord(std::string_view text) {
  for (std::string_view q : {"__aicore__", "__global__", "__gm__", "__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__"})
    if (containsWord(text, q)) return true;
  return false;
}

// What a file without PTO-ISA is, for the message: AscendC, CCE kernel code (device qualifiers), or plain C++.
// `device`: CCE qualifiers, or a function head saying AICORE or __tf__; `ascendc`: the file includes
// kernel_operator.h or names the AscendC namespace.
KernelClass notPtoIsa(bool device, bool ascendc) {
  KernelClass k;
  k.kind = KernelKind::NotPtoIsa;
  k.device_code = device || ascendc;
  if (ascendc) k.what = "AscendC kernel code";
  else if (device) k.what = "CCE kernel code";
  else k.what = "plain C++ (host or infrastructure code)";
  k.why = "no pto/ include, pto:: names, PTO tiles or PTO instructions";
  return k;
}

// Could the word at `w` make the model see PTO-ISA: the pto namespace, a Tile type (Tile<...>, ConvTile<...>,
// TileLeft..., TileRight..., TileAcc...; their aliases name them too) or an instruction (upper case, PTO_INST
// names). `Tile` not followed by `<` is some other namespace or class (`Tile::CopyGmToL1`, `namespace Tile {`).
bool mayNamePtoIsa(std::string_view text, const CodeWord& w) {
  std::string_view word = w.text;
  if (word == "Tile" || word == "ConvTile") {
    std::size_t next = text.find_first_not_of(" \t\r\n", w.at + word.size());
    return next != std::string_view::npos && (text[next] == '<' || text[next] == '/');
  }
  if (word == "pto" || word.starts_with("TileLeft") || word.starts_with("TileRight") || word.starts_with("TileAcc"))
    return true;
  if (word.size() < 3 || word.size() > 24) return false;
  for (char c : word)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return findInstruction(word) != nullptr;
}

// Does the code name AscendC as a namespace: kernel_operator.h included, `AscendC::X`, `namespace AscendC`,
// `using namespace AscendC` (outside comments, literals and macro bodies).
bool namesAscendC(std::string_view text, const CodeWords& code) {
  for (std::string_view path : code.includes)
    if (path == "kernel_operator.h") return true;
  const std::string_view* before = nullptr;  // the previous word outside #define bodies
  for (const CodeWord& w : code.words) {
    if (w.in_define) continue;
    if (w.text == "AscendC") {
      std::size_t next = text.find_first_not_of(" \t\r\n", w.at + w.text.size());
      if ((before && *before == "namespace") || (next != std::string_view::npos && text.substr(next, 2) == "::"))
        return true;
    }
    before = &w.text;
  }
  return false;
}

}  // namespace

std::optional<KernelClass> classifyWithoutParse(const SourceFile& file) {
  if (inPortSources(file.path)) return std::nullopt;
  const CodeWords code = codeWords(file.text);
  if (!code.certain) return std::nullopt;
  for (std::string_view path : code.includes)
    if (path.find("pto") != std::string_view::npos) return std::nullopt;
  const bool device_word = hasDeviceWord(file.text);
  for (const CodeWord& w : code.words) {
    if (mayNamePtoIsa(file.text, w)) return std::nullopt;
    // AICORE and __tf__ make a device function only in a function's head, which the parse finds.
    if (!device_word && (w.text == "AICORE" || w.text == "__tf__")) return std::nullopt;
  }
  return notPtoIsa(device_word, namesAscendC(file.text, code));
}

KernelClass classifyKernel(const SourceFile& file, const KernelModel& m, bool names_auto_rules,
                           const std::optional<BuildMode>& build) {
  KernelClass k;
  k.what = "AUTO-mode PTO-ISA kernel";
  if (inPortSources(file.path)) {
    k.why = "a port's kernel (pypto_src/): ports are written for AUTO mode";
    return k;
  }
  if (!usesPtoIsa(m)) {
    bool device_function = std::any_of(m.functions.begin(), m.functions.end(), [](const Function& fn) {
      return fn.aicore || fn.entry || fn.tile_function;
    });
    return notPtoIsa(device_function || hasDeviceWord(file.text), namesAscendC(file.text, codeWords(file.text)));
  }
  if (m.mentions_pto_auto) {
    k.why = "tests __PTO_AUTO__";
    return k;
  }
  if (build && build->auto_mode) {
    k.why = "its build compiles it in AUTO mode: " + build->evidence;
    k.build = build;
    return k;
  }
  if (names_auto_rules) {
    k.why = "its port-check suppression comments name AUTO rules";
    return k;
  }
  const Call* binding = nullptr;
  const Call* sync = nullptr;
  for (const Call& c : m.calls) {
    if (!binding && bindsTile(m, c)) binding = &c;
    if (!sync && ordersPipesByHand(m, c)) sync = &c;
  }
  const TypeUse* event = nullptr;
  for (const TypeUse& t : m.event_types) {
    const Function* f = m.functionOf(t.function);
    if (!(f && f->tile_function)) {
      event = &t;
      break;
    }
  }
  Position sync_pos = sync ? sync->pos : event ? event->pos : Position{};
  if (sync && event && event->pos.byte < sync->pos.byte) sync_pos = event->pos;
  if (!binding || sync_pos.line == 0) {
    k.why = "PTO-ISA code without both TASSIGN on tiles and hand-written pipe synchronisation";
    return k;
  }
  k.kind = KernelKind::Manual;
  k.what = "manual-mode PTO-ISA kernel";
  k.binding = binding->pos;
  k.sync = sync_pos;
  std::string sync_what = sync && sync->pos.byte == sync_pos.byte ? sync->name : "Event<>";
  k.why = "binds tiles with TASSIGN (" + lineOf(k.binding) + ") and orders the pipes with " + sync_what + " (" +
          lineOf(k.sync) + "), and never tests __PTO_AUTO__";
  return k;
}

}  // namespace portcheck::kernel
