#version 330 core
// Two-sided Blinn-Phong. A cloth has no inside: each side is lit with the
// normal that faces the viewer, and gets its own colour so that the front
// (counter-clockwise side) and the back can be told apart.
// In the strain view each vertex brings its own colour (both sides alike,
// the back a little darker). Colours arrive in sRGB; lighting is done in
// linear space.
//
// The lit cloth reads as fabric: a plain weave from its texture coordinates
// (threads over and under in a checkerboard, each with a rounded profile
// across it) changes its brightness by a few per cent, fading out where a
// thread gets narrower than a couple of pixels so that it never shimmers;
// and the side facing the inside of a fold (vFold, from the CPU) loses some
// of its ambient light, as it would to occlusion. The strain view has
// neither (uWeave and uFold 0).

in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vColor;
in vec2 vUV;
in float vFold;

uniform vec3 uEye;
uniform vec3 uLightDir;  // unit, towards the key light
uniform vec3 uFront;     // sRGB
uniform vec3 uBack;      // sRGB
uniform float uVertexColor;  // 1: vColor instead of uFront / uBack
uniform float uShininess;
uniform float uSpecular;
uniform float uWeave;       // relative brightness change of the weave; 0: none
uniform float uWeaveScale;  // weave cells (one crossing of two threads) per unit of UV
uniform float uFold;        // ambient light taken at a full fold; 0: none

out vec4 fragColor;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }

// The weave's brightness factor around 1, its mean over a cell 1.
float weave(vec2 uv) {
  vec2 p = uv * uWeaveScale;
  vec2 f = fract(p);
  // In alternate cells the thread along u or the one along v lies on top; a
  // thread's crown is brightest and it dips at its edges (sin over [0, π],
  // whose mean is 2/π).
  bool alongU = mod(floor(p.x) + floor(p.y), 2.0) < 1.0;
  float crown = sin(3.14159265 * (alongU ? f.y : f.x)) - 0.63662;
  // Cells per pixel: from half a cell per pixel on (two pixels a cell) the
  // pattern is gone; at a quarter (four pixels a cell) it is whole.
  vec2 w = fwidth(p);
  float fade = 1.0 - smoothstep(0.25, 0.5, max(w.x, w.y));
  return 1.0 + uWeave * fade * crown;
}

void main() {
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 base = toLinear(gl_FrontFacing ? uFront : uBack);
  if (uVertexColor > 0.5) base = toLinear(vColor) * (gl_FrontFacing ? 1.0 : 0.8);
  if (uWeave > 0.0) base *= weave(vUV);
  vec3 v = normalize(uEye - vWorldPos);

  float key = max(dot(n, uLightDir), 0.0);
  vec3 h = normalize(uLightDir + v);
  float spec = key > 0.0 ? uSpecular * pow(max(dot(n, h), 0.0), uShininess) : 0.0;
  // A dim fill from the opposite side keeps shaded folds readable, and a
  // sky/ground hemisphere term stands in for ambient light; the inside of a
  // fold gets less of both, and a little less of the key light.
  vec3 fillDir = normalize(vec3(-uLightDir.x, 0.35, -uLightDir.z));
  float fill = 0.25 * max(dot(n, fillDir), 0.0);
  float hemi = mix(0.07, 0.18, 0.5 + 0.5 * n.y);
  float inside = uFold * clamp(gl_FrontFacing ? vFold : -vFold, 0.0, 1.0);

  vec3 color = base * (key * (1.0 - 0.5 * inside) + (fill + hemi) * (1.0 - inside)) + vec3(spec);
  fragColor = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
