/**
 * Writes the lessons' PDF documents: one small, valid, one-page PDF (A4, Helvetica, WinAnsi encoding)
 * for every PDF resource of the demo courses, at the media folder's file their `media.json` names
 * (e.g. `media/docs/guia-academia.pdf`).
 * Each has the document's title and the lesson's course, name and summary in Spanish and English.
 * Plain Node, no dependency; the output is deterministic (no dates), so running it again changes nothing.
 *
 * Usage: npm run documents        (MEDIA_DIR changes the folder; default ./media)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bilingual } from '../src/lib/db/seed/catalogue';
import { readDemoCatalogue } from '../src/lib/db/seed/demo-catalogue.server';

const root = fileURLToPath(new URL('..', import.meta.url));
const mediaDir = resolve(root, process.env.MEDIA_DIR?.trim() || 'media');

/* ───────────── text encoding ───────────── */

/** Characters of Windows-1252 (WinAnsiEncoding) between 0x80 and 0x9F; 0xA0–0xFF equal Latin-1. */
const WIN_ANSI_HIGH: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a, '‹': 0x8b, 'Œ': 0x8c,
  'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b,
  'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** A character's WinAnsi byte; anything the encoding lacks stops the script (the text must be fixed). */
function winAnsi(ch: string): number {
  const code = ch.codePointAt(0)!;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  const high = WIN_ANSI_HIGH[ch];
  if (high !== undefined) return high;
  throw new Error(`character ${JSON.stringify(ch)} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) is not in WinAnsiEncoding`);
}

/** A PDF literal string of `text` in WinAnsi: ASCII as is, `( ) \` escaped, other bytes as octal escapes. */
function pdfString(text: string): string {
  let out = '(';
  for (const ch of text) {
    const b = winAnsi(ch);
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x80) out += String.fromCharCode(b);
    else out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return `${out})`;
}

/** A PDF text string for the document information dictionary: UTF-16BE with its byte-order mark. */
function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return `<${hex}>`;
}

/* ───────────── layout ───────────── */

/** Helvetica advance widths (1/1000 em) for ASCII 0x20–0x7E, from the standard font metrics. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278,
  584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944,
  667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const OTHER_WIDTHS: Record<string, number> = { '¿': 611, '¡': 333, '«': 556, '»': 556, '–': 556, '—': 1000, '“': 333, '”': 333, '‘': 222, '’': 222, '…': 1000, '•': 350, '©': 737, 'º': 365, 'ª': 370 };

/** Width of `text` in points at `size` (accented letters measure as their base letter; bold about 7% wider). */
function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const base = ch.normalize('NFD')[0]!;
    const code = base.charCodeAt(0);
    units += OTHER_WIDTHS[ch] ?? (code >= 0x20 && code <= 0x7e ? HELVETICA[code - 0x20]! : 556);
  }
  return (units * size * (bold ? 1.07 : 1)) / 1000;
}

/** Breaks `text` into lines no wider than `width` points. */
function wrap(text: string, size: number, width: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const PAGE = { width: 595, height: 842 }; // A4 in points
const MARGIN = 64;
const TEXT_WIDTH = PAGE.width - 2 * MARGIN;

/** One document to write: its file, title, and the lesson and course it belongs to. */
interface DocumentSpec {
  file: string;
  title: Bilingual;
  course: Bilingual;
  lesson: Bilingual;
  summary: Bilingual;
}

/** The page's drawing operators. */
function pageContent(doc: DocumentSpec): string {
  const ops: string[] = [];
  let y = PAGE.height - MARGIN;
  const text = (s: string, font: 'F1' | 'F2', size: number, gray = 0, x = MARGIN) => {
    ops.push(`BT /${font} ${size} Tf ${gray} g ${x} ${y.toFixed(1)} Td ${pdfString(s)} Tj ET`);
  };
  const paragraph = (s: string, font: 'F1' | 'F2', size: number, gray = 0, after = 6) => {
    for (const line of wrap(s, size, TEXT_WIDTH, font === 'F2')) {
      y -= size * 1.35;
      text(line, font, size, gray);
    }
    y -= after;
  };
  const rule = () => {
    y -= 8;
    ops.push(`0.8 G 0.75 w ${MARGIN} ${y.toFixed(1)} m ${PAGE.width - MARGIN} ${y.toFixed(1)} l S`);
    y -= 10;
  };

  // Header band.
  ops.push(`0.1 0.33 0.55 rg 0 ${PAGE.height - 36} ${PAGE.width} 36 re f`);
  ops.push(`BT /F2 12 Tf 1 g ${MARGIN} ${PAGE.height - 23} Td ${pdfString('Academia')} Tj ET`);
  const tag = 'Material de apoyo · Supporting material';
  ops.push(`BT /F1 9 Tf 1 g ${(PAGE.width - MARGIN - textWidth(tag, 9)).toFixed(1)} ${PAGE.height - 22} Td ${pdfString(tag)} Tj ET`);
  y -= 30;

  paragraph(doc.title.es, 'F2', 22, 0.1, 2);
  paragraph(doc.title.en, 'F1', 15, 0.35, 4);
  rule();

  for (const [lang, heading] of [
    ['es', 'Español'],
    ['en', 'English'],
  ] as const) {
    const es = lang === 'es';
    paragraph(heading, 'F2', 13, 0.1, 2);
    paragraph(`${es ? 'Curso' : 'Course'}: ${doc.course[lang]}`, 'F1', 11, 0.25, 0);
    paragraph(`${es ? 'Lección' : 'Lesson'}: ${doc.lesson[lang]}`, 'F1', 11, 0.25, 6);
    paragraph(doc.summary[lang], 'F1', 11, 0, 6);
    paragraph(
      es
        ? `Este documento acompaña la lección «${doc.lesson.es}». Léelo antes de ver el video, ten a mano tus notas y vuelve a él cuando pongas en práctica lo aprendido.`
        : `This document goes with the lesson “${doc.lesson.en}”. Read it before watching the video, keep your notes at hand and come back to it when you put what you learned into practice.`,
      'F1',
      11,
      0,
      6,
    );
    const steps = es
      ? ['1. Mira el video de la lección completo.', '2. Anota tres ideas que puedas aplicar esta semana.', '3. Comparte tus dudas con tu IBO o con el equipo de la academia.']
      : ['1. Watch the whole lesson video.', '2. Write down three ideas you can apply this week.', '3. Share your questions with your IBO or the academy team.'];
    for (const step of steps) paragraph(step, 'F1', 11, 0, 0);
    rule();
  }

  y = MARGIN - 10;
  text('© 2022 Academia. Material de demostración · Demo material.', 'F1', 8, 0.45);
  return ops.join('\n');
}

/** A complete PDF file: catalogue, one page, two standard fonts, the content stream and an info dictionary. */
function pdfDocument(doc: DocumentSpec): Buffer {
  const content = pageContent(doc);
  const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Lang (es) >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    font('Helvetica'),
    font('Helvetica-Bold'),
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfTextString(`${doc.title.es} / ${doc.title.en}`)} /Author ${pdfTextString('Academia')} /Subject ${pdfTextString(`${doc.course.es} / ${doc.course.en}`)} >>`,
  ];
  // The body is ASCII except the binary-marker comment, so string length is byte length (latin1).
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Every PDF resource of the demo courses, once per file. */
function documentSpecs(): DocumentSpec[] {
  const specs = new Map<string, DocumentSpec>();
  for (const { archive, sources } of readDemoCatalogue())
    for (const m of archive.course.modules)
      for (const l of m.lessons)
        for (const x of l.resources) {
          if (x.kind !== 'pdf') continue;
          const file = sources[x.file]!;
          if (specs.has(file)) continue;
          if (!/^docs\/[a-z0-9-]+\.pdf$/.test(file)) throw new Error(`${archive.course.code}: document file "${file}" must look like docs/name.pdf`);
          specs.set(file, { file, title: x.title, course: archive.course.name, lesson: l.name, summary: l.summary });
        }
  return [...specs.values()];
}

const specs = documentSpecs();
for (const spec of specs) {
  const path = join(mediaDir, spec.file);
  mkdirSync(dirname(path), { recursive: true });
  const bytes = pdfDocument(spec);
  writeFileSync(path, bytes);
  console.log(`${spec.file}  ${bytes.length} bytes`);
}
console.log(`academy: wrote ${specs.length} documents into ${join(mediaDir, 'docs')}`);
