// SKILL.md frontmatter: any bytes give a Frontmatter (ok or an error with a line), never a crash.
#include "fuzz_support.h"
#include "skills/frontmatter.h"

PORTCHECK_FUZZ_TARGET(frontmatter) {
  portcheck::Frontmatter fm = portcheck::parseFrontmatter(portcheck::fuzz::asText(data, size));
  (void)fm.find("name");
  (void)fm.find("metadata");
  return 0;
}
