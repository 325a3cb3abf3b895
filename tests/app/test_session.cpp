// Switching scenes in the running app: a built-in scene starts with its own
// parameters whatever came before (a scene file, side by side, the panel),
// and the user's settings travel along only when asked.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/example_scenes.hpp"
#include "app/session.hpp"
#include "app/window_state.hpp"
#include "scene/scene_file.hpp"
#include "scene/scenes.hpp"

namespace drape::app {
namespace {

sim::Params ownParams(const std::string& name) {
  return scene::sceneParams(*scene::findScene(name));
}

// The keys of "KEY=VALUE" settings.
std::vector<std::string> keys(const std::vector<std::string>& settings) {
  std::vector<std::string> out;
  for (const std::string& s : settings) out.push_back(s.substr(0, s.find('=')));
  return out;
}

TEST(Session, SettingsAreWhatDiffersFromTheScenesOwn) {
  auto s = Session::create("hang", {"resolution=12", "k_bend=0.3"});
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(keys(s->settings()), (std::vector<std::string>{"k_bend", "resolution"}));
  // A panel edit counts too; setting a value back to the scene's own drops it.
  sim::Params edited = s->params();
  edited.friction = 0.9f;
  edited.k_bend = ownParams("hang").k_bend;
  ASSERT_TRUE(s->applyParams(edited));
  EXPECT_EQ(keys(s->settings()), (std::vector<std::string>{"friction", "resolution"}));
  // Each setting reads back as the value it holds.
  sim::Params back = ownParams("hang");
  for (const std::string& set : s->settings()) ASSERT_TRUE(sim::setParamAssignment(back, set));
  EXPECT_EQ(back.friction, 0.9f);
  EXPECT_EQ(back.resolution, 12);
}

TEST(Session, ABuiltInSceneStartsWithItsOwnParametersAfterASceneFile) {
  // A saved scene file holds every parameter: loading it and then picking
  // `tear` and `balloon` from the list gives them their own tear, k_bend
  // and iterations.
  auto hang = Session::create("hang", {"resolution=12", "iterations=3"});
  ASSERT_TRUE(hang) << hang.error();
  const scene::SceneFile saved = hang->describe({});
  auto s = Session::createFromDescription(saved, {}, "saved.json");
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->params().iterations, 3);
  ASSERT_TRUE(s->switchScene("tear"));
  EXPECT_EQ(s->params().tear, ownParams("tear").tear);
  EXPECT_GT(s->params().tear, 0.0f);
  EXPECT_EQ(s->params().resolution, ownParams("tear").resolution);
  ASSERT_TRUE(s->switchScene("balloon"));
  EXPECT_EQ(s->params().k_bend, ownParams("balloon").k_bend);
  EXPECT_EQ(s->params().iterations, ownParams("balloon").iterations);
  EXPECT_TRUE(s->settings().empty());
}

TEST(Session, AnExamplesLabelNamesItUntilAnotherSceneIsPicked) {
  // An example scene file loaded from the picker: the window calls it by the
  // picker's label, not its mesh file or built-in scene, through resets.
  const std::vector<ExampleScene> examples =
      exampleScenes(std::string(DRAPE_SOURCE_DIR) + "/assets/scenes");
  ASSERT_FALSE(examples.empty());
  for (const ExampleScene& e : examples) {
    EXPECT_NE(e.label.find(" (example)"), std::string::npos) << e.label;
    EXPECT_EQ(e.label.find(".json"), std::string::npos) << e.label;
  }
  auto s = Session::createFromFile(examples.front().path, {"resolution=10"});
  ASSERT_TRUE(s) << s.error();
  EXPECT_NE(s->label(), examples.front().label);
  s->setLabel(examples.front().label);
  EXPECT_EQ(s->label(), examples.front().label);
  ASSERT_TRUE(s->reset());
  EXPECT_EQ(s->label(), examples.front().label);
  ASSERT_TRUE(s->switchScene("hang"));
  EXPECT_EQ(s->label(), "hang");
}

TEST(Session, KeepingSettingsCarriesTheUsersChangesOnly) {
  auto s = Session::create("hang", {"resolution=12", "friction=0.9"});
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->switchScene("balloon", true));
  EXPECT_EQ(s->params().friction, 0.9f);
  EXPECT_EQ(s->params().resolution, 12);
  // What hang has of its own is not a setting: balloon keeps its k_bend.
  EXPECT_EQ(s->params().k_bend, ownParams("balloon").k_bend);
  EXPECT_EQ(keys(s->settings()), (std::vector<std::string>{"friction", "resolution"}));
}

TEST(Session, SideBySideCopiesKeepTheScenesOwnParametersApart) {
  // Side by side makes both copies from a description with every parameter;
  // the left copy's settings are still only what the user changed.
  auto s = Session::create("tear", {"resolution=12"});
  ASSERT_TRUE(s) << s.error();
  auto left = Session::createFromDescription(s->describe({}), {}, "tear");
  ASSERT_TRUE(left) << left.error();
  EXPECT_EQ(left->settings(), std::vector<std::string>{"resolution=12"});
  ASSERT_TRUE(left->switchScene("hang"));
  EXPECT_EQ(left->params().tear, ownParams("hang").tear);
}

TEST(Session, SideBySideAtAnotherResolutionPinsTheSamePlaces) {
  // hang at 12² with its corner pins and one pin of the user's in the
  // middle; the right side at 20²: its pins are where the left's are.
  auto left = Session::create("hang", {"resolution=12"});
  ASSERT_TRUE(left) << left.error();
  sim::World& lw = left->world();
  const std::uint32_t middle = 6 * 12 + 6;
  sim::pinVertex(lw, middle);
  const scene::SceneFile start = left->describe({});
  ASSERT_TRUE(start.pins);
  ASSERT_EQ(start.pins->size(), lw.pins.size());
  auto built = Session::createFromDescription(start, {}, "hang");
  ASSERT_TRUE(built) << built.error();
  auto right = Session::createBeside(built.value(), start, {"resolution=20"});
  ASSERT_TRUE(right) << right.error();
  const sim::World& rw = right->world();
  ASSERT_EQ(rw.vertexCount(), 400u);
  ASSERT_EQ(rw.pins.size(), lw.pins.size());
  const float edge = 2.0f / 19.0f;  // hang's cloth: 2 m wide
  for (std::size_t i = 0; i < lw.pins.size(); ++i) {
    const glm::vec3 l = lw.state.x[lw.pins[i].vertex];
    const glm::vec3 r = rw.state.x[rw.pins[i].vertex];
    EXPECT_LT(glm::length(l - r), edge) << i;
    if (lw.pins[i].vertex != middle) {
      EXPECT_LT(glm::length(l - r), 1e-5f) << "corner " << i;
    }
  }
  // The same resolution keeps the vertex numbers as they are.
  auto same = Session::createBeside(built.value(), start, {"k_bend=0.5"});
  ASSERT_TRUE(same) << same.error();
  for (std::size_t i = 0; i < lw.pins.size(); ++i)
    EXPECT_EQ(same->world().pins[i].vertex, lw.pins[i].vertex);
}

TEST(SideBySide, EachHalfShowsItsOwnStepTime) {
  EXPECT_EQ(recentStepMs({}), -1.0);
  // The median of the last 30: one slow frame does not move it.
  std::vector<double> ms(40, 2.0);
  ms.back() = 90.0;
  EXPECT_EQ(recentStepMs(ms), 2.0);
  EXPECT_EQ(compareLabel(false, {"solver=xpbd", "iterations=3"}, ms, false),
            "right: solver=xpbd iterations=3, 2.0 ms/step");
  EXPECT_EQ(compareLabel(true, {"solver=xpbd"}, {4.25}, false),
            "left: as set, 4.2 ms/step (the tools act here)");
  EXPECT_EQ(compareLabel(false, {"k_bend=1"}, {}, true), "right: k_bend=1  (stopped)");
  // Stepping a side records its time: the right side's comes from its own steps.
  auto right = Session::create("hang", {"resolution=12"});
  ASSERT_TRUE(right) << right.error();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(right->step());
  EXPECT_EQ(right->stepMs().size(), 3u);
  EXPECT_GT(recentStepMs(right->stepMs()), 0.0);
}

}  // namespace
}  // namespace drape::app
