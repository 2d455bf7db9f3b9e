/**
 * Equirectangular → perspective (pinhole) views, pure. Same convention as
 * ffmpeg's `v360=e:flat:yaw=Y` and the walk fixture: the image centre looks
 * ahead, column u looks ((u + 0.5)/W − 0.5)·360° to the right, row v at
 * elevation (0.5 − (v + 0.5)/H)·180°; a view at yaw Y looks Y° to the right.
 * View pixels follow COLMAP's PINHOLE model with the principal point at the
 * image centre: pixel (u, v) looks along ((u + 0.5 − w/2)/f, (v + 0.5 − h/2)/f, 1).
 */

export interface RgbImage {
  /** Packed RGB, row-major. */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface PinholeView {
  yawDeg: number;
  width: number;
  height: number;
  /** Focal length in pixels. */
  focal: number;
}

/** The sampling map of one view: for each view pixel, the equirect (x, y) it reads (float pixels). Computed once per view. */
export function viewMap(view: PinholeView, eqWidth: number, eqHeight: number): Float32Array {
  const { width: w, height: h, focal: f } = view;
  const map = new Float32Array(w * h * 2);
  const yaw = (view.yawDeg * Math.PI) / 180;
  const cy = Math.cos(yaw), sy = Math.sin(yaw);
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const x = (u + 0.5 - w / 2) / f;
      const y = (v + 0.5 - h / 2) / f;
      const dx = x * cy + sy;
      const dz = -x * sy + cy;
      const lon = Math.atan2(dx, dz);
      const lat = Math.atan2(-y, Math.hypot(dx, dz));
      const o = (v * w + u) * 2;
      map[o] = (lon / (2 * Math.PI) + 0.5) * eqWidth - 0.5;
      map[o + 1] = (0.5 - lat / Math.PI) * eqHeight - 0.5;
    }
  }
  return map;
}

/**
 * Samples an equirect RGB image through a view map (bilinear, wrapping around
 * horizontally). `xShift` (pixels of the equirect image) turns the view about
 * the vertical axis: a turn of Y degrees is a shift of Y/360 of the width, so
 * one map serves every yaw.
 */
export function renderView(src: RgbImage, map: Float32Array, width: number, height: number, xShift = 0): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  const W = src.width, H = src.height, d = src.data;
  // Hot: three views of every keyframe. Wrapping by comparison rather than `%` (the map and the shift keep x
  // within a turn or two of the image) and integer row offsets: about a fifth less time per view (same pixels).
  for (let i = 0, m = 0, o = 0; i < width * height; i++, m += 2, o += 3) {
    const x = map[m] + xShift;
    let y = map[m + 1];
    if (y < 0) y = 0;
    else if (y > H - 1) y = H - 1;
    const x0f = Math.floor(x);
    const y0 = y | 0;
    const fx = x - x0f, fy = y - y0;
    let x0 = x0f;
    while (x0 < 0) x0 += W;
    while (x0 >= W) x0 -= W;
    const x1 = x0 + 1 === W ? 0 : x0 + 1;
    const r0 = y0 * W, r1 = y0 + 1 < H ? r0 + W : r0;
    const a = (r0 + x0) * 3, b = (r0 + x1) * 3, c = (r1 + x0) * 3, e = (r1 + x1) * 3;
    for (let k = 0; k < 3; k++) {
      const top = d[a + k] + (d[b + k] - d[a + k]) * fx;
      const bot = d[c + k] + (d[e + k] - d[c + k]) * fx;
      out[o + k] = top + (bot - top) * fy + 0.5;
    }
  }
  return out;
}

/** YUV 4:2:0 planar (BT.601, limited range, as H.264 decodes) → packed RGB. */
export function yuv420ToRgb(yuv: Uint8Array, width: number, height: number, out = new Uint8Array(width * height * 3)): Uint8Array {
  const ySize = width * height;
  const cw = width >> 1;
  const uOff = ySize, vOff = ySize + (ySize >> 2);
  for (let j = 0; j < height; j++) {
    const crow = (j >> 1) * cw;
    for (let i = 0; i < width; i++) {
      const Y = 1.164 * (yuv[j * width + i] - 16);
      const U = yuv[uOff + crow + (i >> 1)] - 128;
      const V = yuv[vOff + crow + (i >> 1)] - 128;
      const o = (j * width + i) * 3;
      const r = Y + 1.596 * V, g = Y - 0.392 * U - 0.813 * V, b = Y + 2.017 * U;
      out[o] = r < 0 ? 0 : r > 255 ? 255 : r;
      out[o + 1] = g < 0 ? 0 : g > 255 ? 255 : g;
      out[o + 2] = b < 0 ? 0 : b > 255 ? 255 : b;
    }
  }
  return out;
}

/**
 * A flat (pinhole) picture laid into an equirectangular image of `outWidth`
 * × `outWidth/2`, looking ahead at the centre: what the camera saw at its
 * place on the sphere, the rest a neutral grey. This is how a flat video's
 * keyframe becomes a room the 360 viewer can show. Bilinear.
 */
export function flatToEquirect(src: RgbImage, focal: number, outWidth: number): RgbImage {
  const W = outWidth;
  const H = outWidth / 2;
  const out = new Uint8Array(W * H * 3).fill(96);
  const { width: w, height: h, data: d } = src;
  const cx = w / 2, cy = h / 2;
  // Only the part of the sphere the picture can cover: half-angles plus a pixel.
  const halfLon = Math.atan(cx / focal);
  const halfLat = Math.atan(cy / focal);
  const u0 = Math.max(0, Math.floor((0.5 - halfLon / (2 * Math.PI)) * W) - 1), u1 = Math.min(W - 1, Math.ceil((0.5 + halfLon / (2 * Math.PI)) * W) + 1);
  const v0 = Math.max(0, Math.floor((0.5 - halfLat / Math.PI) * H) - 1), v1 = Math.min(H - 1, Math.ceil((0.5 + halfLat / Math.PI) * H) + 1);
  for (let v = v0; v <= v1; v++) {
    const lat = (0.5 - (v + 0.5) / H) * Math.PI;
    const cl = Math.cos(lat), sl = Math.sin(lat);
    for (let u = u0; u <= u1; u++) {
      const lon = ((u + 0.5) / W - 0.5) * 2 * Math.PI;
      const z = cl * Math.cos(lon);
      if (z <= 1e-6) continue;
      const x = focal * (cl * Math.sin(lon)) / z + cx - 0.5;
      const y = focal * -sl / z + cy - 0.5;
      if (x < 0 || y < 0 || x > w - 1 || y > h - 1) continue;
      const x0 = Math.floor(x), y0 = Math.floor(y);
      const x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(h - 1, y0 + 1);
      const fx = x - x0, fy = y - y0;
      const a = (y0 * w + x0) * 3, b = (y0 * w + x1) * 3, c = (y1 * w + x0) * 3, e = (y1 * w + x1) * 3;
      const o = (v * W + u) * 3;
      for (let k = 0; k < 3; k++) {
        const top = d[a + k] + (d[b + k] - d[a + k]) * fx;
        const bot = d[c + k] + (d[e + k] - d[c + k]) * fx;
        out[o + k] = top + (bot - top) * fy + 0.5;
      }
    }
  }
  return { data: out, width: W, height: H };
}
