// The question a drop on the window asks (ui/drop_choice.hpp), answered
// with the mouse and the keyboard in a Dear ImGui context without a window:
// each button gives the Scene panel's choice it names, Cancel and Escape 0,
// and nothing is asked without a file.

#include <algorithm>
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "ui/drop_choice.hpp"
#include "ui/panel.hpp"

namespace drape::ui {
namespace {

class Frames {
 public:
  Frames() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280.0f, 720.0f);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~Frames() { ImGui::DestroyContext(); }
  Frames(const Frames&) = delete;
  Frames& operator=(const Frames&) = delete;

  int frame(const std::string& file) {
    ImGui::NewFrame();
    const int choice = drawDropChoice(file);
    ImGui::Render();
    return choice;
  }
  // The middle of the question's button `label`, found by hovering.
  ImVec2 button(const std::string& file, const char* label) {
    ImGuiWindow* w = ImGui::FindWindowByName("Load the dropped OBJ");
    if (!w) return ImVec2(-1.0f, -1.0f);
    const ImGuiID id = w->GetID(label);
    ImVec2 lo(1e9f, 1e9f), hi(-1e9f, -1e9f);
    for (float y = w->Pos.y; y < w->Pos.y + w->Size.y; y += 3.0f)
      for (float x = w->Pos.x; x < w->Pos.x + w->Size.x; x += 3.0f) {
        ImGui::GetIO().MousePos = ImVec2(x, y);
        frame(file);
        if (ImGui::GetCurrentContext()->HoveredId != id) continue;
        lo = ImVec2(std::min(lo.x, x), std::min(lo.y, y));
        hi = ImVec2(std::max(hi.x, x), std::max(hi.y, y));
      }
    return ImVec2(0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y));
  }
  // Press and release the left button at `at`: the choice made, if any.
  int click(const std::string& file, ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    int choice = frame(file);
    io.MouseDown[0] = true;
    if (const int c = frame(file); c >= 0) choice = c;
    io.MouseDown[0] = false;
    if (const int c = frame(file); c >= 0) choice = c;
    return choice;
  }
};

TEST(DropChoice, EachButtonGivesItsChoice) {
  const std::string file = "/some/folder/statue.obj";
  const struct {
    const char* label;
    int choice;
  } buttons[] = {
      {"Cloth", kLoadCloth}, {"Balloon", kLoadBalloon}, {"Collider", kLoadCollider}, {"Cancel", 0}};
  for (const auto& b : buttons) {
    Frames ui;
    EXPECT_EQ(ui.frame(file), -1);  // asked, not answered
    EXPECT_EQ(ui.frame(file), -1);
    const ImVec2 at = ui.button(file, b.label);
    ASSERT_GT(at.x, 0.0f) << b.label << ": no such button";
    EXPECT_EQ(ui.click(file, at), b.choice) << b.label;
    EXPECT_EQ(ui.frame(""), -1);  // and closed
  }
}

TEST(DropChoice, EscapeCancels) {
  Frames ui;
  ImGuiIO& io = ImGui::GetIO();
  io.KeyMap[ImGuiKey_Escape] = 27;
  EXPECT_EQ(ui.frame("a.obj"), -1);
  EXPECT_EQ(ui.frame("a.obj"), -1);
  io.KeysDown[27] = true;
  EXPECT_EQ(ui.frame("a.obj"), 0);
  io.KeysDown[27] = false;
}

TEST(DropChoice, NothingIsAskedWithoutAFile) {
  Frames ui;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ui.frame(""), -1);
  EXPECT_FALSE(ImGui::IsPopupOpen("Load the dropped OBJ", ImGuiPopupFlags_AnyPopupId));
}

}  // namespace
}  // namespace drape::ui
