// This file owns reading a report's source excerpts from disk: which files
// may be shown (only the user's own .go files under the module reported on:
// a crafted trace can name /etc/shadow as a site) and a cache of the lines of
// each file read. The terminal and HTML reports both show excerpts through it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

// Source files read for excerpts; a missing file is remembered as missing.
class SourceCache {
 public:
  // The file's lines (without line ends), or nullptr when it cannot be read.
  const std::vector<std::string>* Lines(const std::string& path);

  // root with symlinks and ".." resolved, once per report ("" when it
  // cannot be resolved: no source is shown then).
  const std::string& Root(const std::string& root);

 private:
  struct Entry {
    bool ok = false;
    std::vector<std::string> lines;
  };
  std::map<std::string, Entry> files_;
  std::string root_;
  bool root_done_ = false;
};

// True when the source of path may be shown: a .go file inside root (the
// module the report is about), after resolving symlinks and "..", that is a
// regular file or missing (a FIFO or device would hang).
// canonical_root is the root already resolved (SourceCache::Root).
bool MayShowSource(const std::string& path, const std::string& canonical_root);

// The lines around a location, or why there are none.
struct SourceExcerpt {
  uint32_t first_line = 0;         // number of lines[0]; 0 when there is no excerpt
  std::vector<std::string> lines;  // raw text: the renderer escapes it
  std::string note;                // when lines is empty: why ("source not shown: ...")
};

// The lines l.line - context .. l.line + context of l's file, when
// MayShowSource allows; the note otherwise (nothing at all for a location
// without a line).
SourceExcerpt ExcerptOf(const Location& l, int context, SourceCache* cache,
                        const std::string& source_root);

}  // namespace gordian::report
