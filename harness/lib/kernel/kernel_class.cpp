#include "kernel/kernel_class.h"

#include <algorithm>

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

// What a file without PTO-ISA is, for the message: AscendC, CCE kernel code (device qualifiers), or plain C++.
KernelClass notPtoIsa(const SourceFile& f, const KernelModel& m) {
  KernelClass k;
  k.kind = KernelKind::NotPtoIsa;
  bool device = std::any_of(m.functions.begin(), m.functions.end(), [](const Function& fn) {
    return fn.aicore || fn.entry || fn.tile_function;
  });
  for (std::string_view q : {"__aicore__", "__global__", "__gm__", "__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__"})
    device = device || containsWord(f.text, q);
  k.device_code = device || m.names_ascendc;
  if (m.names_ascendc) k.what = "AscendC kernel code";
  else if (device) k.what = "CCE kernel code";
  else k.what = "plain C++ (host or infrastructure code)";
  k.why = "no pto/ include, pto:: names, PTO tiles or PTO instructions";
  return k;
}

}  // namespace

KernelClass classifyKernel(const SourceFile& file, const KernelModel& m, bool names_auto_rules) {
  KernelClass k;
  k.what = "AUTO-mode PTO-ISA kernel";
  if (inPortSources(file.path)) {
    k.why = "a port's kernel (pypto_src/): ports are written for AUTO mode";
    return k;
  }
  if (!usesPtoIsa(m)) return notPtoIsa(file, m);
  if (m.mentions_pto_auto) {
    k.why = "tests __PTO_AUTO__";
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
