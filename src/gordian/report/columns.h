// This file fills in what the recorder cannot know about a reported
// operation, from the source file's syntax tree: its column (Go's line
// tables have lines only), and whether a receive expects the channel to be
// closed (a `for range` loop, `v, ok := <-ch`, or `<-ch` whose value is
// dropped, also as a select case), which makes a recv-on-closed warning
// noise.
//
// It parses each file once (syntax::Parse) and looks for the operation of
// the location's role on the location's line: a send statement, a receive
// expression or range loop, a close/make/panic call, a Lock/Unlock/Add/Done/
// Wait/Do call, a go statement, a select statement. It degrades to column 0
// when the file is gone, does not parse, or has no such operation there.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

struct OperationFacts {
  bool found = false;
  uint32_t column = 0;             // 1-based byte column of the operation's first byte
  bool expects_closed = false;     // receive: range loop, comma-ok, or value dropped
};

class SourceOperations {
 public:
  SourceOperations();
  ~SourceOperations();
  SourceOperations(const SourceOperations&) = delete;
  SourceOperations& operator=(const SourceOperations&) = delete;

  // The operation of role at path:line (path absolute or relative to the
  // working directory). select_case >= 0: the operation is that case (by
  // the runtime's case index) of the select at the line.
  OperationFacts Find(const std::string& path, uint32_t line, Role role,
                      int32_t select_case = -1);

 private:
  struct ParsedFile;
  const ParsedFile* Parsed(const std::string& path);
  std::map<std::string, std::unique_ptr<ParsedFile>> files_;
};

// Sets the column of every location and step whose column is 0 (reading
// DiskPath of each), and drops recv-on-closed warnings whose receive (the
// primary location) expects the close.
void ResolveColumns(std::vector<Finding>* findings);

}  // namespace gordian::report
