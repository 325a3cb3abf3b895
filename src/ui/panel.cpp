#include "ui/panel.hpp"

#include <algorithm>

#include <imgui.h>

#include "ui/panel_sections.hpp"

namespace drape::ui {
namespace {

constexpr float kPanelWidth = 320.0f;

// Room right of the widgets for the longest label: the parameter names, and
// the panel's own few.
float labelWidth() {
  float widest = ImGui::CalcTextSize("scene").x;
  const float space = ImGui::CalcTextSize(" ").x;
  for (const sim::ParamDesc& d : sim::paramTable()) {
    float w = ImGui::CalcTextSize(d.name).x;
    // Three-field widgets carry their unit in the label (param_widgets.cpp).
    if (d.type == sim::ParamType::Vec3 && d.unit[0]) w += space + ImGui::CalcTextSize(d.unit).x;
    widest = std::max(widest, w);
  }
  return widest + ImGui::GetStyle().ItemInnerSpacing.x + 4.0f;
}

void drawRunControls(const PanelInput& in, PanelResult& out) {
  const float w =
      (ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  if (ImGui::Button(in.playing ? "Pause" : "Play", ImVec2(w, 0))) out.togglePlay = true;
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(w, 0))) out.step = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(w, 0))) out.reset = true;
}

}  // namespace

float panelWidth(float windowWidth) {
  return std::min(kPanelWidth, 0.4f * windowWidth);
}

PanelResult drawSidePanel(const PanelInput& in, PanelState& state) {
  PanelResult out;
  if (!in.world) return out;
  // Undo, redo and the timeline in a strip at the panel's foot, so that
  // the sections above keep their places.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float strip = 2.0f * ImGui::GetFrameHeightWithSpacing() +
                      2.0f * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.WindowPadding.y;
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(panelWidth(in.windowWidth), in.windowHeight - strip),
                           ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings;
  ImGui::Begin("drape", nullptr, flags);
  // Widgets leave room on their right for the longest parameter name.
  ImGui::PushItemWidth(-labelWidth());
  drawRunControls(in, out);
  ImGui::Spacing();
  drawSceneSection(in, state, out);
  drawParameterSection(in, state, out);
  drawRecordSection(in, state, out);
  drawStatsSection(in, state);
  out.editing = ImGui::IsAnyItemActive();
  ImGui::PopItemWidth();
  ImGui::End();
  ImGui::SetNextWindowPos(ImVec2(0.0f, in.windowHeight - strip), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(panelWidth(in.windowWidth), strip), ImGuiCond_Always);
  ImGui::Begin("drape history", nullptr, flags | ImGuiWindowFlags_NoScrollbar);
  drawHistoryControls(in, out);
  ImGui::End();
  return out;
}

}  // namespace drape::ui
