#version 330 core
// A shaded disc that reads as a small sphere, with a dark rim so that it
// stands out on any background; or, with uRing, a ring (light band between
// dark edges) that marks a vertex without hiding it.

uniform vec3 uColor;  // sRGB
uniform float uRing;  // 1: ring, 0: sphere

out vec4 fragColor;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  p.y = -p.y;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  if (uRing > 0.5) {
    float r = sqrt(r2);
    if (r < 0.58) discard;
    float band = smoothstep(0.58, 0.68, r) * (1.0 - smoothstep(0.86, 0.98, r));
    fragColor = vec4(mix(vec3(0.08), uColor, band), 1.0);
    return;
  }
  vec3 n = vec3(p, sqrt(1.0 - r2));
  vec3 l = normalize(vec3(-0.4, 0.6, 0.7));
  vec3 base = pow(uColor, vec3(2.2));
  float diffuse = max(dot(n, l), 0.0);
  float spec = pow(max(dot(n, normalize(l + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);
  vec3 c = base * (0.35 + 0.75 * diffuse) + vec3(0.5 * spec);
  c *= mix(1.0, 0.25, smoothstep(0.70, 0.95, r2));
  fragColor = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
