// This file owns the file paths of a report: the recorder writes absolute
// paths; reports show them relative to the Go module root (the directory of
// the nearest go.mod above the file), so that JSON and SARIF output are the
// same on every machine.
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

// "b/c.go" if path is under root ("/a" and "/a/b/c.go"), else "".
std::string Under(const std::string& root, const std::string& path);

// The directory holding the nearest go.mod at or above dir, or "" if none.
std::string FindModuleRoot(const std::string& dir);

// Makes every absolute path in findings (locations, steps, spawn sites)
// relative. With root set: a file under it relative to it; a file of the
// module cache as "module@version/dir/file.go"; a file of a neighbouring
// module (a go.work workspace, a replace ../lib) relative to root with
// "../" ("../lib/l.go"); anything else absolute. Without root: each file
// relative to its own module root. Files outside any module (the standard
// library) keep their absolute path. Location::path keeps the absolute path.
void RelativizePaths(std::vector<Finding>* findings, const std::string& root = "");

// The path of a location to read the source from (path, or file).
inline const std::string& DiskPath(const Location& l) {
  return l.path.empty() ? l.file : l.path;
}

}  // namespace gordian::report
