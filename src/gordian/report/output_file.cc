// WriteReportText (output_file.h).
#include "gordian/report/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace gordian::report {

namespace fs = std::filesystem;

namespace {

bool WriteDirect(const std::string& path, const std::string& text, std::string* err) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) {
    *err = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace

bool WriteReportText(const std::string& path, const std::string& text, std::string* err) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) return WriteDirect(path, text, err);
  fs::path target(path);
  fs::path tmp = target.parent_path() / fmt::format(".{}.tmp-{}", target.filename().string(), getpid());
  if (!WriteDirect(tmp.string(), text, err)) {
    fs::remove(tmp, ec);
    *err = fmt::format("cannot write {}: {}", path, err->substr(err->find(": ") + 2));
    return false;
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    *err = fmt::format("cannot write {}: {}", path, ec.message());
    return false;
  }
  return true;
}

}  // namespace gordian::report
