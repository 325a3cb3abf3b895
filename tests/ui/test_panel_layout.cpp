// The side panel laid out in a Dear ImGui context without a window, with the
// interface's own font and style, at the default window size (1280×720):
// the Stats section is open at launch, and none of its lines runs past the
// panel's right edge, even with the widest figures it can show.

#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "scene/scenes.hpp"
#include "ui/imgui_layer.hpp"
#include "ui/panel.hpp"

namespace drape::ui {
namespace {

class Panel : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280.0f, 720.0f);
    io.DeltaTime = 1.0f / 60.0f;
    styleInterface();
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    const scene::SceneInfo* info = scene::findScene("hang");
    ASSERT_NE(info, nullptr);
    auto built = info->build(scene::sceneParams(*info));
    ASSERT_TRUE(built);
    world = std::move(built->world);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame of the panel; the panel's window afterwards.
  ImGuiWindow* frame() {
    PanelInput in;
    in.world = &world;
    in.scenes = &scenes;
    in.sceneName = "hang";
    in.currentScene = 0;
    in.stepMs = &stepMs;
    in.fps = 1234.0f;
    in.crossings = crossings;
    in.windowWidth = 1280.0f;
    in.windowHeight = 720.0f;
    ImGui::NewFrame();
    drawSidePanel(in, state);
    ImGui::Render();
    return ImGui::FindWindowByName("drape");
  }

  sim::World world;
  std::vector<const char*> scenes{"hang", "drape"};
  std::vector<double> stepMs = std::vector<double>(100, 123.45);
  std::optional<std::size_t> crossings = 123456;
  PanelState state;
};

TEST_F(Panel, StatsIsOpenAtLaunch) {
  frame();
  EXPECT_TRUE(state.statsOpen);
}

TEST_F(Panel, EveryStatsLineFitsThePanel) {
  // The widest figures: the cloth stretched by 16.6 % everywhere (a strain
  // line's three values at their longest), six-digit counts, every
  // optional line shown.
  for (glm::vec3& x : world.state.x) x *= 1.166f;
  world.params.self_collision = 1;
  world.stats.selfThickness = 0.5f * world.params.thickness;
  world.stats.selfCollisionTooDense = true;
  world.stats.selfContacts = 123456;
  world.stats.selfContactsActive = 123456;
  world.tornEdges = 123456;
  ImGuiWindow* panel = frame();
  ASSERT_NE(panel, nullptr);
  // Opened whatever its default (the test measures the lines, not the default).
  panel->DC.StateStorage->SetInt(panel->GetID("Stats"), 1);
  for (int i = 0; i < 3; ++i) panel = frame();  // the layout settles (scroll bar, sizes)
  ASSERT_TRUE(state.statsOpen);
  const float right = panel->WorkRect.Max.x;
  EXPECT_LE(panel->DC.CursorMaxPos.x, right + 0.5f)
      << "the panel's content reaches x = " << panel->DC.CursorMaxPos.x
      << ", past its right edge at " << right;
  EXPECT_GT(panel->DC.CursorMaxPos.x, right - 40.0f);  // the measure sees the widgets
}

}  // namespace
}  // namespace drape::ui
