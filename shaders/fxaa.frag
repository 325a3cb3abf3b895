#version 330 core
// FXAA (Lottes 2009), its small variant: a pixel whose luma differs from its
// four diagonal neighbours by more than a threshold lies on an edge; the
// edge's direction comes from the luma gradient of the neighbours, and the
// pixel becomes the mean of samples taken along that direction (two near, or
// four out to kSpan pixels when their mean stays within the neighbours' luma
// range). Flat pixels, most of a frame, keep their colour.

uniform sampler2D uColor;  // the picture, linearly filtered, same size as the target
uniform vec2 uTexel;       // 1 / its size in pixels

out vec4 fragColor;

const float kEdgeMin = 1.0 / 24.0;  // contrast below this is no edge
const float kEdgeRel = 1.0 / 8.0;   // nor below this fraction of the local maximum
const float kReduceMul = 1.0 / 8.0;
const float kReduceMin = 1.0 / 128.0;
const float kSpan = 8.0;  // pixels, the longest reach along an edge

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main() {
  // The neighbours by texelFetch, half the cost of filtered reads on a
  // software rasteriser; the target's edge pixels read their own row or
  // column again instead of beyond it.
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 last = textureSize(uColor, 0) - 1;
  vec3 rgbM = texelFetch(uColor, p, 0).rgb;
  float lumaNW = luma(texelFetch(uColor, clamp(p + ivec2(-1, 1), ivec2(0), last), 0).rgb);
  float lumaNE = luma(texelFetch(uColor, clamp(p + ivec2(1, 1), ivec2(0), last), 0).rgb);
  float lumaSW = luma(texelFetch(uColor, clamp(p + ivec2(-1, -1), ivec2(0), last), 0).rgb);
  float lumaSE = luma(texelFetch(uColor, clamp(p + ivec2(1, -1), ivec2(0), last), 0).rgb);
  float lumaM = luma(rgbM);
  float lumaMin = min(lumaM, min(min(lumaNW, lumaNE), min(lumaSW, lumaSE)));
  float lumaMax = max(lumaM, max(max(lumaNW, lumaNE), max(lumaSW, lumaSE)));
  if (lumaMax - lumaMin < max(kEdgeMin, lumaMax * kEdgeRel)) {
    fragColor = vec4(rgbM, 1.0);
    return;
  }

  // Across the gradient is along the edge. Filtered reads at texel centres
  // plus a fraction of `dir`; the texture clamps those beyond its edges.
  vec2 uv = gl_FragCoord.xy * uTexel;
  vec2 dir = vec2(-((lumaNW + lumaNE) - (lumaSW + lumaSE)), (lumaNW + lumaSW) - (lumaNE + lumaSE));
  float reduce = max(0.25 * kReduceMul * (lumaNW + lumaNE + lumaSW + lumaSE), kReduceMin);
  float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
  dir = clamp(dir * scale, vec2(-kSpan), vec2(kSpan)) * uTexel;

  vec3 rgbA = 0.5 * (textureLod(uColor, uv + dir * (1.0 / 3.0 - 0.5), 0.0).rgb +
                     textureLod(uColor, uv + dir * (2.0 / 3.0 - 0.5), 0.0).rgb);
  vec3 rgbB = 0.5 * rgbA + 0.25 * (textureLod(uColor, uv - 0.5 * dir, 0.0).rgb +
                                   textureLod(uColor, uv + 0.5 * dir, 0.0).rgb);
  float lumaB = luma(rgbB);
  fragColor = vec4((lumaB < lumaMin || lumaB > lumaMax) ? rgbA : rgbB, 1.0);
}
