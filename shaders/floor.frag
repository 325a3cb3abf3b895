#version 330 core
// Procedural grid: minor lines every 0.25 m, major lines every metre, about
// one pixel wide whatever the distance (widths in screen space via fwidth).
// Lines that would be denser than a few pixels apart fade out instead of
// shimmering, and the floor fades into the background far away. Colours mix
// in sRGB: the floor is a backdrop, not lit, and it covers much of the screen,
// so its shader stays cheap.

in vec3 vWorldPos;

uniform vec3 uEye;
uniform vec3 uFogColor;  // sRGB
uniform float uFogStart;
uniform float uFogEnd;

out vec4 fragColor;

// 1 on a line of the grid with the given spacing, 0 away from it.
float gridLine(vec2 p, float spacing, float widthPixels) {
  vec2 cell = p / spacing;
  vec2 perPixel = max(fwidth(cell), vec2(1e-6));
  vec2 distPixels = abs(fract(cell - 0.5) - 0.5) / perPixel;
  float line = 1.0 - clamp(min(distPixels.x, distPixels.y) - 0.5 * widthPixels + 0.5, 0.0, 1.0);
  // Fade where neighbouring lines come closer than ~4 pixels.
  float density = max(perPixel.x, perPixel.y);
  return line * (1.0 - smoothstep(0.08, 0.25, density));
}

void main() {
  vec2 p = vWorldPos.xz;
  vec3 color = vec3(0.66, 0.66, 0.68);
  color = mix(color, vec3(0.56, 0.56, 0.59), gridLine(p, 0.25, 1.0));
  color = mix(color, vec3(0.44, 0.44, 0.48), gridLine(p, 1.0, 1.5));
  float dist = length(uEye - vWorldPos);
  color = mix(color, uFogColor, smoothstep(uFogStart, uFogEnd, dist));
  fragColor = vec4(color, 1.0);
}
