// This file owns the layout of a `gordian record` output directory:
//
//   record run:   DIR/events.bin, sites.txt, ...   (one program, one trace)
//   record test:  DIR/packages.txt                 one line per test binary:
//                                                   name \t import path \t source dir
//                 DIR/<name>/events.bin, ...       its trace
//
// Each test binary is its own process, hence its own trace. <name> is the
// import path with '/' turned into '_' (and "-2", "-3"... on a clash).
// packages.txt is appended by each test binary's exec wrapper, one write(2)
// per line, so parallel packages never tear it.
#pragma once

#include <string>
#include <vector>

namespace gordian::driver {

// The binary that ran, left in its trace directory when asked (record.h:
// RecordOptions::keep_binary): go test's test binary (a hard link, or a
// copy where the two are on different file systems), or the program of a
// run (moved there from gordian's run directory).
inline constexpr const char* kKeptBinaryFile = "binary";

struct PackageTrace {
  std::string name;         // directory name under DIR ("" for a run trace: DIR itself)
  std::string import_path;  // "" when unknown (record run)
  std::string source_dir;   // the package directory the binary ran in
  std::string trace_dir;    // the directory to read
};

// Makes dir ready for a new recording: creates it, or clears the traces of
// an earlier recording in it. Refuses a non-empty directory that is not a
// gordian trace directory, so that -o never deletes the user's files.
bool PrepareOutputDir(const std::string& dir, std::string* err);

// The traces under dir: dir itself when it holds events.bin, else the
// entries of packages.txt whose directory exists, in the file's order.
bool ListTraces(const std::string& dir, std::vector<PackageTrace>* out, std::string* err);

// Creates a fresh directory for the test binary of import_path under base and
// records it in base/packages.txt; sets *trace_dir.
bool ClaimPackageDir(const std::string& base, const std::string& import_path,
                     const std::string& source_dir, std::string* trace_dir,
                     std::string* err);

// "example.com/x/y" -> "example.com_x_y"; bytes outside [A-Za-z0-9._-] -> '-'.
std::string EscapePackagePath(const std::string& import_path);

// The import path of the package in dir, from the nearest go.mod above it
// (module path + relative directory); "" when there is none.
std::string ImportPathOfDir(const std::string& dir);

}  // namespace gordian::driver
