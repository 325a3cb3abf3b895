#version 330 core
// The cloth's wireframe: one blended colour, drawn over the shaded cloth.

uniform vec4 uColor;  // sRGB, alpha for blending

out vec4 fragColor;

void main() { fragColor = uColor; }
