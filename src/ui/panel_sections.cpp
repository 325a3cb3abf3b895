#include "ui/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <imgui.h>

#include "sim/sim.hpp"
#include "ui/param_widgets.hpp"
#include "ui/theme.hpp"

namespace drape::ui {
namespace {

constexpr float kPlotSeconds = 5.0f;  // the step-time plot shows this much recent history

struct PlotData {
  const double* values;
};
float plotValue(void* data, int i) {
  return float(static_cast<PlotData*>(data)->values[i]);
}

// Hover help for the item just drawn.
void tooltip(const char* text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 22.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void sceneCombo(const PanelInput& in, PanelResult& out) {
  if (!in.scenes || in.scenes->empty()) return;
  const int n = int(in.scenes->size());
  if (ImGui::BeginCombo("scene", in.sceneName ? in.sceneName : "")) {
    for (int i = 0; i < n; ++i) {
      const bool selected = i == in.currentScene;
      if (ImGui::Selectable((*in.scenes)[std::size_t(i)], selected) && !selected)
        out.switchToScene = i;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
}

void keepSettingsBox(PanelState& state) {
  ImGui::Checkbox("keep my settings", &state.keepSettings);
  tooltip(
      "Off: a scene picked from the list starts with its own parameters. On: the "
      "parameters you changed (from --set, a scene file or this panel) go along to it.");
}

void meshFacts(const PanelInput& in) {
  const SceneFacts& f = in.facts;
  ImGui::TextDisabled("%zu vertices, %zu triangles", f.vertices, f.triangles);
  ImGui::TextDisabled("%s, %zu piece%s, %zu pin%s", f.closed ? "closed" : "open", f.pieces,
                      f.pieces == 1 ? "" : "s", in.world->pins.size(),
                      in.world->pins.size() == 1 ? "" : "s");
  if (!f.repairs || f.repairs->empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kWarning);
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& r : *f.repairs) {
    // The loader's lines start with the file's path; the panel already
    // names the cloth's file, so only what was done is shown (with the file
    // name for another file: a collider's).
    const std::size_t colon = r.find(": ");
    ImGui::Bullet();
    if (colon == std::string::npos) {
      ImGui::TextUnformatted(r.c_str());
      continue;
    }
    const std::string file = std::filesystem::path(r.substr(0, colon)).filename().string();
    if (file == in.sceneName)
      ImGui::TextUnformatted(r.c_str() + colon + 2);
    else
      ImGui::Text("%s: %s", file.c_str(), r.c_str() + colon + 2);
  }
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// The scene's colliders, each with a button that removes it (not those that
// show rigid bodies: they go with their bodies).
void colliderList(const PanelInput& in, PanelResult& out) {
  if (!in.colliders) return;
  ImGui::Spacing();
  std::size_t total = 0;
  for (const ColliderRow& row : *in.colliders) total += row.count;
  ImGui::TextDisabled("colliders: %zu", total);
  const float button = ImGui::CalcTextSize("Remove").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  for (std::size_t i = 0; i < in.colliders->size(); ++i) {
    const ColliderRow& row = (*in.colliders)[i];
    ImGui::PushID(int(i));
    ImGui::AlignTextToFramePadding();
    ImGui::Bullet();
    ImGui::TextUnformatted(row.label.c_str());
    if (row.removable) {
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - button);
      if (ImGui::Button("Remove")) {
        out.removeCollider = int(row.first);
        out.removeCount = int(row.count);
      }
      tooltip(row.count > 1 ? "Take these colliders out of the scene; the cloth goes on. Reset "
                              "keeps them out."
                            : "Take this collider out of the scene; the cloth goes on. Reset "
                              "keeps it out.");
    } else {
      ImGui::SameLine();
      ImGui::TextDisabled("(rigid body)");
    }
    ImGui::PopID();
  }
}

// Scene files: save the current scene (parameters, pins, colliders, camera)
// through the browser or to the path in the field (Ctrl+S), or load one.
void sceneFileRow(const PanelInput& in, PanelState& state, PanelResult& out) {
  ImGui::Spacing();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float full = ImGui::GetContentRegionAvail().x;
  const float half = (full - gap) * 0.5f;
  if (ImGui::Button("Save scene...", ImVec2(half, 0))) out.saveSceneAs = true;
  tooltip(
      "Write the scene as a JSON scene file: every parameter, the pins, the colliders and "
      "the camera. drape --scene FILE.json reruns it bit for bit.");
  ImGui::SameLine(0.0f, gap);
  if (ImGui::Button("Load scene...", ImVec2(half, 0))) out.openSceneFile = true;
  tooltip("Load a JSON scene file (Ctrl+L).");
  ImGui::TextDisabled("scene file (Ctrl+S saves here)");
  ImGui::SetNextItemWidth(full);
  ImGui::InputText("##scenefile", state.scenePath, sizeof state.scenePath);
  tooltip("Where Ctrl+S writes the scene, and where Save scene... starts.");
  if (in.sceneSaved && in.sceneSaved[0]) ImGui::TextDisabled("saved %s", in.sceneSaved);
}

// Side by side: the same scene twice, the right one with other settings.
void compareRow(PanelState& state, PanelResult& out) {
  ImGui::Spacing();
  if (ImGui::Checkbox("Side by side", &state.compare)) out.compareChanged = true;
  tooltip(
      "Run the scene twice from its start, side by side: the left with the parameters "
      "as set, the right with the settings below on top (KEY=VALUE, separated by spaces). "
      "Parameter changes apply to both; the tools act on the left.");
  ImGui::TextDisabled("right side's settings (Enter applies)");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::InputText("##compare", state.compareSets, sizeof state.compareSets,
                       ImGuiInputTextFlags_EnterReturnsTrue) &&
      state.compare)
    out.compareChanged = true;
  tooltip("KEY=VALUE settings, separated by spaces, e.g. solver=mass-spring iterations=20.");
}

// One parameter's widget; a change goes to out.edited (for those that
// rebuild the scene, once the widget is let go).
void drawParam(const sim::ParamDesc& desc, const PanelInput& in, PanelState& state,
               PanelResult& out, sim::Params& params) {
  const bool changed = drawParamWidget(desc, params);
  const sim::World& world = *in.world;
  if (std::strcmp(desc.name, "substeps") == 0 && world.stats.substeps > params.substeps) {
    if (world.stats.crossingFactor > 1)
      ImGui::TextDisabled("taking %d while the cloth passes through itself (crossing_substeps)",
                          world.stats.substeps);
    else
      ImGui::TextDisabled("taking %d: the mass-spring solver's stability needs them",
                          world.stats.substeps);
  }
  if (!desc.rebuild) {
    if (changed) out.edited = params;
    return;
  }
  // Rebuild-marked: hold the value while the widget is active, apply it
  // once the user lets go (or at once for widgets that are never held).
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit() || (changed && !active)) {
    out.edited = params;
    state.held = nullptr;
  } else if (active && (changed || state.held == &desc)) {
    state.held = &desc;
    state.heldParams = params;
  } else if (state.held == &desc) {
    state.held = nullptr;
  }
}

}  // namespace

void drawSceneSection(const PanelInput& in, PanelState& state, PanelResult& out) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  sceneCombo(in, out);
  keepSettingsBox(state);
  if (ImGui::Button("Load OBJ...", ImVec2(ImGui::CalcItemWidth(), 0))) out.openMesh = true;
  tooltip(
      "Load a Wavefront OBJ file as the scene, or as a collider added to it (Ctrl+O); or drop "
      "one on the window.");
  // How the next file loads, with the names of the command line's --as
  // and --pin.
  static const char* const kAs[] = {"auto", "cloth", "balloon", "collider"};
  static const char* const kPin[] = {"none", "top"};
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  const float combo =
      (ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("as").x -
       ImGui::CalcTextSize("pin").x - 4.0f * gap - ImGui::GetStyle().ItemSpacing.x) *
      0.5f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("as");
  ImGui::SameLine(0.0f, gap);
  ImGui::SetNextItemWidth(combo);
  ImGui::Combo("##as", &state.loadAs, kAs, 4);
  tooltip(
      "What a loaded mesh becomes: auto makes closed meshes balloons, open ones cloth; "
      "collider adds it to the scene as a static collider, keeping the cloth.");
  ImGui::SameLine(0.0f, 2.0f * gap);
  ImGui::TextDisabled("pin");
  ImGui::SameLine(0.0f, gap);
  ImGui::SetNextItemWidth(combo);
  ImGui::BeginDisabled(state.loadAs == kLoadCollider);
  ImGui::Combo("##pin", &state.loadPin, kPin, 2);
  ImGui::EndDisabled();
  tooltip("Pins for a loaded mesh: none (it falls), or top (its highest vertices).");
  static const char* const kUp[] = {"y", "z"};
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("up");
  ImGui::SameLine(0.0f, gap);
  ImGui::SetNextItemWidth(combo - (ImGui::CalcTextSize("up").x - ImGui::CalcTextSize("as").x));
  ImGui::Combo("##up", &state.loadUp, kUp, 2);
  tooltip("The file's up axis: y, or z (Blender's and many CAD exports), turned to drape's y.");
  ImGui::SameLine(0.0f, 2.0f * gap);
  ImGui::TextDisabled("scale");
  ImGui::SameLine(0.0f, gap);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::InputFloat("##scale", &state.loadScale, 0.0f, 0.0f, "%g"))
    state.loadScale =
        std::clamp(std::isfinite(state.loadScale) ? state.loadScale : 1.0f, 1e-6f, 1e6f);
  tooltip("File units to metres: 0.01 for a file in centimetres, 0.001 in millimetres.");
  meshFacts(in);
  colliderList(in, out);
  sceneFileRow(in, state, out);
  compareRow(state, out);
  ImGui::Spacing();
}

// Every parameter of the table, one tree node per group (in table order).
void drawParameterSection(const PanelInput& in, PanelState& state, PanelResult& out) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // The groups' tree nodes under an ID of their own: the "scene" group
  // would otherwise share its ID with the Scene section's "scene" combo,
  // and a click on it would never open it.
  ImGui::PushID("parameters");
  sim::Params params = in.world->params;
  if (state.held) state.held->set(params, state.held->get(state.heldParams));
  // One tree node per group, in the order the groups first appear in the
  // table; each holds its parameters in table order.
  std::vector<const char*> groups;
  for (const sim::ParamDesc& desc : sim::paramTable())
    if (std::none_of(groups.begin(), groups.end(),
                     [&](const char* g) { return std::strcmp(g, desc.group) == 0; }))
      groups.push_back(desc.group);
  for (const char* group : groups) {
    // What is tuned most often is open at first; the panel stays short
    // enough for a 720-pixel window.
    const bool byDefault =
        std::strcmp(group, "material") == 0 || std::strcmp(group, "environment") == 0;
    if (!ImGui::TreeNodeEx(group, byDefault ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
    for (const sim::ParamDesc& desc : sim::paramTable())
      if (std::strcmp(desc.group, group) == 0) drawParam(desc, in, state, out, params);
    ImGui::TreePop();
  }
  ImGui::PopID();
  ImGui::Spacing();
}

void drawRecordSection(const PanelInput& in, PanelState& state, PanelResult& out) {
  const RecordStatus& r = in.record;
  // The header says when recording, even folded.
  const char* header = r.recording ? "Record  (recording)###Record" : "Record###Record";
  if (!ImGui::CollapsingHeader(header)) return;
  ImGui::BeginDisabled(r.recording);
  int format = int(state.recordFormat);
  ImGui::RadioButton("PNG", &format, int(RecordChoice::PngSequence));
  tooltip("PNG frames of the view (or the whole window)");
  ImGui::SameLine();
  ImGui::BeginDisabled(!r.videoAvailable);
  ImGui::RadioButton("MP4", &format, int(RecordChoice::Mp4));
  ImGui::EndDisabled();
  tooltip(r.videoAvailable ? "an MP4 video of the view (or the whole window)"
                           : "needs ffmpeg, which is not installed (not on PATH)");
  ImGui::SameLine();
  ImGui::RadioButton("OBJ sequence", &format, int(RecordChoice::ObjSequence));
  tooltip("the cloth itself, one OBJ mesh per frame (for Blender and other tools)");
  state.recordFormat = RecordChoice(format);
  switch (state.recordFormat) {
    case RecordChoice::Mp4:
      ImGui::InputText("file", state.recordVideo, sizeof state.recordVideo);
      tooltip("The video file (.mp4), written through ffmpeg at 1/dt frames per second.");
      break;
    case RecordChoice::ObjSequence:
      ImGui::InputText("folder", state.recordMeshFolder, sizeof state.recordMeshFolder);
      tooltip(
          "The cloth of every frame goes into this folder as frame_00000.obj, "
          "frame_00001.obj, ... (created if needed): positions, UVs, normals, triangles.");
      break;
    case RecordChoice::PngSequence:
      ImGui::InputText("folder", state.recordFolder, sizeof state.recordFolder);
      tooltip(
          "Frames go into this folder as frame_00000.png, frame_00001.png, ... "
          "(created if needed).");
      break;
  }
  if (state.recordFormat != RecordChoice::ObjSequence) {
    ImGui::Checkbox("whole window", &state.recordWholeWindow);
    tooltip(
        "Off: the 3D view alone, without the panels, toolbar and REC badge. On: the whole "
        "window as you see it.");
  }
  if (state.recordFormat != RecordChoice::Mp4) {
    if (state.recordFormat != RecordChoice::ObjSequence) ImGui::SameLine();
    ImGui::Checkbox("overwrite", &state.recordOverwrite);
    tooltip(
        "Write into the folder even when it already has files (frames of the same "
        "name are replaced).");
  }
  ImGui::EndDisabled();
  const ImVec2 size(ImGui::CalcItemWidth(), 0);
  if (r.recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, theme::kRecord);
    if (ImGui::Button("Stop recording", size)) out.stopRecording = true;
    ImGui::PopStyleColor();
    ImGui::Text("%d frames, %.1f ms each to write", r.frames, r.msPerFrame);
    if (r.behind > 0) ImGui::TextDisabled("the writer is %d frames behind", r.behind);
    tooltip(
        "Writing adds this to every frame: the simulation keeps its own time step, "
        "so a slow writer slows the run down, it never skips a frame.");
  } else {
    if (ImGui::Button("Start recording", size)) out.startRecording = true;
    tooltip(
        "One file per simulated frame: an image of the view (or the whole window), or the "
        "cloth's mesh. "
        "The simulation's time step stays as it is; recording only makes frames take "
        "longer.");
    if (r.frames > 0) ImGui::TextDisabled("last: %d frames in %s", r.frames, r.target);
  }
  ImGui::Spacing();
}

void drawStatsSection(const PanelInput& in, PanelState& state) {
  // Open from the start: the frame rate is the first thing a new user looks for.
  state.statsOpen = ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen);
  if (!state.statsOpen) return;
  // Every line wraps at the panel's edge rather than running past it.
  ImGui::PushTextWrapPos(0.0f);
  drawStats(in);
  ImGui::PopTextWrapPos();
}

void drawStats(const PanelInput& in) {
  const sim::World& world = *in.world;
  const sim::StepTimings& t = world.stats.timings;
  ImGui::Text("%.0f fps   %.2f ms per step", double(in.fps), t.total);
  if (in.compareStepMs >= 0.0) ImGui::Text("right side: %.2f ms per step", in.compareStepMs);
  if (ImGui::BeginTable("phases", 4, ImGuiTableFlags_SizingStretchProp)) {
    const struct {
      const char* name;
      double ms;
    } phases[] = {{"predict", t.predict}, {"collide", t.collisions}, {"self", t.selfCollision},
                  {"solve", t.solve},     {"update", t.update},      {"tear", t.tear}};
    for (const auto& p : phases) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", p.name);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", p.ms);
    }
    ImGui::EndTable();
  }
  if (in.stepMs && !in.stepMs->empty()) {
    const int wanted = std::clamp(int(in.fps * kPlotSeconds), 30, 600);
    const int count = std::min(int(in.stepMs->size()), wanted);
    PlotData data{in.stepMs->data() + (in.stepMs->size() - std::size_t(count))};
    double peak = 0.0;
    for (int i = 0; i < count; ++i) peak = std::max(peak, data.values[i]);
    char overlay[48];
    std::snprintf(overlay, sizeof overlay, "step ms, last %.0f s (max %.1f)", double(kPlotSeconds),
                  peak);
    ImGui::PlotLines("##steps", plotValue, &data, count, 0, overlay, 0.0f, float(peak * 1.15),
                     ImVec2(ImGui::GetContentRegionAvail().x, 48.0f));
  }
  const sim::Cloth& cloth = world.cloth;
  const std::size_t bend = world.params.bending == sim::BendingModel::Isometric
                               ? cloth.isoBend.size()
                               : cloth.bend.size();
  ImGui::Text("%zu stretch, %zu bend constraints", cloth.stretch.size(), bend);
  const sim::StrainStats strain = sim::strainStats(world);
  // Two lines: the three figures on one are wider than the panel.
  ImGui::Text("strain: mean %.2f %%, p99 %.2f %%", 100.0 * double(strain.mean),
              100.0 * double(strain.p99));
  ImGui::Text("strain: max %.1f %%", 100.0 * double(strain.max));
  ImGui::Text("%zu pins, %zu tethers", world.pins.size(), world.stats.tethers);
  if (world.stats.selfCollisionTooDense)
    ImGui::TextColored(theme::kError, "%s", sim::kSelfCollisionTooDense);
  if (!in.crossings)
    ImGui::TextDisabled("crossings: too dense to count");
  else if (*in.crossings == 0)
    ImGui::Text("crossings: 0");
  else
    ImGui::TextColored(theme::kError, "crossings: %zu edges through triangles (magenta in Strain)",
                       *in.crossings);
  ImGui::Text("self contacts: %zu (%zu pushed)", world.stats.selfContacts,
              world.stats.selfContactsActive);
  // Self contacts keep less than the thickness on a fine mesh (selfThickness()).
  if (world.params.self_collision != 0 && world.stats.selfThickness > 0.0f &&
      world.stats.selfThickness < world.params.thickness)
    ImGui::Text("self-collision gap: %.1f mm (%.2f of an edge)",
                double(world.stats.selfThickness) * 1e3,
                double(sim::tuning::kSelfThicknessPerEdge));
  if (world.tornEdges > 0) ImGui::Text("torn edges: %llu", (unsigned long long)world.tornEdges);
}

}  // namespace drape::ui
