// Tests of ReadTrace and TraceWriter: round trips across chunk boundaries,
// stable ids, crash damage (torn chunks, cut files, corrupt bytes) and
// random garbage, which must give an error or a repaired trace, never a crash.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gordian/trace/side_files.h"
#include "gordian/trace/trace.h"
#include "gordian/trace/writer.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::trace {
namespace {

namespace fs = std::filesystem;

class TraceTest : public util::TempDirTest {
 protected:
  std::string Events() const { return dir_ + "/events.bin"; }
  std::string ReadBytes(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void WriteBytes(const std::string& path, const std::string& data) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  // Reads back, asserting success.
  Trace MustRead() {
    Trace t;
    std::string err;
    EXPECT_TRUE(ReadTrace(dir_, &t, &err)) << err;
    return t;
  }
  std::string ReadError() {
    Trace t;
    std::string err;
    EXPECT_FALSE(ReadTrace(dir_, &t, &err));
    return err;
  }
  // Writes WriteThree's trace in small chunks and reads back the events file.
  void WriteThreeInSmallChunks(std::string* bytes);
  // Reads a damaged trace: either *read and its goroutines are well formed,
  // or it fails with an error message.
  void ReadDamaged(Trace* t, bool* read) {
    std::string e;
    *read = ReadTrace(dir_, t, &e);
    if (!*read) {
      EXPECT_FALSE(e.empty());
      return;
    }
    for (const Goroutine& g : t->goroutines) {
      ASSERT_LE(g.begin, g.end);
      ASSERT_LE(g.end, t->records.size());
      ASSERT_FALSE(g.stable_id.empty());
    }
  }
};

bool SameRecord(const Record& a, const Record& b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

bool HasWarning(const Trace& t, const std::string& part) {
  for (const std::string& w : t.warnings) {
    if (w.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST_F(TraceTest, RoundTripSmallProgram) {
  TraceWriter w;
  uint32_t s1 = w.AddSite("/src/a/main.go", 10, "main.main");
  uint32_t s2 = w.AddSite("/usr/local/go/src/sync/mutex.go", 80, "sync.(*Mutex).Lock",
                          /*user=*/false, /*column=*/3);
  uint32_t msg = w.AddString("boom\n\t\"quoted\" \x01 \xc3\xa9");
  w.SetMeta("command", "go test ./x");
  w.SetMeta("go_version", "go1.26.8");
  uint32_t ch = w.NewObject();
  w.Op(1, Kind::ChanMake, ch, 0, s1);
  uint32_t g = w.Go(1, s1);
  RecordRef send = w.Pre(g, Kind::ChanSend, ch, s1);
  RecordRef recv = w.Pre(1, Kind::ChanRecv, ch, s1);
  w.Post(send, 1);
  w.Post(recv, 1);
  RecordRef blocked = w.Pre(g, Kind::MutexLock, 7, s2);
  w.Op(1, Kind::Panic, 0, msg, s1);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;

  Trace t = MustRead();
  EXPECT_TRUE(t.warnings.empty()) << t.warnings[0];
  EXPECT_FALSE(t.truncated);
  ASSERT_EQ(t.goroutines.size(), 2u);
  EXPECT_EQ(t.goroutines[0].stable_id, "1");
  EXPECT_EQ(t.goroutines[1].stable_id, "1.0");
  EXPECT_EQ(t.goroutines[1].parent, 1u);
  auto main_recs = t.RecordsOf(t.goroutines[0]);
  auto g_recs = t.RecordsOf(t.goroutines[1]);
  ASSERT_EQ(main_recs.size(), 4u);
  ASSERT_EQ(g_recs.size(), 3u);
  EXPECT_TRUE(SameRecord(main_recs[2], w.At(recv)));
  EXPECT_TRUE(SameRecord(g_recs[1], w.At(send)));
  EXPECT_EQ(g_recs[2].tpost, 0u);
  EXPECT_TRUE(SameRecord(g_recs[2], w.At(blocked)));
  EXPECT_EQ(main_recs[1].kind, Kind::GoSpawn);
  EXPECT_EQ(main_recs[1].obj, 2u);

  ASSERT_EQ(t.sites.size(), 3u);
  EXPECT_EQ(t.sites[1].file, "/src/a/main.go");
  EXPECT_EQ(t.sites[1].line, 10u);
  EXPECT_EQ(t.sites[1].function, "main.main");
  EXPECT_TRUE(t.sites[1].user);
  EXPECT_FALSE(t.sites[2].user);
  EXPECT_EQ(t.sites[2].column, 3u);
  EXPECT_EQ(t.SiteOf(main_recs[0]).line, 10u);
  ASSERT_EQ(t.strings.size(), 2u);
  EXPECT_EQ(t.strings[msg], "boom\n\t\"quoted\" \x01 \xc3\xa9");
  EXPECT_EQ(t.meta["command"], "go test ./x");
  EXPECT_EQ(t.meta["go_version"], "go1.26.8");
}

TEST_F(TraceTest, ChunkBoundariesKeepProgramOrder) {
  // Three records per chunk; three goroutines interleave their chunks.
  TraceWriter w(sizeof(ChunkHeader) + 3 * sizeof(Record));
  uint32_t g2 = w.Go(1);
  uint32_t g3 = w.Go(1);
  for (uint32_t i = 0; i < 100; i++) {
    w.Op(1, Kind::MutexLock, 1, i, 0);
    w.Op(g2, Kind::MutexLock, 2, i, 0);
    if (i % 3 == 0) w.Op(g3, Kind::MutexLock, 3, i, 0);
  }
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_TRUE(t.warnings.empty()) << t.warnings[0];
  ASSERT_EQ(t.goroutines.size(), 3u);
  for (uint32_t gid = 1; gid <= 3; gid++) {
    auto recs = t.RecordsOf(t.goroutines[gid - 1]);
    uint32_t expect = 0;
    for (const Record& r : recs) {
      if (r.kind != Kind::MutexLock) continue;
      EXPECT_EQ(r.obj, gid);
      EXPECT_EQ(r.val, expect);
      expect += gid == 3 ? 3 : 1;
    }
    EXPECT_EQ(expect, gid == 3 ? 102u : 100u);
  }
  EXPECT_EQ(t.records.size(), 2u /*spawns*/ + 2u /*starts*/ + 200u + 34u);
}

TEST_F(TraceTest, ExactlyFullChunk) {
  TraceWriter w(sizeof(ChunkHeader) + 4 * sizeof(Record));
  for (int i = 0; i < 8; i++) w.Op(1, Kind::WgAdd, 1, 1, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_EQ(t.records.size(), 8u);
  EXPECT_TRUE(t.warnings.empty());
}

TEST_F(TraceTest, StableIdsFollowTheSpawnTree) {
  TraceWriter w;
  uint32_t a = w.Go(1);   // 1.0
  uint32_t b = w.Go(1);   // 1.1
  uint32_t c = w.Go(b);   // 1.1.0
  uint32_t d = w.Go(b);   // 1.1.1
  uint32_t e = w.Go(d);   // 1.1.1.0
  uint32_t f = w.Go(a);   // 1.0.0
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_EQ(t.FindGoroutine(a)->stable_id, "1.0");
  EXPECT_EQ(t.FindGoroutine(b)->stable_id, "1.1");
  EXPECT_EQ(t.FindGoroutine(c)->stable_id, "1.1.0");
  EXPECT_EQ(t.FindGoroutine(d)->stable_id, "1.1.1");
  EXPECT_EQ(t.FindGoroutine(e)->stable_id, "1.1.1.0");
  EXPECT_EQ(t.FindGoroutine(f)->stable_id, "1.0.0");
  EXPECT_EQ(t.FindGoroutine(99), nullptr);
}

TEST_F(TraceTest, SpawnedButNeverRunGoroutineExists) {
  TraceWriter w;
  w.Go(1);
  // The parent spawned gid 3, which never recorded a thing.
  w.Op(1, Kind::GoSpawn, 3, 1, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  ASSERT_EQ(t.goroutines.size(), 3u);
  const Goroutine& g = t.goroutines[2];
  EXPECT_EQ(g.begin, g.end);
  EXPECT_EQ(g.stable_id, "1.1");
}

TEST_F(TraceTest, GoroutineWithoutStartGetsUnstableId) {
  TraceWriter w;
  w.Append(2, Record{Kind::MutexLock, 0, 0, 0, 5, 6, 1, 0});
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  ASSERT_EQ(t.goroutines.size(), 2u);
  EXPECT_EQ(t.goroutines[1].stable_id, "?2");
  // A note for --verbose, not a warning: runtime-started goroutines are normal.
  EXPECT_FALSE(HasWarning(t, "parent unknown"));
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("1 goroutine without a recorded go statement"), std::string::npos)
      << t.notes[0];
  EXPECT_NE(t.notes[0].find("goroutine 2"), std::string::npos) << t.notes[0];
}

TEST_F(TraceTest, GoroutinesFileFillsMissingParents) {
  TraceWriter w;
  w.Append(2, Record{Kind::MutexLock, 0, 0, 0, 5, 6, 1, 0});
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  WriteBytes(dir_ + "/goroutines.txt", "2\t1\t4\n");
  Trace t = MustRead();
  EXPECT_EQ(t.goroutines[1].stable_id, "1.4");
}

TEST_F(TraceTest, RecorderPseudoGoroutine) {
  TraceWriter w;
  w.Go(1);
  w.Append(3, Record{Kind::GoStart, 0, 0, 0, 9, 9, 0, kDefaultCase});
  w.Append(3, Record{Kind::GlobalDeadlock, 0, 0, 0, 10, 10, 2, 0});
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_EQ(t.goroutines[2].stable_id, "recorder");
  EXPECT_TRUE(t.warnings.empty());
}

TEST_F(TraceTest, SpawnCycleDoesNotLoop) {
  TraceWriter w;
  w.Append(2, Record{Kind::GoStart, 0, 0, 0, 1, 1, 3, 0});
  w.Append(3, Record{Kind::GoStart, 0, 0, 0, 2, 2, 2, 0});
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_TRUE(HasWarning(t, "cycle"));
  EXPECT_EQ(t.goroutines[1].stable_id[0], '?');
  EXPECT_EQ(t.goroutines[2].stable_id[0], '?');
}

// ---- crash damage

// Writes 3 goroutines with small chunks and returns the expected counts.
void WriteThree(TraceWriter* w) {
  uint32_t g2 = w->Go(1);
  uint32_t g3 = w->Go(1);
  for (uint32_t i = 0; i < 10; i++) {
    w->Op(1, Kind::ChanClose, 1, i, 0);
    w->Op(g2, Kind::ChanClose, 2, i, 0);
    w->Op(g3, Kind::ChanClose, 3, i, 0);
  }
}
constexpr uint32_t kSmallChunk = sizeof(ChunkHeader) + 4 * sizeof(Record);

size_t ChunkOffset(size_t i) { return sizeof(FileHeader) + i * kSmallChunk; }

void TraceTest::WriteThreeInSmallChunks(std::string* bytes) {
  TraceWriter w(kSmallChunk);
  WriteThree(&w);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  *bytes = ReadBytes(Events());
}

TEST_F(TraceTest, FileCutInsideARecord) {
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(WriteThreeInSmallChunks(&bytes));
  size_t full = MustRead().records.size();
  // Cut the file 2 records and a half into the last chunk.
  size_t n_chunks = (bytes.size() - sizeof(FileHeader)) / kSmallChunk;
  bytes.resize(ChunkOffset(n_chunks - 1) + sizeof(ChunkHeader) + 2 * sizeof(Record) + 11);
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(HasWarning(t, "ends inside chunk"));
  EXPECT_LT(t.records.size(), full);
  EXPECT_GE(t.records.size(), full - 4);
}

TEST_F(TraceTest, FileCutInsideAChunkHeader) {
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(WriteThreeInSmallChunks(&bytes));
  bytes.resize(ChunkOffset(3) + 10);
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.records.size(), 12u);  // three full chunks of four
}

TEST_F(TraceTest, TornChunkTailIsEmptyRecords) {
  // The recorder died after writing two records of a fresh chunk: the rest of
  // the chunk is zero. That is a normal end, not damage.
  TraceWriter w(kSmallChunk);
  for (int i = 0; i < 6; i++) w.Op(1, Kind::ChanClose, 1, 0, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_EQ(t.records.size(), 6u);
  EXPECT_FALSE(t.truncated);
}

TEST_F(TraceTest, UnusedZeroChunksAreIgnored) {
  TraceWriter w(kSmallChunk);
  w.Op(1, Kind::ChanClose, 1, 0, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string bytes = ReadBytes(Events());
  bytes.append(3 * kSmallChunk, '\0');  // the recorder grew the file ahead
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_EQ(t.records.size(), 1u);
  EXPECT_TRUE(t.warnings.empty());
  EXPECT_FALSE(t.truncated);
}

TEST_F(TraceTest, BadChunkMagicSkipsTheChunk) {
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(WriteThreeInSmallChunks(&bytes));
  size_t full = MustRead().records.size();
  bytes[ChunkOffset(4)] ^= 0x55;
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(HasWarning(t, "bad chunk magic"));
  EXPECT_TRUE(HasWarning(t, "missing"));  // the gap it leaves
  EXPECT_EQ(t.records.size(), full - 4);
}

TEST_F(TraceTest, UnknownKindStopsTheChunk) {
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(WriteThreeInSmallChunks(&bytes));
  size_t full = MustRead().records.size();
  bytes[ChunkOffset(5) + sizeof(ChunkHeader) + 2 * sizeof(Record)] = static_cast<char>(200);
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(HasWarning(t, "unknown kind 200"));
  EXPECT_EQ(t.records.size(), full - 2);
}

TEST_F(TraceTest, DuplicateSeqIsDropped) {
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(WriteThreeInSmallChunks(&bytes));
  size_t full = MustRead().records.size();
  // Append a copy of chunk 0 (main, seq 0) as a new chunk.
  bytes += bytes.substr(ChunkOffset(0), kSmallChunk);
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(HasWarning(t, "repeats seq 0"));
  EXPECT_EQ(t.records.size(), full);
}

// Shared chunks (event.h): the recorder puts a goroutine's first records in
// runs of a per-P shared chunk. SharedChunkTrace builds, by hand, a trace of
// chunks of 12 record slots: goroutine 1's own chunk (it spawns 2 and 3), a
// shared chunk with runs of goroutines 2 and 3 and a run whose header was
// never published (the program died just after taking it), and goroutine
// 2's own chunk, its seq 2. It returns the shared chunk's offset.
constexpr uint32_t kRunChunk = sizeof(ChunkHeader) + 12 * sizeof(Record);

size_t SharedChunkTrace(std::string* bytes, const std::string& header) {
  auto put = [&](size_t off, const void* p, size_t n) { memcpy(bytes->data() + off, p, n); };
  auto rec = [&](size_t off, Kind k, uint32_t t, uint32_t obj, uint32_t val) {
    Record r{k, 0, 0, 0, t, t, obj, val};
    put(off, &r, sizeof r);
  };
  auto run = [&](size_t off, uint32_t gid, uint32_t seq, uint32_t records) {
    RunHeader h{kRunMagic, gid, seq, records, {0, 0}};
    put(off, &h, sizeof h);
  };
  auto chunk = [&](size_t off, uint32_t magic, uint32_t gid, uint32_t seq) {
    ChunkHeader h{magic, gid, seq, {0, 0, 0}};
    put(off, &h, sizeof h);
  };
  *bytes = header.substr(0, sizeof(FileHeader));
  bytes->append(3 * kRunChunk, '\0');
  auto slot = [](size_t chunk_off, size_t i) {
    return chunk_off + sizeof(ChunkHeader) + i * sizeof(Record);
  };
  const size_t own1 = sizeof(FileHeader), shared = own1 + kRunChunk, own2 = shared + kRunChunk;
  chunk(own1, kChunkMagic, 1, 0);
  rec(slot(own1, 0), Kind::GoSpawn, 1, 2, 0);
  rec(slot(own1, 1), Kind::GoSpawn, 2, 3, 1);
  chunk(shared, kSharedChunkMagic, 0, 0);
  run(slot(shared, 0), 2, 0, 2);  // full
  rec(slot(shared, 1), Kind::GoStart, 3, 1, 0);
  rec(slot(shared, 2), Kind::ChanClose, 4, 7, 0);
  run(slot(shared, 3), 3, 0, 3);  // one of three used
  rec(slot(shared, 4), Kind::GoStart, 5, 1, 1);
  uint32_t unpublished[4] = {0, 4, 1, 1};  // seq and records written, magic not yet
  put(slot(shared, 7), unpublished, sizeof unpublished);
  run(slot(shared, 9), 2, 1, 2);  // one of two used
  rec(slot(shared, 10), Kind::ChanClose, 6, 7, 1);
  chunk(own2, kChunkMagic, 2, 2);
  rec(slot(own2, 0), Kind::ChanClose, 7, 7, 2);
  return shared;
}

TEST_F(TraceTest, SharedChunkRunsJoinTheirGoroutines) {
  TraceWriter w(kRunChunk);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string bytes;
  SharedChunkTrace(&bytes, ReadBytes(Events()));
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(t.warnings.empty()) << t.warnings[0];
  EXPECT_FALSE(t.truncated);
  ASSERT_EQ(t.goroutines.size(), 3u);
  auto g2 = t.RecordsOf(t.goroutines[1]);
  ASSERT_EQ(g2.size(), 4u);
  EXPECT_EQ(g2[0].kind, Kind::GoStart);
  for (uint32_t i = 0; i < 3; i++) {
    EXPECT_EQ(g2[i + 1].kind, Kind::ChanClose);
    EXPECT_EQ(g2[i + 1].val, i);  // seq order: run 0, run 1, own chunk 2
  }
  auto g3 = t.RecordsOf(t.goroutines[2]);
  ASSERT_EQ(g3.size(), 1u);
  EXPECT_EQ(g3[0].kind, Kind::GoStart);
  EXPECT_EQ(t.goroutines[2].stable_id, "1.1");
}

TEST_F(TraceTest, BadRunHeaderSkipsTheRestOfTheSharedChunk) {
  TraceWriter w(kRunChunk);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string header = ReadBytes(Events());
  std::string bytes;
  // A corrupt magic at goroutine 3's run: it and goroutine 2's second run are lost.
  size_t shared = SharedChunkTrace(&bytes, header);
  bytes[shared + sizeof(ChunkHeader) + 3 * sizeof(Record)] ^= 0x55;
  WriteBytes(Events(), bytes);
  Trace t = MustRead();
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(HasWarning(t, "bad run magic"));
  EXPECT_TRUE(HasWarning(t, "goroutine 2: chunks 1..1 are missing"));
  ASSERT_EQ(t.goroutines.size(), 3u);
  EXPECT_EQ(t.RecordsOf(t.goroutines[1]).size(), 3u);
  EXPECT_EQ(t.RecordsOf(t.goroutines[2]).size(), 0u);  // known from its spawn only
  // A run longer than the rest of its chunk.
  shared = SharedChunkTrace(&bytes, header);
  uint32_t too_many = 9;
  memcpy(bytes.data() + shared + sizeof(ChunkHeader) + 9 * sizeof(Record) + 12, &too_many, 4);
  WriteBytes(Events(), bytes);
  t = MustRead();
  EXPECT_TRUE(HasWarning(t, "impossible run (goroutine 2, 9 records)"));
  EXPECT_EQ(t.RecordsOf(t.goroutines[1]).size(), 3u);
  EXPECT_EQ(t.RecordsOf(t.goroutines[2]).size(), 1u);
}

TEST_F(TraceTest, HeaderTruncatedFlag) {
  TraceWriter w;
  w.SetFlags(kFileTruncated);
  w.Op(1, Kind::ProgramExit, 0, 0, 0);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  Trace t = MustRead();
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(HasWarning(t, "stopped early"));
}

// ---- errors

TEST_F(TraceTest, MissingTrace) {
  std::string err = ReadError();
  EXPECT_NE(err.find("not a gordian trace directory"), std::string::npos) << err;
}

TEST_F(TraceTest, EmptyFile) {
  WriteBytes(Events(), "");
  std::string err = ReadError();
  EXPECT_NE(err.find("empty file"), std::string::npos) << err;
}

TEST_F(TraceTest, NotATrace) {
  WriteBytes(Events(), "package main\n\nfunc main() {}\n");
  std::string err = ReadError();
  EXPECT_NE(err.find("not a gordian trace"), std::string::npos) << err;
}

TEST_F(TraceTest, TruncatedHeader) {
  WriteBytes(Events(), std::string(kFileMagic, 8) + "abc");
  std::string err = ReadError();
  EXPECT_NE(err.find("truncated file"), std::string::npos) << err;
}

TEST_F(TraceTest, NewerVersion) {
  TraceWriter w;
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string bytes = ReadBytes(Events());
  uint32_t v = 7;
  memcpy(bytes.data() + offsetof(FileHeader, version), &v, 4);
  WriteBytes(Events(), bytes);
  err = ReadError();
  EXPECT_NE(err.find("trace format version 7 is newer than this gordian"), std::string::npos)
      << err;
}

TEST_F(TraceTest, BadRecordAndChunkSize) {
  TraceWriter w;
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string good = ReadBytes(Events());
  std::string bytes = good;
  uint32_t v = 32;
  memcpy(bytes.data() + offsetof(FileHeader, record_bytes), &v, 4);
  WriteBytes(Events(), bytes);
  EXPECT_NE(ReadError().find("record size 32"), std::string::npos);
  bytes = good;
  v = 3;
  memcpy(bytes.data() + offsetof(FileHeader, chunk_bytes), &v, 4);
  WriteBytes(Events(), bytes);
  EXPECT_NE(ReadError().find("chunk size 3"), std::string::npos);
}

// ---- side files

TEST_F(TraceTest, SideFilesTolerateBadAndTornLines) {
  TraceWriter w;
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  WriteBytes(dir_ + "/sites.txt",
             "1\t1\t/a.go\t3\tmain.f\n"
             "garbage\n"
             "3\t0\t/b c.go\t9\tmain.(*T).g.func1\t4\n"
             "4\t1\t/c.go\t1");  // torn
  WriteBytes(dir_ + "/strings.txt", "1\t\"a\\tb\"\n2\t\"unterminated\n");
  WriteBytes(dir_ + "/meta.txt", "exit=2\nnoequals\nx=a=b\n");
  Trace t = MustRead();
  ASSERT_EQ(t.sites.size(), 4u);
  EXPECT_EQ(t.sites[1].file, "/a.go");
  EXPECT_EQ(t.sites[2].file, "");
  EXPECT_EQ(t.sites[3].file, "/b c.go");
  EXPECT_EQ(t.sites[3].column, 4u);
  EXPECT_EQ(t.sites[3].function, "main.(*T).g.func1");
  EXPECT_TRUE(HasWarning(t, "sites.txt:2:"));
  EXPECT_TRUE(HasWarning(t, "sites.txt:4:"));
  EXPECT_TRUE(HasWarning(t, "torn last line"));
  EXPECT_EQ(t.strings[1], "a\tb");
  EXPECT_TRUE(HasWarning(t, "strings.txt:2:"));
  EXPECT_EQ(t.meta["exit"], "2");
  EXPECT_EQ(t.meta["x"], "a=b");
  EXPECT_TRUE(HasWarning(t, "meta.txt:2:"));
}

TEST(QuoteTest, RoundTrip) {
  std::mt19937 rng(7);
  for (int i = 0; i < 1000; i++) {
    std::string s(rng() % 20, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    std::string back;
    ASSERT_TRUE(Unquote(Quote(s), &back));
    EXPECT_EQ(back, s);
  }
  std::string out;
  EXPECT_TRUE(Unquote("\"\\u00e9\\101\"", &out));
  EXPECT_EQ(out, "\xc3\xa9" "A");
  for (const char* bad : {"", "\"", "x", "\"\\\"", "\"\\x4\"", "\"\\q\"", "\"a\"b\""}) {
    EXPECT_FALSE(Unquote(bad, &out)) << bad;
  }
}

// ---- garbage never crashes

TEST_F(TraceTest, RandomBytesAfterAValidHeader) {
  std::mt19937_64 rng(42);
  TraceWriter w(kSmallChunk);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string header = ReadBytes(Events()).substr(0, sizeof(FileHeader));
  for (int iter = 0; iter < 300; iter++) {
    std::string bytes = header;
    size_t n = rng() % (20 * kSmallChunk);
    for (size_t i = 0; i < n; i++) {
      // Bias toward small values and valid magics so that parsing gets deep.
      uint64_t r = rng();
      bytes += static_cast<char>(r % 4 == 0 ? r >> 8 : (r >> 8) % 32);
    }
    for (size_t c = 0; c * kSmallChunk + sizeof(FileHeader) + 4 <= bytes.size(); c++) {
      if (rng() % 2) memcpy(bytes.data() + ChunkOffset(c), &kChunkMagic, 4);
    }
    WriteBytes(Events(), bytes);
    Trace t;
    bool read = false;
    ASSERT_NO_FATAL_FAILURE(ReadDamaged(&t, &read));
  }
}

TEST_F(TraceTest, RandomMutationsOfAValidTrace) {
  TraceWriter w(kSmallChunk);
  WriteThree(&w);
  uint32_t d = w.Go(2);
  w.Go(d);
  std::string err;
  ASSERT_TRUE(w.Write(dir_, &err)) << err;
  std::string good = ReadBytes(Events());
  std::mt19937_64 rng(1);
  for (int iter = 0; iter < 1000; iter++) {
    std::string bytes = good;
    int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; k++) {
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
    WriteBytes(Events(), bytes);
    Trace t;
    bool read = false;
    ASSERT_NO_FATAL_FAILURE(ReadDamaged(&t, &read));
    if (!read) continue;
    for (const Record& r : t.records) {
      ASSERT_NE(r.kind, Kind::None);
      ASSERT_LT(static_cast<int>(r.kind), static_cast<int>(Kind::Count_));
      (void)t.SiteOf(r);
    }
  }
}

}  // namespace
}  // namespace gordian::trace
