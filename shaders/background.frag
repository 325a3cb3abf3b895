#version 330 core
// Sky gradient by elevation: the horizon colour at and below the horizon
// (the colour the floor fades into far away, so the floor has no visible
// edge), the zenith colour overhead. Mixed in sRGB: a backdrop, not lit.

in vec3 vDir;

uniform vec3 uHorizon;  // sRGB
uniform vec3 uZenith;   // sRGB

out vec4 fragColor;

void main() {
  // Most views look slightly down, so the sky seen is near the horizon: the
  // square root spends the gradient on the first degrees above it.
  float elevation = normalize(vDir).y;
  fragColor = vec4(mix(uHorizon, uZenith, sqrt(clamp(elevation / 0.5, 0.0, 1.0))), 1.0);
}
