// This file declares the file-writing side of `gordian verify -promela DIR`
// (docs/verify.md, "Promela export"): one Promela file per model and valuation
// (verify/promela.h makes the text), each headed by the own checker's verdict
// so SPIN's can be set beside it.
#pragma once

#include <string>
#include <vector>

#include "gordian/verify/model.h"
#include "gordian/verify/verify_model.h"

namespace gordian::cli {

// Writes the files into dir (made when missing). A file of the same name
// that the export did not write (no kPromelaMarker first line) is left
// alone and is an error. Returns the exit status: 0, or 2 when a file
// could not be written.
int ExportPromela(const std::string& cmd, const std::string& dir, const std::vector<verify::Model>& models,
                  const verify::VerifyOptions& vopt, bool quiet);

}  // namespace gordian::cli
