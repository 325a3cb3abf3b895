#pragma once
// What an OBJ file dropped on the window becomes: a small modal window that
// names the file and offers Cloth, Balloon, Collider and Cancel (Escape).

#include <string>

namespace drape::ui {

// Draw the question while `file` is not empty. Returns, on the frame a
// button is pressed, the Scene panel's "as" choice it stands for
// (kLoadCloth, kLoadBalloon, kLoadCollider; panel.hpp), 0 for Cancel, and
// −1 on every other frame.
int drawDropChoice(const std::string& file);

}  // namespace drape::ui
