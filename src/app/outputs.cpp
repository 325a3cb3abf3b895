#include "app/outputs.hpp"

#include <filesystem>
#include <regex>
#include <vector>

#include "app/recorder.hpp"

#include "io/obj_writer.hpp"
#include "io/output_path.hpp"
#include "io/stats_json.hpp"

namespace drape::app {

namespace {

struct NamedPath {
  std::string path;
  const char* what;           // the option, or what the input is
  bool checkWritable = true;  // here (a video is checked with its recording)
};

// Whether `file` is a frame a recording into `folder` writes.
bool isFrameOf(const std::string& file, const std::string& folder) {
  static const std::regex frame("frame_[0-9]{5,}\\.(png|obj)");
  const std::filesystem::path p(file);
  return std::regex_match(p.filename().string(), frame) &&
         io::samePath(p.parent_path().empty() ? "." : p.parent_path().string(), folder);
}

}  // namespace

Result<void> checkOutputs(const Options& o, const Session& session) {
  std::vector<NamedPath> files, folders;
  if (!o.statsPath.empty()) files.push_back({o.statsPath, "--stats"});
  if (!o.exportObjPath.empty()) files.push_back({o.exportObjPath, "--export-obj"});
  if (!o.saveScenePath.empty()) files.push_back({o.saveScenePath, "--save-scene"});
  if (!o.recordPath.empty()) {
    if (recordTargetFor(o.recordPath).format == RecordFormat::Mp4)
      files.push_back({o.recordPath, "--record", false});
    else
      folders.push_back({o.recordPath, "--record"});
  }
  if (!o.recordObjPath.empty()) folders.push_back({o.recordObjPath, "--record-obj"});
  // No output may replace another, an input, or a recording's frame.
  std::vector<NamedPath> inputs;
  if (o.meshPath.empty() && scene::looksLikeSceneFile(o.scene))
    inputs.push_back({o.scene, "the --scene input"});
  if (!session.meshPath().empty())
    inputs.push_back({session.meshPath(),
                      o.meshPath.empty() ? "the scene file's OBJ input" : "the --mesh input"});
  // Mesh colliders (--collider, a scene file's) are inputs too.
  for (const sim::Collider& c : session.world().colliders)
    if (c.kind == sim::ColliderKind::Mesh && c.mesh && !c.mesh->source.empty())
      inputs.push_back({c.mesh->source, "a mesh collider's OBJ input"});
  // A recording never writes a frame over an input in its folder.
  for (const NamedPath& d : folders)
    for (const NamedPath& in : inputs)
      if (isFrameOf(in.path, d.path))
        return fail(std::string(d.what) + " " + d.path + " would write a frame over " + in.what +
                    " " + in.path + "; record into another folder");
  for (std::size_t i = 0; i < files.size(); ++i) {
    const NamedPath& f = files[i];
    for (std::size_t j = i + 1; j < files.size(); ++j)
      if (io::samePath(f.path, files[j].path))
        return fail(std::string(f.what) + " and " + files[j].what + " name the same file " +
                    f.path + "; give each its own");
    for (const NamedPath& in : inputs)
      if (io::samePath(f.path, in.path))
        return fail(std::string(f.what) + " " + f.path + " is " + in.what +
                    "; writing it would destroy it (choose another name)");
    for (const NamedPath& d : folders)
      if (io::samePath(f.path, d.path) || isFrameOf(f.path, d.path))
        return fail(std::string(f.what) + " " + f.path + " is where " + d.what +
                    " writes its frames; choose another name");
  }
  // Then each file where it is to be written.
  for (const NamedPath& f : files)
    if (f.checkWritable)
      if (auto r = io::checkWritableFile(f.path, f.what); !r) return r;
  return {};
}

Result<void> writeOutputs(const Session& session, const Options& o) {
  if (!o.exportObjPath.empty())
    if (auto r = io::writeObj(o.exportObjPath, session.world()); !r) return r;
  if (!o.statsPath.empty()) {
    io::RunInfo run;
    run.scene = session.sceneName();
    run.frames = session.framesStepped();
    run.stepMs = session.stepMs();
    run.watchdogTripped = session.watchdogTripped();
    if (auto r = io::writeStats(o.statsPath, session.world(), run); !r) return r;
  }
  return {};
}

Result<void> saveSceneFile(const std::string& path, const scene::SceneFile& file) {
  auto text = scene::sceneFileTextFor(path, file);
  if (!text) return fail(text.error());
  return io::writeFileAtomically(path, text->data(), text->size());
}

}  // namespace drape::app
