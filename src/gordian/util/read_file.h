// This file reads a whole file into a string, for the readers of gordian's
// text files (schedules, text traces, race logs) that parse it afterwards.
#pragma once

#include <string>

namespace gordian::util {

// The bytes of the file at path, into *text; false, with *text left alone,
// when the file cannot be opened. A read that fails after the open leaves
// what it read: the caller's parser says what is wrong with that.
bool ReadWholeFile(const std::string& path, std::string* text);

}  // namespace gordian::util
