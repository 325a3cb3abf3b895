#version 330 core
// Two-sided Blinn-Phong. A cloth has no inside: each side is lit with the
// normal that faces the viewer, and gets its own colour so that the front
// (counter-clockwise side) and the back can be told apart.
// In the strain view each vertex brings its own colour (both sides alike,
// the back a little darker). Colours arrive in sRGB; lighting is done in
// linear space.

in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vColor;

uniform vec3 uEye;
uniform vec3 uLightDir;  // unit, towards the key light
uniform vec3 uFront;     // sRGB
uniform vec3 uBack;      // sRGB
uniform float uVertexColor;  // 1: vColor instead of uFront / uBack
uniform float uShininess;
uniform float uSpecular;

out vec4 fragColor;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }

void main() {
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 base = toLinear(gl_FrontFacing ? uFront : uBack);
  if (uVertexColor > 0.5) base = toLinear(vColor) * (gl_FrontFacing ? 1.0 : 0.8);
  vec3 v = normalize(uEye - vWorldPos);

  float key = max(dot(n, uLightDir), 0.0);
  vec3 h = normalize(uLightDir + v);
  float spec = key > 0.0 ? uSpecular * pow(max(dot(n, h), 0.0), uShininess) : 0.0;
  // A dim fill from the opposite side keeps shaded folds readable, and a
  // sky/ground hemisphere term stands in for ambient light.
  vec3 fillDir = normalize(vec3(-uLightDir.x, 0.35, -uLightDir.z));
  float fill = 0.25 * max(dot(n, fillDir), 0.0);
  float hemi = mix(0.07, 0.18, 0.5 + 0.5 * n.y);

  vec3 color = base * (key + fill + hemi) + vec3(spec);
  fragColor = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
