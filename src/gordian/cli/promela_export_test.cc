// Tests of the file side of `gordian verify -promela DIR`
// (promela_export.h): DIR is made when missing, one file per valuation is
// written, a file of the same name the export did not write is left alone
// (exit 2), and the export's own files are rewritten.
#include "gordian/cli/promela_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gordian/verify/promela.h"
#include "gordian/verify/test_models.h"

namespace gordian::cli {
namespace {

namespace fs = std::filesystem;
using namespace verify::testing;
using K = verify::InstrKind;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class PromelaExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gordian-promela-export-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    verify::Parameter n;
    n.name = "n";
    n.values = {1, 2};
    model_ = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, verify::Expr::Param(0)), I(K::kSend, 0), I(K::kSend, 0),
                              I(K::kEnd)})},
               {n});
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  verify::Model model_;
};

TEST_F(PromelaExport, WritesOneFilePerValuationIntoANewDirectory) {
  const fs::path out = dir_ / "a" / "b";
  ASSERT_EQ(ExportPromela("test", out.string(), {model_}, verify::VerifyOptions{}, true), 0);
  const std::string one = Slurp(out / verify::PromelaFileName(model_, {1}));
  const std::string two = Slurp(out / verify::PromelaFileName(model_, {2}));
  // Capacity 1 and two sends: the entry blocks; capacity 2: clean.
  EXPECT_NE(one.find("gordian-verdict: assertion=0 end_state=1 bounded=0"), std::string::npos) << one;
  EXPECT_NE(two.find("gordian-verdict: assertion=0 end_state=0 bounded=0"), std::string::npos) << two;
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator{}), 2);
}

TEST_F(PromelaExport, LeavesForeignFilesAloneAndRewritesItsOwn) {
  fs::create_directories(dir_);
  const fs::path foreign = dir_ / verify::PromelaFileName(model_, {1});
  std::ofstream(foreign) << "/* my own model */\n";
  std::ofstream(dir_ / "notes.txt") << "keep\n";
  EXPECT_EQ(ExportPromela("test", dir_.string(), {model_}, verify::VerifyOptions{}, true), 2);
  EXPECT_EQ(Slurp(foreign), "/* my own model */\n");
  EXPECT_EQ(Slurp(dir_ / "notes.txt"), "keep\n");
  const fs::path own = dir_ / verify::PromelaFileName(model_, {2});
  ASSERT_TRUE(fs::exists(own));
  std::ofstream(own, std::ios::app) << "/* stale */\n";
  fs::remove(foreign);
  EXPECT_EQ(ExportPromela("test", dir_.string(), {model_}, verify::VerifyOptions{}, true), 0);
  EXPECT_EQ(Slurp(own).find("stale"), std::string::npos);
}

TEST_F(PromelaExport, ADirectoryThatIsAFileIsAnError) {
  std::ofstream(dir_.string()) << "x";
  EXPECT_EQ(ExportPromela("test", dir_.string(), {model_}, verify::VerifyOptions{}, true), 2);
  fs::remove(dir_);
}

}  // namespace
}  // namespace gordian::cli
