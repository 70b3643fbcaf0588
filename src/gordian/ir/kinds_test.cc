// Checks the copies of the IR's op kinds outside op_kinds.def against it:
// every kind the generator writes (tools/irgen/prims.go's tables and the
// op names in write.go) is in the table, and docs/ir-format.md documents
// every kind of the table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "gordian/ir/ir.h"

namespace gordian::ir {
namespace {

std::string SourceDir() {
  const char* d = std::getenv("GORDIAN_SOURCE_DIR");
  return d != nullptr && *d ? d : GORDIAN_SOURCE_DIR_DEFAULT;
}

std::string Slurp(const std::string& rel) {
  std::ifstream in(SourceDir() + "/" + rel);
  EXPECT_TRUE(in) << "cannot read " << rel;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> Matches(const std::string& text, const std::string& re) {
  std::set<std::string> out;
  std::regex r(re);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), r); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

TEST(IrKinds, TableNamesRoundTrip) {
  for (OpKind k : AllOpKinds()) {
    OpKind back;
    ASSERT_TRUE(ParseOpKind(OpKindName(k), &back)) << OpKindName(k);
    EXPECT_EQ(back, k);
  }
  OpKind k;
  EXPECT_FALSE(ParseOpKind("teleport", &k));
}

TEST(IrKinds, GeneratorWritesOnlyKindsOfTheTable) {
  // prims.go: "sync.Mutex.Lock": "lock", ... ; write.go: wr.op("send", ...
  std::string prims = Slurp("tools/irgen/prims.go");
  std::set<std::string> gen;
  for (const char* table : {"var methodOps", "var funcOps"}) {
    size_t at = prims.find(table);
    ASSERT_NE(at, std::string::npos) << table;
    std::string body = prims.substr(at, prims.find("\n}\n", at) - at);
    std::set<std::string> names = Matches(body, R"re(":\s+"([a-z-]+)",)re");
    gen.insert(names.begin(), names.end());
  }
  std::set<std::string> ops = Matches(Slurp("tools/irgen/write.go"), R"re(wr\.op\("([a-z-]+)")re");
  gen.insert(ops.begin(), ops.end());
  ASSERT_GT(gen.size(), 40u);
  for (const std::string& name : gen) {
    OpKind k;
    EXPECT_TRUE(ParseOpKind(name, &k)) << "the generator writes op " << name
                                       << ", which op_kinds.def does not have";
  }
  // The call ops the generator writes through its via= word.
  for (const char* name : {"call", "go", "defer", "cancel"}) {
    OpKind k;
    EXPECT_TRUE(ParseOpKind(name, &k)) << name;
  }
}

TEST(IrKinds, DocsDocumentEveryKind) {
  std::string doc = Slurp("docs/ir-format.md");
  std::set<std::string> documented = Matches(doc, R"re(\n\| `([a-z-]+)` \|)re");
  for (OpKind k : AllOpKinds()) {
    EXPECT_TRUE(documented.count(std::string(OpKindName(k))))
        << "docs/ir-format.md has no table row for op " << OpKindName(k);
  }
}

}  // namespace
}  // namespace gordian::ir
