#pragma once
// A readable text dump of a file model (functions, statements, values, regions), for debugging
// and tests. One line per item; the format is not stable.
#include <string>

#include "dsl/dsl_model.h"

namespace portcheck::dsl {

std::string dumpFileModel(const FileModel& file);

}  // namespace portcheck::dsl
