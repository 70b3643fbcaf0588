// Tests of the trace reader on files a crafted or damaged trace directory
// can hold: a FIFO or a device as events.bin or a side file (they hung or
// were read until memory ran out), a huge sparse events.bin (it was paged
// in whole: 8 GB of memory for 8 GB of holes), and a site id far beyond the
// file's lines (a 30-byte line cost 1.3 GB).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gordian/trace/trace.h"
#include "gordian/trace/writer.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::trace {
namespace {

namespace fs = std::filesystem;

class HostileFiles : public util::TempDirTest {
 protected:
  // A small valid trace: main locks and unlocks a mutex.
  void WriteSmallTrace() {
    TraceWriter w;
    w.Append(1, Record{Kind::MutexLock, 0, 0, 1, 1, 2, 1, 0});
    w.Append(1, Record{Kind::MutexUnlock, 0, 0, 1, 3, 3, 1, 0});
    std::string err;
    ASSERT_TRUE(w.Write(dir_, &err)) << err;
  }
  // ReadTrace refuses the directory with an error that mentions why.
  void ExpectRefused(const std::string& why) {
    Trace t;
    std::string err;
    EXPECT_FALSE(ReadTrace(dir_, &t, &err));
    EXPECT_NE(err.find(why), std::string::npos) << err;
  }
};

TEST_F(HostileFiles, FifoOrDeviceAsEventsIsRefusedWithoutBlocking) {
  ASSERT_EQ(mkfifo((dir_ + "/events.bin").c_str(), 0600), 0);
  ExpectRefused("not a regular file");
  fs::remove(dir_ + "/events.bin");
  fs::create_symlink("/dev/zero", dir_ + "/events.bin");
  ExpectRefused("not a regular file");
}

TEST_F(HostileFiles, FifoOrDeviceAsSideFileIsRefused) {
  WriteSmallTrace();
  fs::remove(dir_ + "/sites.txt");
  ASSERT_EQ(mkfifo((dir_ + "/sites.txt").c_str(), 0600), 0);
  ExpectRefused("sites.txt: not a regular file");
  fs::remove(dir_ + "/sites.txt");
  fs::remove(dir_ + "/strings.txt");
  fs::create_symlink("/dev/zero", dir_ + "/strings.txt");
  ExpectRefused("strings.txt: not a regular file");
}

TEST_F(HostileFiles, SiteIdFarBeyondTheLinesIsSkipped) {
  WriteSmallTrace();
  std::ofstream(dir_ + "/sites.txt", std::ios::app) << "16777216\t1\t/x.go\t1\tmain.f\n";
  Trace t;
  std::string err;
  ASSERT_TRUE(ReadTrace(dir_, &t, &err)) << err;
  EXPECT_LT(t.sites.size(), 4096u) << "no table sized by a crafted id";
  bool warned = false;
  for (const std::string& w : t.warnings) warned |= w.find("site id 16777216 out of range") != std::string::npos;
  EXPECT_TRUE(warned);
}

// A trace whose events.bin was grown to 8 GB of holes reads in bounded
// memory: the reader skips the holes instead of paging them in.
TEST_F(HostileFiles, HugeSparseEventsReadsInBoundedMemory) {
  WriteSmallTrace();
  const off_t huge = off_t{8} << 30;
  {
    int fd = open((dir_ + "/events.bin").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, huge), 0);
    close(fd);
  }
  struct rusage before, after;
  getrusage(RUSAGE_SELF, &before);
  Trace t;
  std::string err;
  ASSERT_TRUE(ReadTrace(dir_, &t, &err)) << err;
  getrusage(RUSAGE_SELF, &after);
  EXPECT_EQ(t.records.size(), 2u);
  // ru_maxrss is in KiB; paging the file in would add gigabytes.
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 256 * 1024) << "KiB";
}

}  // namespace
}  // namespace gordian::trace
