// Recording without a window: targets, checks before the run, PNG frames
// written and read back, and failures that stop the recording with a message
// (a vanished folder, a full disk, a dying ffmpeg) instead of killing the app.

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "app/recorder.hpp"
#include "app/window_state.hpp"
#include "io/output_path.hpp"
#include "io/png_writer.hpp"
#include "io/video_writer.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/thread_team.hpp"

namespace drape::app {
namespace {
namespace fs = std::filesystem;

// A fresh folder under the system's temporary folder, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/drape-rec-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A w × h image whose pixels depend on `seed`.
std::vector<std::uint8_t> image(int w, int h, int seed) {
  std::vector<std::uint8_t> rgb(std::size_t(w * h * 3));
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t((i * 7 + seed * 31) % 251);
  return rgb;
}

// PATH set to `value` for the life of the object.
struct ScopedPath {
  std::string old;
  explicit ScopedPath(const char* value) {
    const char* p = std::getenv("PATH");
    old = p ? p : "";
    ::setenv("PATH", value, 1);
  }
  ~ScopedPath() { ::setenv("PATH", old.c_str(), 1); }
};

TEST(RecordTarget, Mp4ByExtensionAnyCaseElseAFolder) {
  EXPECT_EQ(recordTargetFor("out.mp4").format, RecordFormat::Mp4);
  EXPECT_EQ(recordTargetFor("dir/Take.MP4").format, RecordFormat::Mp4);
  EXPECT_EQ(recordTargetFor("frames").format, RecordFormat::PngSequence);
  EXPECT_EQ(recordTargetFor("frames.mp4/").format, RecordFormat::PngSequence);
  EXPECT_EQ(recordTargetFor("mp4").format, RecordFormat::PngSequence);
}

TEST(RecordTarget, FolderIsCreatedOrRefused) {
  TempDir tmp;
  const fs::path nested = tmp.path / "a" / "b";
  ASSERT_TRUE(checkRecordTarget(recordTargetFor(nested.string()), "--record"));
  EXPECT_TRUE(fs::is_directory(nested));
  auto r = checkRecordTarget(recordTargetFor("/proc/drape-frames"), "--record");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rfind("--record /proc/drape-frames", 0), 0u) << r.error();
}

TEST(RecordTarget, VideoNeedsFfmpegOnPath) {
  TempDir tmp;
  ScopedPath none("/nonexistent");
  auto r = checkRecordTarget(recordTargetFor((tmp.path / "out.mp4").string()), "--record");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rfind("--record: ffmpeg not found", 0), 0u) << r.error();
}

TEST(Recorder, WritesNumberedPngFramesThatReadBack) {
  TempDir tmp;
  Recorder rec;
  ASSERT_TRUE(rec.start(recordTargetFor(tmp.path.string()), 60));
  EXPECT_TRUE(rec.recording());
  for (int i = 0; i < 3; ++i) {
    const auto rgb = image(33, 20, i);
    ASSERT_TRUE(rec.addFrame(33, 20, rgb.data()));
  }
  EXPECT_EQ(rec.frames(), 3);
  ASSERT_TRUE(rec.stop());
  EXPECT_FALSE(rec.recording());
  for (int i = 0; i < 3; ++i) {
    const fs::path file = tmp.path / io::frameFileName(i, ".png");
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(file.c_str(), &w, &h, &n, 3);
    ASSERT_NE(data, nullptr) << file;
    EXPECT_EQ(w, 33);
    EXPECT_EQ(h, 20);
    const auto expected = image(33, 20, i);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), data)) << "frame " << i;
    stbi_image_free(data);
  }
  EXPECT_FALSE(fs::exists(tmp.path / io::frameFileName(3, ".png")));
  EXPECT_EQ(io::frameFileName(42, ".png"), "frame_00042.png");
}

TEST(Recorder, AFolderThatVanishesMidwayStopsTheRecording) {
  TempDir tmp;
  const fs::path dir = tmp.path / "frames";
  Recorder rec;
  ASSERT_TRUE(rec.start(recordTargetFor(dir.string()), 60));
  const auto rgb = image(8, 8, 1);
  ASSERT_TRUE(rec.addFrame(8, 8, rgb.data()));
  fs::remove_all(dir);
  auto r = rec.addFrame(8, 8, rgb.data());
  ASSERT_FALSE(r);
  EXPECT_FALSE(rec.recording());
  EXPECT_NE(r.error().find("recording stopped after 1 frames"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("frame_00001.png"), std::string::npos) << r.error();
  EXPECT_TRUE(rec.addFrame(8, 8, rgb.data()));  // no longer recording: nothing happens
  EXPECT_EQ(rec.frames(), 1);
}

TEST(Recorder, ObjSequenceWritesTheClothAndStopsWhenTheFolderVanishes) {
  TempDir tmp;
  const fs::path dir = tmp.path / "meshes";
  auto world = scene::worldFromMesh(scene::makeGrid(4, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  Recorder rec;
  ASSERT_TRUE(rec.start(objSequenceTarget(dir.string()), 60));
  EXPECT_FALSE(rec.recordsPixels());
  ASSERT_TRUE(rec.recordFrame(0, 0, world.value()));  // no framebuffer needed
  ASSERT_TRUE(rec.addMesh(world.value()));
  ASSERT_TRUE(rec.stop());  // waits for the writer
  EXPECT_EQ(rec.frames(), 2);
  EXPECT_EQ(rec.framesBehind(), 0);
  EXPECT_TRUE(fs::exists(dir / "frame_00000.obj"));
  EXPECT_TRUE(fs::exists(dir / "frame_00001.obj"));
  EXPECT_FALSE(fs::exists(dir / "frame_00002.obj"));
  EXPECT_GT(rec.msPerFrame(), 0.0);

  // Again into the same folder (it has files now), which then vanishes: the
  // recording stops with the frame it could not write. Where the solver's
  // team fills every core, add() writes the frame and says so; where it runs
  // on one thread of several cores, the writer thread does, and stop() says
  // so. A cloth large enough for a thread per core (solverThreads); which
  // way a frame goes also depends on whether the team is shrunk on a busy
  // machine, so only the outcome is asserted.
  const int cores = sim::hardwareThreads();
  const int side = int(std::ceil(std::sqrt(1000.0 * cores))) + 2;
  auto big = scene::worldFromMesh(scene::makeGrid(side, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(big);
  for (int threads : {cores, 1}) {
    big->params.threads = threads;
    fs::create_directories(dir);
    std::ofstream(dir / "frame_00000.obj") << "kept\n";
    ASSERT_FALSE(rec.start(objSequenceTarget(dir.string()), 60));
    ASSERT_TRUE(rec.start(objSequenceTarget(dir.string(), true), 60));
    fs::remove_all(dir);
    auto added = rec.addMesh(big.value());
    auto stopped = rec.stop();
    ASSERT_NE(bool(added), bool(stopped)) << "exactly one reports the failure";
    const Result<void>& r = added ? stopped : added;
    ASSERT_FALSE(r);
    EXPECT_FALSE(rec.recording());
    EXPECT_NE(r.error().find("recording stopped after 0 frames"), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("frame_00000.obj"), std::string::npos) << r.error();
  }
}

TEST(RecordTarget, ThePanelsChoicesMapToTargets) {
  ui::PanelState state;
  state.recordOverwrite = true;
  state.recordFormat = ui::RecordChoice::ObjSequence;
  RecordTarget t = panelRecordTarget(state);
  EXPECT_EQ(t.format, RecordFormat::ObjSequence);
  EXPECT_EQ(t.path, "drape_meshes");
  EXPECT_TRUE(t.overwrite);
  state.recordFormat = ui::RecordChoice::PngSequence;
  t = panelRecordTarget(state);
  EXPECT_EQ(t.format, RecordFormat::PngSequence);
  EXPECT_EQ(t.path, "drape_frames");
  state.recordFormat = ui::RecordChoice::Mp4;
  t = panelRecordTarget(state);
  EXPECT_EQ(t.format, RecordFormat::Mp4);
  EXPECT_EQ(t.path, "drape.mp4");
}

TEST(RecordTarget, AFolderWithFilesNeedsOverwrite) {
  TempDir tmp;
  std::ofstream((tmp.path / "old.txt").string()) << "x";
  auto refused = checkRecordTarget(objSequenceTarget(tmp.path.string()), "--record-obj");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("is not empty; add --overwrite"), std::string::npos)
      << refused.error();
  auto panel = checkRecordTarget(recordTargetFor(tmp.path.string()), "record");
  ASSERT_FALSE(panel);
  EXPECT_NE(panel.error().find("tick overwrite"), std::string::npos) << panel.error();
  EXPECT_TRUE(checkRecordTarget(objSequenceTarget(tmp.path.string(), true), "--record-obj"));
  EXPECT_TRUE(checkRecordTarget(recordTargetFor(tmp.path.string(), true), "--record"));
}

TEST(PngWriter, AFullDiskIsAnError) {
  io::PngWriter png;
  const auto rgb = image(64, 64, 2);
  auto r = png.write("/dev/full", 64, 64, rgb.data());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("No space left"), std::string::npos) << r.error();
}

TEST(VideoWriter, FindsProgramsOnPath) {
  EXPECT_FALSE(io::findProgram("sh").empty());
  EXPECT_TRUE(io::findProgram("drape-no-such-program").empty());
  ScopedPath none("/nonexistent");
  EXPECT_TRUE(io::findProgram("sh").empty());
}

TEST(VideoWriter, RefusesOddSides) {
  io::VideoWriter video;
  auto r = video.open("ffmpeg", "/tmp/never.mp4", 641, 360, 60);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("even"), std::string::npos);
}

TEST(VideoWriter, EncodesFramesIntoAFile) {
  const std::string ffmpeg = io::findProgram("ffmpeg");
  if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed";
  TempDir tmp;
  Recorder rec;
  ASSERT_TRUE(rec.start(recordTargetFor((tmp.path / "take.mp4").string()), 60));
  for (int i = 0; i < 12; ++i) {
    const auto rgb = image(64, 48, i);
    ASSERT_TRUE(rec.addFrame(64, 48, rgb.data()));
  }
  ASSERT_TRUE(rec.stop());
  EXPECT_GT(fs::file_size(tmp.path / "take.mp4"), 0u);
}

TEST(VideoWriter, LeavesNoLogFileBehindEvenWhileOpen) {
  // ffmpeg's log is an unlinked temporary file: a kill leaves nothing.
  const std::string ffmpeg = io::findProgram("ffmpeg");
  if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed";
  auto logs = [] {
    int n = 0;
    for (const auto& e : fs::directory_iterator("/tmp"))
      n += e.path().filename().string().rfind("drape-ffmpeg-", 0) == 0 ? 1 : 0;
    return n;
  };
  const int before = logs();  // left by older versions, if any
  TempDir tmp;
  io::VideoWriter video;
  ASSERT_TRUE(video.open(ffmpeg, (tmp.path / "take.mp4").string(), 64, 48, 30));
  EXPECT_EQ(logs(), before);
  const auto rgb = image(64, 48, 1);
  ASSERT_TRUE(video.write(rgb.data()));
  EXPECT_TRUE(video.close());
  EXPECT_EQ(logs(), before);
}

TEST(VideoWriter, AFullDiskStopsItWithFfmpegsReason) {
  const std::string ffmpeg = io::findProgram("ffmpeg");
  if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed";
  io::VideoWriter video;
  ASSERT_TRUE(video.open(ffmpeg, "/dev/full", 320, 240, 60));
  const auto rgb = image(320, 240, 3);
  // ffmpeg fails at its first write of the file; the pipe then breaks (no
  // SIGPIPE death) or, if every frame fit into the pipe, closing says so.
  Result<void> r;
  for (int i = 0; i < 600 && r; ++i) r = video.write(rgb.data());
  if (r) r = video.close();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("ffmpeg"), std::string::npos) << r.error();
  EXPECT_FALSE(video.isOpen());
}

}  // namespace
}  // namespace drape::app
