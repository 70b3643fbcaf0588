// This file implements TraceWriter (writer.h).
#include "gordian/trace/writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "gordian/trace/side_files.h"

namespace gordian::trace {
namespace {

bool WriteWhole(const std::string& path, const std::string& data, std::string* err) {
  FILE* f = fopen(path.c_str(), "wb");
  if (f == nullptr) {
    *err = fmt::format("{}: cannot create: {}", path, strerror(errno));
    return false;
  }
  bool ok = fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = fclose(f) == 0 && ok;
  if (!ok) *err = fmt::format("{}: write failed: {}", path, strerror(errno));
  return ok;
}

}  // namespace

TraceWriter::TraceWriter(uint32_t chunk_bytes) {
  memcpy(header_.magic, kFileMagic, sizeof header_.magic);
  header_.version = kFormatVersion;
  header_.chunk_bytes = chunk_bytes;
  header_.record_bytes = sizeof(Record);
  per_chunk_ = (chunk_bytes - sizeof(ChunkHeader)) / sizeof(Record);
  gs_.resize(1);  // main
  sites_.resize(1);
  strings_.resize(1);
}

uint32_t TraceWriter::AddSite(std::string file, uint32_t line, std::string function,
                              bool user, uint32_t column) {
  Site s;
  s.file = std::move(file);
  s.line = line;
  s.column = column;
  s.function = std::move(function);
  s.user = user;
  sites_.push_back(std::move(s));
  return static_cast<uint32_t>(sites_.size() - 1);
}

uint32_t TraceWriter::AddString(std::string s) {
  strings_.push_back(std::move(s));
  return static_cast<uint32_t>(strings_.size() - 1);
}

void TraceWriter::SetMeta(std::string key, std::string value) {
  meta_[std::move(key)] = std::move(value);
}

TraceWriter::G& TraceWriter::GetOrCreate(uint32_t gid) {
  while (gid > gs_.size() && gid <= gs_.size() + kMaxSkippedGids) gs_.emplace_back();
  return gs_.at(gid - 1);
}

RecordRef TraceWriter::Append(uint32_t gid, const Record& r) {
  G& g = GetOrCreate(gid);
  if (g.records.size() % per_chunk_ == 0) g.chunks.push_back(next_chunk_++);
  g.records.push_back(r);
  return {gid, static_cast<uint32_t>(g.records.size() - 1)};
}

uint32_t TraceWriter::Go(uint32_t parent, uint32_t site) {
  uint32_t child = static_cast<uint32_t>(gs_.size() + 1);
  uint32_t index = GetOrCreate(parent).children++;
  uint32_t t = Now();
  Append(parent, Record{Kind::GoSpawn, 0, 0, site, t, t, child, index});
  t = Now();
  Append(child, Record{Kind::GoStart, 0, 0, site, t, t, parent, index});
  return child;
}

RecordRef TraceWriter::Op(uint32_t gid, Kind kind, uint32_t obj, uint32_t val,
                          uint32_t site, uint8_t flags, uint16_t aux) {
  uint32_t t = Now();
  return Append(gid, Record{kind, flags, aux, site, t, t, obj, val});
}

RecordRef TraceWriter::Pre(uint32_t gid, Kind kind, uint32_t obj, uint32_t site,
                           uint8_t flags, uint16_t aux) {
  return Append(gid, Record{kind, flags, aux, site, Now(), 0, obj, 0});
}

void TraceWriter::Post(RecordRef r, uint32_t val, uint8_t flags) {
  Record& rec = At(r);
  rec.val = val;
  rec.flags |= flags;
  rec.tpost = Now();
}

bool TraceWriter::Write(const std::string& dir, std::string* err) const {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    *err = fmt::format("{}: cannot create directory: {}", dir, ec.message());
    return false;
  }
  const size_t chunk_bytes = header_.chunk_bytes;
  std::string data(sizeof(FileHeader) + next_chunk_ * chunk_bytes, '\0');
  memcpy(data.data(), &header_, sizeof header_);
  for (size_t gi = 0; gi < gs_.size(); gi++) {
    const G& g = gs_[gi];
    for (size_t k = 0; k < g.chunks.size(); k++) {
      char* c = data.data() + sizeof(FileHeader) + g.chunks[k] * chunk_bytes;
      ChunkHeader h{kChunkMagic, static_cast<uint32_t>(gi + 1), static_cast<uint32_t>(k), {}};
      memcpy(c, &h, sizeof h);
      size_t first = k * per_chunk_;
      size_t n = std::min<size_t>(per_chunk_, g.records.size() - first);
      memcpy(c + sizeof(ChunkHeader), g.records.data() + first, n * sizeof(Record));
    }
  }
  if (!WriteWhole(dir + "/events.bin", data, err)) return false;

  std::string text;
  for (size_t i = 1; i < sites_.size(); i++) {
    text += FormatSiteLine(static_cast<uint32_t>(i), sites_[i]);
    text += '\n';
  }
  if (!WriteWhole(dir + "/sites.txt", text, err)) return false;
  text.clear();
  for (size_t i = 1; i < strings_.size(); i++) {
    text += FormatStringLine(static_cast<uint32_t>(i), strings_[i]);
    text += '\n';
  }
  if (!WriteWhole(dir + "/strings.txt", text, err)) return false;
  text.clear();
  for (const auto& [k, v] : meta_) {
    text += FormatMetaLine(k, v);
    text += '\n';
  }
  return WriteWhole(dir + "/meta.txt", text, err);
}

}  // namespace gordian::trace
