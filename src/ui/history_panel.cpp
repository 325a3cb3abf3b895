// At the panel's foot: Undo and Redo naming what they give back, and the
// timeline's slider over the kept frames with the memory both hold.

#include <cstdio>
#include <string>

#include <imgui.h>

#include "ui/panel_sections.hpp"

namespace drape::ui {
namespace {

double megabytes(std::size_t bytes) {
  return double(bytes) / (1024.0 * 1024.0);
}

void hint(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
}

// A button that is greyed out (and does nothing) when `enabled` is false.
bool button(const char* label, bool enabled, float width) {
  ImGui::BeginDisabled(!enabled);
  const bool pressed = ImGui::Button(label, ImVec2(width, 0));
  ImGui::EndDisabled();
  return pressed && enabled;
}

}  // namespace

void drawHistoryControls(const PanelInput& in, PanelResult& out) {
  const HistoryStatus& h = in.history;
  const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2.0f;
  if (button("Undo", !h.undo.empty(), w)) out.undo = true;
  hint(h.undo.empty() ? "Nothing to undo (Ctrl+Z)" : ("Undo " + h.undo + " (Ctrl+Z)").c_str());
  ImGui::SameLine();
  if (button("Redo", !h.redo.empty(), w)) out.redo = true;
  hint(h.redo.empty() ? "Nothing to redo (Ctrl+Shift+Z)"
                      : ("Redo " + h.redo + " (Ctrl+Shift+Z)").c_str());
  ImGui::TextDisabled("undo %.1f MB of %.0f MB", megabytes(h.undoBytes), megabytes(h.undoBudget));

  if (h.frames < 2 || !h.scrubbable) {
    ImGui::TextDisabled(h.scrubbable ? "timeline: from the next frame on"
                                     : "timeline: off side by side");
    return;
  }
  int shown = h.shown < 0 ? h.frames - 1 : h.shown;
  const std::uint64_t frame = h.firstFrame + std::uint64_t(shown);
  char label[64];
  std::snprintf(label, sizeof label, "frame %llu", static_cast<unsigned long long>(frame));
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::SliderInt("##timeline", &shown, 0, h.frames - 1, label,
                       ImGuiSliderFlags_AlwaysClamp) &&
      shown != h.shown)
    out.scrubTo = shown;
  hint(
      "The last frames simulated: drag to show one (the run pauses). Play or Step goes on from "
      "the frame shown and drops the later ones.");
  ImGui::TextDisabled("kept %.1f s \xc2\xb7 %.0f MB of %.0f MB", h.span, megabytes(h.timelineBytes),
                      megabytes(h.timelineBudget));
}

}  // namespace drape::ui
