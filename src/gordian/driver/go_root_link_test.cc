// Tests of running a module-cache toolchain from outside the module cache
// (go_root_link.h): which GOROOTs need it, and the linked GOROOT's shape.
#include "gordian/driver/go_root_link.h"
#include "gordian/util/file_text_test.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace gordian::driver {
namespace {
namespace fs = std::filesystem;

TEST(GoRootInModCache, OnlyBeneathTheModuleCache) {
  const std::string mc = "/home/u/go/pkg/mod";
  EXPECT_TRUE(GoRootInModCache(mc + "/golang.org/toolchain@v0.0.1-go1.25.14.linux-amd64", mc));
  EXPECT_TRUE(GoRootInModCache(mc + "/golang.org/toolchain@v0.0.1-go1.25.14.linux-amd64/",
                               mc + "/"));
  EXPECT_TRUE(GoRootInModCache("/home/u/go/pkg/mod/../mod/golang.org/x", mc));
  EXPECT_FALSE(GoRootInModCache("/usr/local/go", mc));
  EXPECT_FALSE(GoRootInModCache(mc, mc));
  EXPECT_FALSE(GoRootInModCache("/home/u/go/pkg/module/x", mc));
  EXPECT_FALSE(GoRootInModCache("/home/u/go/pkg/mod2/x", mc));
  EXPECT_FALSE(GoRootInModCache(mc + "/x", ""));
}

TEST(LinkGoRootOutsideModCache, LinksEverythingButBinAndReuses) {
  const fs::path base = fs::path(testing::TempDir()) / "gordian_goroot_link";
  fs::remove_all(base);
  const fs::path tc = base / "mod/golang.org/toolchain@v0.0.1-go1.24.13.linux-amd64";
  fs::create_directories(tc / "bin");
  fs::create_directories(tc / "src/runtime");
  std::ofstream(tc / "bin/go") << "go binary";
  std::ofstream(tc / "bin/gofmt") << "gofmt binary";
  std::ofstream(tc / "VERSION") << "go1.24.13\n";
  std::ofstream(tc / "src/runtime/chan.go") << "package runtime\n";

  GoTool go;
  go.goroot = tc.string();
  go.go = (tc / "bin/go").string();
  go.gomodcache = (base / "mod").string();
  std::string err;
  ASSERT_TRUE(LinkGoRootOutsideModCache((base / "cache").string(), &go, &err)) << err;
  const fs::path dir = go.goroot;
  EXPECT_EQ(dir.parent_path(), base / "cache/goroot");
  EXPECT_EQ(dir.filename().string().rfind("toolchain@v0.0.1-go1.24.13.linux-amd64-", 0), 0u)
      << dir;
  EXPECT_EQ(go.go, (dir / "bin/go").string());
  EXPECT_FALSE(GoRootInModCache(go.goroot, go.gomodcache));
  // bin/ holds real files (the go command finds GOROOT from its own path).
  EXPECT_FALSE(fs::is_symlink(dir / "bin"));
  EXPECT_FALSE(fs::is_symlink(dir / "bin/go"));
  EXPECT_EQ(util::FileText(dir / "bin/gofmt"), "gofmt binary");
  // The rest are links to the original.
  EXPECT_TRUE(fs::is_symlink(dir / "src"));
  EXPECT_EQ(fs::read_symlink(dir / "src"), tc / "src");
  EXPECT_EQ(util::FileText(dir / "src/runtime/chan.go"), "package runtime\n");
  EXPECT_EQ(util::FileText(dir / "VERSION"), "go1.24.13\n");

  // The same toolchain in another module cache gets its own directory.
  const fs::path tc2 = base / "mod2/golang.org/toolchain@v0.0.1-go1.24.13.linux-amd64";
  fs::create_directories(tc2.parent_path());
  fs::copy(tc, tc2, fs::copy_options::recursive);
  GoTool other;
  other.goroot = tc2.string();
  ASSERT_TRUE(LinkGoRootOutsideModCache((base / "cache2").string(), &other, &err)) << err;
  EXPECT_NE(fs::path(other.goroot).filename(), dir.filename());

  // A second call reuses the directory; no temporary is left behind.
  GoTool again;
  again.goroot = tc.string();
  ASSERT_TRUE(LinkGoRootOutsideModCache((base / "cache").string(), &again, &err)) << err;
  EXPECT_EQ(again.goroot, dir.string());
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(base / "cache/goroot")) {
    (void)e;
    entries++;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(LinkGoRootOutsideModCache, MissingToolchainSaysWhy) {
  const fs::path base = fs::path(testing::TempDir()) / "gordian_goroot_link_missing";
  fs::remove_all(base);
  GoTool go;
  go.goroot = (base / "mod/golang.org/toolchain@v0.0.1-go1.24.13.linux-amd64").string();
  std::string err;
  EXPECT_FALSE(LinkGoRootOutsideModCache((base / "cache").string(), &go, &err));
  EXPECT_NE(err.find("must be run from outside the module cache"), std::string::npos) << err;
  EXPECT_NE(err.find("cannot list"), std::string::npos) << err;
}

}  // namespace
}  // namespace gordian::driver
