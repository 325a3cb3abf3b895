#include "app/outputs.hpp"

#include "io/obj_writer.hpp"
#include "io/output_path.hpp"
#include "io/stats_json.hpp"

namespace drape::app {

Result<void> checkOutputs(const Options& o) {
  if (!o.statsPath.empty())
    if (auto r = io::checkWritableFile(o.statsPath, "--stats"); !r) return r;
  if (!o.exportObjPath.empty())
    if (auto r = io::checkWritableFile(o.exportObjPath, "--export-obj"); !r) return r;
  if (!o.saveScenePath.empty())
    if (auto r = io::checkWritableFile(o.saveScenePath, "--save-scene"); !r) return r;
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
    if (auto r = io::writeStats(o.statsPath, session.world(), run); !r) return r;
  }
  return {};
}

}  // namespace drape::app
