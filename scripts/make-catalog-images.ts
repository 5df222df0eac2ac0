/**
 * Draws the pictures of the catalogue from scratch, with no text in them (titles and categories are
 * HTML beside the picture, in the page's language):
 *   public/images/courses/<id>.webp   640×360, one per demo course (assets/demo-catalogue)
 *   public/images/books/<id>.webp     400×600, one per book
 * Each is an SVG drawing (a gradient in the colours of the course's category, soft circles placed by
 * its id, and a white motif of its business line: a plane for travel, rising bars for
 * entrepreneurship, a screen and speech bubbles for digital marketing, coins for personal finance)
 * turned into a small WebP by sharp. Idempotent: every output is rewritten on each run.
 *
 * Usage: npx tsx scripts/make-catalog-images.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { books } from '../src/lib/db/seed/catalogue';
import { readDemoCatalogue } from '../src/lib/db/seed/demo-catalogue.server';

const ROOT = join(import.meta.dirname, '..');
const MAX_BYTES = 30_000;

/** Gradient stops per category (2 introductory, 3 basic, 4 intermediate, 5 trainings). */
const PALETTE: Record<number, [string, string]> = {
  2: ['#0f4c81', '#1c7c7d'],
  3: ['#1d6b4f', '#4f9a4a'],
  4: ['#3b2f7a', '#7a3f8f'],
  5: ['#9a3b1f', '#d0782a'],
};
const BOOK_PALETTE: [string, string][] = [
  ['#12375e', '#2b8aa8'],
  ['#5b1f3c', '#c0504d'],
  ['#1f4d3a', '#7fae5b'],
  ['#3a2b66', '#6f74c9'],
];

const STRONG = 'rgba(255,255,255,0.88)';
const MID = 'rgba(255,255,255,0.45)';
const SOFT = 'rgba(255,255,255,0.14)';

/** A small pseudo-random generator seeded by an id: the same drawing on every run. */
function seeded(seed: number) {
  let s = (seed * 2654435761) % 4294967296;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

/** The white motif of a business line, drawn around (cx, cy) at `scale`. */
function motif(business: number, cx: number, cy: number, scale: number): string {
  const g = (body: string) => `<g transform="translate(${cx} ${cy}) scale(${scale})">${body}</g>`;
  switch (business) {
    case 1: // travel: a dashed flight path and a plane
      return g(`<path d="M -210 110 Q -60 -90 90 -10" fill="none" stroke="${MID}" stroke-width="5" stroke-dasharray="16 12"/>
        <g transform="translate(110 -30) rotate(-28)" fill="${STRONG}">
          <path d="M -95 0 Q -95 -12 -80 -12 L 80 -12 Q 110 -10 120 0 Q 110 10 80 12 L -80 12 Q -95 12 -95 0 Z"/>
          <path d="M 10 -10 L -30 -95 L -8 -95 L 50 -10 Z"/><path d="M 10 10 L -30 95 L -8 95 L 50 10 Z"/>
          <path d="M -70 -8 L -95 -45 L -80 -45 L -50 -8 Z"/><path d="M -70 8 L -95 45 L -80 45 L -50 8 Z"/>
        </g>`);
    case 2: // entrepreneurship: rising bars and an arrow
      return g(`<rect x="-150" y="20" width="50" height="80" rx="8" fill="${MID}"/><rect x="-80" y="-30" width="50" height="130" rx="8" fill="${MID}"/>
        <rect x="-10" y="-80" width="50" height="180" rx="8" fill="${STRONG}"/><rect x="60" y="-130" width="50" height="230" rx="8" fill="${STRONG}"/>
        <path d="M -170 -20 L -40 -110 L 20 -70 L 140 -170" fill="none" stroke="${STRONG}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
        <path d="M 100 -180 L 150 -178 L 142 -130 Z" fill="${STRONG}"/>`);
    case 3: // digital marketing: a screen with a play button and a speech bubble
      return g(`<rect x="-170" y="-110" width="250" height="170" rx="18" fill="${MID}"/><rect x="-110" y="60" width="130" height="16" rx="8" fill="${MID}"/>
        <path d="M -65 -65 L -65 15 L 5 -25 Z" fill="${STRONG}"/>
        <rect x="20" y="-170" width="160" height="95" rx="24" fill="${STRONG}"/><path d="M 60 -77 L 48 -40 L 95 -77 Z" fill="${STRONG}"/>
        <circle cx="65" cy="-122" r="10" fill="rgba(0,0,0,0.18)"/><circle cx="100" cy="-122" r="10" fill="rgba(0,0,0,0.18)"/><circle cx="135" cy="-122" r="10" fill="rgba(0,0,0,0.18)"/>`);
    default: // personal finance: stacks of coins
      return g(`${[0, 1, 2, 3].map((i) => `<ellipse cx="-90" cy="${80 - i * 26}" rx="60" ry="18" fill="${i === 3 ? STRONG : MID}" stroke="${STRONG}" stroke-width="4"/>`).join('')}
        ${[0, 1, 2, 3, 4, 5].map((i) => `<ellipse cx="50" cy="${80 - i * 26}" rx="60" ry="18" fill="${i === 5 ? STRONG : MID}" stroke="${STRONG}" stroke-width="4"/>`).join('')}
        <circle cx="150" cy="-110" r="48" fill="none" stroke="${STRONG}" stroke-width="10"/><circle cx="150" cy="-110" r="20" fill="${STRONG}"/>`);
  }
}

/** Soft circles in the background, placed by `seed`. */
function circles(seed: number, w: number, h: number): string {
  const rnd = seeded(seed);
  return Array.from({ length: 4 }, (_, i) => {
    const r = (0.18 + rnd() * 0.25) * Math.max(w, h);
    const x = (i % 2 === 0 ? 0.55 : 0.1) * w + rnd() * 0.4 * w;
    const y = rnd() * h;
    return i === 0 ? `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r.toFixed(0)}" fill="none" stroke="${SOFT}" stroke-width="3"/>` : `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r.toFixed(0)}" fill="${SOFT}"/>`;
  }).join('');
}

function courseSvg(id: number, category: number, business: number): string {
  const [from, to] = PALETTE[category] ?? PALETTE[2]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="640" height="360" fill="url(#g)"/>${circles(id, 640, 360)}${motif(business, 430, 190, 0.85)}
  </svg>`;
}

function bookSvg(index: number): string {
  const [from, to] = BOOK_PALETTE[index % BOOK_PALETTE.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0.6" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="400" height="600" fill="url(#g)"/><rect width="18" height="600" fill="rgba(0,0,0,0.18)"/>
    ${circles(100 + index, 400, 600)}
    <rect x="34" y="24" width="342" height="552" fill="none" stroke="${MID}" stroke-width="2"/>
    ${motif((index % 4) + 1, 215, 300, 0.8)}
    <rect x="170" y="500" width="70" height="6" rx="3" fill="${STRONG}"/>
  </svg>`;
}

async function write(path: string, svg: string): Promise<void> {
  const webp = await sharp(Buffer.from(svg)).webp({ quality: 80, effort: 6 }).toBuffer();
  if (webp.length > MAX_BYTES) throw new Error(`${path} is ${webp.length} bytes (at most ${MAX_BYTES})`);
  await writeFile(join(ROOT, path), webp);
  console.log(`${path} ${webp.length} bytes`);
}

await mkdir(join(ROOT, 'public/images/courses'), { recursive: true });
await mkdir(join(ROOT, 'public/images/books'), { recursive: true });
for (const { id, archive } of readDemoCatalogue()) await write(`public/images/courses/${id}.webp`, courseSvg(id, archive.course.category.code, archive.course.business.code));
for (const [i, b] of books.entries()) await write(`public/images/books/${b.id}.webp`, bookSvg(i));
