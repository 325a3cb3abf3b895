#include "ui/drop_choice.hpp"

#include <filesystem>

#include <imgui.h>

#include "ui/panel.hpp"

namespace drape::ui {

int drawDropChoice(const std::string& file) {
  if (file.empty()) return -1;
  const char* title = "Load the dropped OBJ";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + 0.5f * vp->Size.x, vp->Pos.y + 0.5f * vp->Size.y),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title, nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return -1;
  ImGui::Text("Load %s as", std::filesystem::path(file).filename().string().c_str());
  ImGui::Spacing();
  int choice = -1;
  const ImVec2 size(ImGui::GetFontSize() * 5.5f, 0.0f);
  if (ImGui::Button("Cloth", size)) choice = kLoadCloth;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The mesh becomes the cloth of a new scene.");
  ImGui::SameLine();
  if (ImGui::Button("Balloon", size)) choice = kLoadBalloon;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The mesh becomes a balloon (it must be closed) in a new scene.");
  ImGui::SameLine();
  if (ImGui::Button("Collider", size)) choice = kLoadCollider;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The mesh joins the current scene as a static collider; the cloth stays.");
  ImGui::SameLine();
  if (ImGui::Button("Cancel", size) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    choice = 0;
  if (choice >= 0) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return choice;
}

}  // namespace drape::ui
