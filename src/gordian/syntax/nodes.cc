// This file implements the small helpers declared in nodes.h.
#include "gordian/syntax/nodes.h"

namespace gordian::syntax {

std::string_view NodeKindName(NodeKind k) {
  switch (k) {
#define X(name)        \
  case NodeKind::name: \
    return #name;
    GORDIAN_NODE_KINDS(X)
#undef X
    case NodeKind::Count_:
      break;
  }
  return "?";
}

}  // namespace gordian::syntax
