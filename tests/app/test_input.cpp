// Keyboard commands: which key does what, with which modifiers, and that the
// help overlay lists every command.

#include <set>

#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/input.hpp"

namespace drape::app {
namespace {

TEST(Keys, PlainKeys) {
  EXPECT_EQ(commandForKey(GLFW_KEY_SPACE, 0, false), Command::TogglePlay);
  EXPECT_EQ(commandForKey(GLFW_KEY_S, 0, false), Command::Step);
  EXPECT_EQ(commandForKey(GLFW_KEY_R, 0, false), Command::Reset);
  EXPECT_EQ(commandForKey(GLFW_KEY_W, 0, false), Command::ToggleWireframe);
  EXPECT_EQ(commandForKey(GLFW_KEY_F, 0, false), Command::Frame);
  EXPECT_EQ(commandForKey(GLFW_KEY_H, 0, false), Command::ToggleHelp);
  EXPECT_EQ(commandForKey(GLFW_KEY_V, 0, false), Command::CycleView);
  EXPECT_EQ(commandForKey(GLFW_KEY_3, 0, false), Command::ViewStrain);
  EXPECT_EQ(commandForKey(GLFW_KEY_X, 0, false), std::nullopt);
}

TEST(Keys, ModifiersAndRepeats) {
  EXPECT_EQ(commandForKey(GLFW_KEY_Q, GLFW_MOD_CONTROL, false), Command::Quit);
  EXPECT_EQ(commandForKey(GLFW_KEY_O, GLFW_MOD_CONTROL, false), Command::OpenMesh);
  EXPECT_EQ(commandForKey(GLFW_KEY_S, GLFW_MOD_CONTROL, false), Command::SaveScene);
  EXPECT_EQ(commandForKey(GLFW_KEY_L, GLFW_MOD_CONTROL, false), Command::OpenSceneFile);
  EXPECT_EQ(commandForKey(GLFW_KEY_S, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, false),
            Command::SaveSceneAs);
  EXPECT_EQ(commandForKey(GLFW_KEY_Z, GLFW_MOD_CONTROL, false), Command::Undo);
  EXPECT_EQ(commandForKey(GLFW_KEY_Z, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, false), Command::Redo);
  EXPECT_EQ(commandForKey(GLFW_KEY_Z, 0, false), std::nullopt);
  EXPECT_EQ(commandForKey(GLFW_KEY_Q, 0, false), std::nullopt);
  EXPECT_EQ(commandForKey(GLFW_KEY_W, GLFW_MOD_CONTROL, false), std::nullopt);
  EXPECT_EQ(commandForKey(GLFW_KEY_W, GLFW_MOD_SHIFT, false), std::nullopt);
  // Held down, only stepping repeats.
  EXPECT_EQ(commandForKey(GLFW_KEY_S, 0, true), Command::Step);
  EXPECT_EQ(commandForKey(GLFW_KEY_SPACE, 0, true), std::nullopt);
  EXPECT_EQ(commandForKey(GLFW_KEY_W, 0, true), std::nullopt);
}

TEST(Keys, EveryCommandHasAKeyAndTheHelpListsThem) {
  std::set<Command> reached;
  for (int key = GLFW_KEY_SPACE; key <= GLFW_KEY_LAST; ++key)
    for (int mods : {0, GLFW_MOD_CONTROL, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT})
      if (const auto c = commandForKey(key, mods, false)) reached.insert(*c);
  EXPECT_EQ(reached.size(), kCommandCount);
  // One help line per command, but for lines that name several keys.
  EXPECT_GE(keyBindings().size(), kCommandCount - 5);
  EXPECT_FALSE(mouseBindings().empty());
}

}  // namespace
}  // namespace drape::app
