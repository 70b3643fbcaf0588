// This file owns the text side files of a trace directory (sites.txt,
// strings.txt, meta.txt, goroutines.txt): their line formats, how they are
// parsed into a Trace, and how TraceWriter prints them. docs/trace-format.md
// is the prose version.
//
// The parsers are forgiving: the recorder appends to these files while the
// program runs, so a crash can leave a half-written last line. Such lines are
// skipped with a warning; a missing file is a warning, never an error.
#pragma once

#include <string>
#include <string_view>

#include "gordian/trace/trace.h"

namespace gordian::trace {

// Loads sites.txt, strings.txt and meta.txt of dir into *t, appending a
// warning to t->warnings for each line it cannot use. Fails only when a file
// exists but cannot be read.
bool LoadSideFiles(const std::string& dir, Trace* t, std::string* err);

// Loads the optional goroutines.txt (gid, parent gid, child index per line)
// and fills parent and child_index of goroutines that have none yet.
bool LoadGoroutineFile(const std::string& dir, Trace* t, std::string* err);

// One line of each file, without the newline.
std::string FormatSiteLine(uint32_t id, const Site& s);
std::string FormatStringLine(uint32_t id, std::string_view s);
std::string FormatMetaLine(std::string_view key, std::string_view value);

// Go-style quoting of s ("..." with \n, \t, \\, \" and \xHH escapes) and its
// inverse; Unquote returns false on a malformed literal.
std::string Quote(std::string_view s);
bool Unquote(std::string_view q, std::string* out);

}  // namespace gordian::trace
