#include "dsl/pl_names.h"

#include <algorithm>

namespace portcheck::dsl {

namespace {
constexpr PlName kNames[] = {
#include "dsl/pl_names_table.inc"
};

const PlName* exact(std::string_view name) {
  auto it = std::lower_bound(std::begin(kNames), std::end(kNames), name,
                             [](const PlName& p, std::string_view n) { return p.name < n; });
  return it != std::end(kNames) && it->name == name ? it : nullptr;
}
}  // namespace

const PlName* findPlName(std::string_view relative) {
  if (const PlName* p = exact(relative)) return p;
  std::size_t dot = relative.find('.');
  if (dot == std::string_view::npos) return nullptr;
  const PlName* head = exact(relative.substr(0, dot));
  if (!head) return nullptr;
  switch (head->kind) {
    case PlNameKind::Enum:
    case PlNameKind::Type:
    case PlNameKind::DType:
    case PlNameKind::Constant:
      return head;  // members / attributes of enums and types
    case PlNameKind::Namespace: {
      // pl.tile.load is listed; a deeper member of a listed name (pl.tile.MemRefType.X) resolves to it.
      std::size_t second = relative.find('.', dot + 1);
      if (second != std::string_view::npos) {
        const PlName* inner = exact(relative.substr(0, second));
        if (inner && (inner->kind == PlNameKind::Enum || inner->kind == PlNameKind::Type)) return inner;
      }
      return nullptr;
    }
    default:
      return nullptr;
  }
}

bool isOperation(PlNameKind k) {
  switch (k) {
    case PlNameKind::UnifiedOp:
    case PlNameKind::TileOp:
    case PlNameKind::TensorOp:
    case PlNameKind::SystemOp:
    case PlNameKind::ArrayOp:
    case PlNameKind::PrefetchOp:
      return true;
    default:
      return false;
  }
}

std::span<const PlName> plNames() { return kNames; }

}  // namespace portcheck::dsl
