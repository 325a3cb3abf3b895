#include "ui/panel.hpp"

#include <algorithm>
#include <cfloat>
#include <cstring>

#include <imgui.h>

#include "ui/param_widgets.hpp"

namespace drape::ui {
namespace {

constexpr float kPanelWidth = 320.0f;
constexpr float kLabelWidth = 96.0f;
constexpr int kPlotFrames = 240;  // step times shown in the plot

const ImVec4 kErrorColor(1.0f, 0.38f, 0.35f, 1.0f);

struct PlotData {
  const double* values;
};
float plotValue(void* data, int i) {
  return float(static_cast<PlotData*>(data)->values[i]);
}

void drawRunControls(const PanelInput& in, PanelResult& out) {
  const float w =
      (ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  if (ImGui::Button(in.playing ? "Pause" : "Play", ImVec2(w, 0))) out.togglePlay = true;
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(w, 0))) out.step = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(w, 0))) out.reset = true;

  if (in.scenes && !in.scenes->empty()) {
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
}

void drawPerformance(const PanelInput& in) {
  const sim::World& world = *in.world;
  const sim::StepTimings& t = world.timings;
  ImGui::Text("%.0f fps   %.2f ms per step", double(in.fps), t.total);
  ImGui::TextDisabled("predict %.2f   collisions %.2f", t.predict, t.collisions);
  ImGui::TextDisabled("solve %.2f   update %.2f", t.solve, t.update);
  if (in.stepMs && !in.stepMs->empty()) {
    const int count = std::min(int(in.stepMs->size()), kPlotFrames);
    PlotData data{in.stepMs->data() + (in.stepMs->size() - std::size_t(count))};
    ImGui::PlotLines("##steps", plotValue, &data, count, 0, "step ms", 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, 32.0f));
  }
  const sim::Cloth& cloth = world.cloth;
  const std::size_t bend = world.params.bending == sim::BendingModel::Isometric
                               ? cloth.isoBend.size()
                               : cloth.bend.size();
  ImGui::Text("%zu vertices, %zu triangles, %zu pins", world.vertexCount(), cloth.triangles.size(),
              world.pins.size());
  ImGui::Text("constraints: %zu stretch, %zu bend", cloth.stretch.size(), bend);
}

// Every parameter of the table, under one header per group (in table order).
void drawParameters(const PanelInput& in, PanelState& state, PanelResult& out) {
  sim::Params params = in.world->params;
  if (state.held) state.held->set(params, state.held->get(state.heldParams));
  const char* group = nullptr;
  bool open = false;
  for (const sim::ParamDesc& desc : sim::paramTable()) {
    if (!group || std::strcmp(group, desc.group) != 0) {
      group = desc.group;
      ImGui::Spacing();
      open = ImGui::CollapsingHeader(group, ImGuiTreeNodeFlags_DefaultOpen);
    }
    if (!open) continue;
    const bool changed = drawParamWidget(desc, params);
    if (!desc.rebuild) {
      if (changed) out.edited = params;
      continue;
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
}

}  // namespace

float panelWidth(float windowWidth) {
  return std::min(kPanelWidth, 0.4f * windowWidth);
}

PanelResult drawSimulationPanel(const PanelInput& in, PanelState& state) {
  PanelResult out;
  if (!in.world) return out;
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(panelWidth(in.windowWidth), in.windowHeight), ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings;
  ImGui::Begin("drape", nullptr, flags);
  // Widgets leave room on their right for the longest parameter name.
  ImGui::PushItemWidth(-kLabelWidth);
  drawRunControls(in, out);
  if (in.error && !in.error->empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", in.error->c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  drawPerformance(in);
  drawParameters(in, state, out);
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextDisabled("Space pause  S step  R reset  ^Q quit");
  ImGui::TextDisabled("drag orbit, right-drag pan, wheel zoom");
  ImGui::PopItemWidth();
  ImGui::End();
  return out;
}

}  // namespace drape::ui
