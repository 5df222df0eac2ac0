// contact sheet: node sp-sheet.mjs out.png height file1 file2 ...  (each cropped to `height` px from top, scaled to 1/2 for 1200 shots)
import sharp from 'sharp';
const [out, h, ...files] = process.argv.slice(2);
const H = Number(h);
const tiles = [];
for (const f of files) {
  const img = sharp(f); const m = await img.metadata();
  const scale = m.width > 600 ? 0.5 : 1;
  const w = Math.round(m.width * scale);
  const buf = await sharp(f).extract({ left: 0, top: 0, width: m.width, height: Math.min(m.height, Math.round(H / scale)) }).resize({ width: w }).png().toBuffer();
  const mm = await sharp(buf).metadata();
  tiles.push({ buf, w: mm.width, h: mm.height });
}
const W = tiles.reduce((a, t) => a + t.w + 10, 0);
const HH = Math.max(...tiles.map((t) => t.h));
let x = 0; const comp = [];
for (const t of tiles) { comp.push({ input: t.buf, left: x, top: 0 }); x += t.w + 10; }
await sharp({ create: { width: W, height: HH, channels: 3, background: '#888' } }).composite(comp).png().toFile(out);
