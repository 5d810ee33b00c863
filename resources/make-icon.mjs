// Writes resources/icon.png (128×128 RGBA): a needle whose eye is an eye, on a rounded square.
// No dependencies: shapes are signed distances, 4×4 supersampled, encoded with node:zlib.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = 128, SS = 4;
const bg = [24, 38, 66], steel = [214, 224, 236], iris = [64, 170, 255], pupil = [14, 22, 40];

// Distance helpers (negative inside).
const roundRect = (x, y, cx, cy, hw, hh, r) => {
  const qx = Math.abs(x - cx) - hw + r, qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const segment = (x, y, ax, ay, bx, by) => {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - t * dx, py - t * dy);
};
// The needle runs from the lower left (point) to the upper right (eye).
const A = [26, 104], B = [98, 30];
const len = Math.hypot(B[0] - A[0], B[1] - A[1]);
const ux = (B[0] - A[0]) / len, uy = (B[1] - A[1]) / len;
const local = (x, y) => [(x - A[0]) * ux + (y - A[1]) * uy, -(x - A[0]) * uy + (y - A[1]) * ux]; // along, across

function colorAt(x, y) {
  if (roundRect(x, y, 64, 64, 62, 62, 22) > 0) return null;
  const [s, t] = local(x, y);
  // Shaft: tapers to a point at s = 0.
  const halfWidth = Math.min(7, 0.9 + s * 0.09);
  const inShaft = s >= 0 && s <= len + 4 && Math.abs(t) <= halfWidth;
  // The eye: an almond slot near the head, with an iris and pupil looking out of it.
  const ec = len - 14, ea = 15, eb = 5.2;
  const e = ((s - ec) / ea) ** 2 + (t / eb) ** 2;
  if (e <= 1) {
    const d = Math.hypot(s - ec, t);
    if (d <= 2.4) return pupil;
    if (d <= 4.6) return iris;
    return [250, 252, 255];
  }
  if (inShaft) {
    const shade = 1 - Math.abs(t) / (halfWidth + 1) * 0.35;
    return steel.map((c) => Math.round(c * shade));
  }
  // A thread curling away from the eye.
  const thread = Math.abs(Math.hypot(x - 92, y - 70) - 26);
  if (thread < 2 && y > 54 && x < 108) return iris;
  return bg;
}

const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < N; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) for (let sx = 0; sx < SS; sx++) {
      const c = colorAt(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
      if (c) { r += c[0]; g += c[1]; b += c[2]; a++; }
    }
    const o = y * (N * 4 + 1) + 1 + x * 4;
    raw[o] = a ? Math.round(r / a) : 0; raw[o + 1] = a ? Math.round(g / a) : 0; raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((a / (SS * SS)) * 255);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc32 = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6; // 8-bit RGBA
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'icon.png'), png);
