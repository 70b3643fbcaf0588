// Tests of the supported Go releases table (go_release.h): reading a
// release from a version string and from a GOROOT, and the refusal of the
// releases it does not list.
#include "gordian/instrument/go_release.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace gordian::instrument {
namespace {
namespace fs = std::filesystem;

TEST(GoRelease, TableIsOrderedAndNamesTestedPatchReleases) {
  int prev = 0;
  for (const GoRelease& r : SupportedGoReleases()) {
    EXPECT_GT(r.minor, prev);
    prev = r.minor;
    // The tested patch release belongs to its row's minor version.
    EXPECT_EQ(GoMinorOfVersion(r.tested), r.minor) << r.tested;
    EXPECT_FALSE(r.notes.empty());
  }
  EXPECT_EQ(SupportedGoReleasesText(), "Go 1.23, 1.24, 1.25 and 1.26");
  EXPECT_NE(FindGoRelease(24), nullptr);
  EXPECT_EQ(FindGoRelease(22), nullptr);
}

TEST(GoRelease, VetReadsOverlaySince124) {
  EXPECT_FALSE(GoVetReadsOverlay("go1.23.12"));
  EXPECT_TRUE(GoVetReadsOverlay("go1.24.0"));
  EXPECT_TRUE(GoVetReadsOverlay("go1.26.8"));
  EXPECT_TRUE(GoVetReadsOverlay("go1.22.1"));  // refused elsewhere, with its own message
}

TEST(GoRelease, MinorOfVersion) {
  // {go version's output, its minor release (0: none)}
  const std::pair<const char*, int> cases[] = {
      {"go1.24.13", 24},
      {"go1.25rc1", 25},
      {"go1.26", 26},
      {"devel go1.27-abc123 Mon Jan 1", 27},
      {"go1.26.8 X:nocoverageredesign", 26},
      {"go2", 0},
      {"go1.", 0},
      {"", 0},
  };
  for (const auto& [version, minor] : cases) EXPECT_EQ(GoMinorOfVersion(version), minor) << version;
}

// A GOROOT with only src/internal/goversion/goversion.go holding text.
fs::path FakeRoot(const std::string& name, const std::string& goversion_go) {
  fs::path root = fs::path(testing::TempDir()) / name;
  fs::remove_all(root);
  fs::create_directories(root / "src/internal/goversion");
  if (!goversion_go.empty()) {
    std::ofstream(root / "src/internal/goversion/goversion.go") << goversion_go;
  }
  return root;
}

TEST(GoRelease, MinorOfRoot) {
  int minor = 0;
  std::string err;
  fs::path root = FakeRoot("gordian_goversion_24",
                           "package goversion\n\n// doc\nconst Version = 24\n");
  ASSERT_TRUE(GoMinorOfRoot(root.string(), &minor, &err)) << err;
  EXPECT_EQ(minor, 24);

  root = FakeRoot("gordian_goversion_none", "");
  EXPECT_FALSE(GoMinorOfRoot(root.string(), &minor, &err));
  EXPECT_NE(err.find("cannot read " + (root / "src/internal/goversion/goversion.go").string()),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("Go 1.23, 1.24, 1.25 and 1.26"), std::string::npos) << err;

  root = FakeRoot("gordian_goversion_garbled", "package goversion\nconst Version = x\n");
  EXPECT_FALSE(GoMinorOfRoot(root.string(), &minor, &err));
  EXPECT_NE(err.find("does not say which Go release it is"), std::string::npos) << err;
}

TEST(GoRelease, UnsupportedReleasesAreRefusedWithWhatToDo) {
  std::string err;
  for (const GoRelease& r : SupportedGoReleases()) {
    EXPECT_TRUE(CheckGoReleaseSupported(r.minor, r.tested, &err)) << err;
  }
  EXPECT_FALSE(CheckGoReleaseSupported(22, "go1.22.5", &err));
  EXPECT_EQ(err,
            "Go 1.22 (go1.22.5) is not supported: gordian records with Go 1.23, 1.24, 1.25 and "
            "1.26. Use one of them, e.g. GOTOOLCHAIN=go1.26.8 (the go command fetches it), or "
            "point GORDIAN_GO at its go command");
  // A newer release also says what supporting it takes.
  EXPECT_FALSE(CheckGoReleaseSupported(27, "", &err));
  EXPECT_EQ(err.rfind("Go 1.27 is not supported: gordian records with Go 1.23, 1.24, 1.25 and "
                      "1.26.",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("checking runtime/std against it"), std::string::npos) << err;
}

}  // namespace
}  // namespace gordian::instrument
