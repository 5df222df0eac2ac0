/**
 * Keeps the demo catalogue's folders (`assets/demo-catalogue/<code>/`, see the README: *The demo catalogue*).
 *
 *   npm run demo:add -- <archive.zip> [--replace]
 *     An exported course archive becomes a demo folder: the zip is checked as an import checks it, its
 *     `course.json` is written as it is, and each media file is found in the media folder (`MEDIA_DIR`)
 *     when a file there has the same bytes, or else copied in (`video/`, `captions/`, `docs/`, named
 *     `<code>-<n>.<ext>`); `media.json` names them. Then add the course to `demoCourses`.
 *   npm run demo:sizes
 *     After `npm run media` or `npm run documents` rewrote media files: each demo `course.json` gets the
 *     files' sizes again (and each video's length from `durations.json`, where `npm run media` notes it).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../src/lib/config/config';
import { ARCHIVE_LIMITS, checkArchiveFiles, COURSE_JSON, MEDIA_TYPES, readZip, entryBytes, zipFiles } from '../src/lib/course-archive';
import { demoCourses } from '../src/lib/db/seed/catalogue';
import { DEMO_CATALOGUE_DIR, MEDIA_SOURCES, readDemoCatalogue } from '../src/lib/db/seed/demo-catalogue.server';

const root = fileURLToPath(new URL('..', import.meta.url));
const mediaDir = resolve(root, readConfig().mediaDir);
const FOLDER_OF: Record<string, string> = { mp4: 'video', webm: 'video', vtt: 'captions', pdf: 'docs' };
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every file of the media folder by the SHA-256 of its bytes (its path there, the storage key). */
function mediaByHash(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(createHash('sha256').update(readFileSync(path)).digest('hex'), relative(mediaDir, path).split('\\').join('/'));
    }
  };
  walk(mediaDir);
  return found;
}

async function add(zipPath: string, replace: boolean) {
  const bytes = readFileSync(zipPath);
  const files = readZip(bytes, ARCHIVE_LIMITS);
  const checked = await checkArchiveFiles(zipFiles(bytes, files), ARCHIVE_LIMITS.maxJsonBytes);
  if (checked.status !== 'checked') throw new Error(`the archive is refused: ${checked.problem} ${checked.detail}`.trim());
  const { archive } = checked;
  const code = archive.course.code;
  const folder = join(DEMO_CATALOGUE_DIR, code);
  if (existsSync(folder) && !replace) throw new Error(`${folder} exists (--replace writes over it)`);
  const known = mediaByHash();
  const sources: Record<string, string> = {};
  for (const m of archive.media) {
    if (m.path === archive.course.thumbnail.file) continue;
    const content = await entryBytes(bytes, files.find((f) => f.name === m.path)!, ARCHIVE_LIMITS.maxEntryBytes);
    const hash = createHash('sha256').update(content).digest('hex');
    let key = known.get(hash);
    if (!key) {
      const extension = MEDIA_TYPES[m.contentType]!;
      key = `${FOLDER_OF[extension] ?? 'docs'}/${code.toLowerCase()}-${basename(m.path, `.${extension}`)}.${extension}`;
      mkdirSync(join(mediaDir, key, '..'), { recursive: true });
      writeFileSync(join(mediaDir, key), content);
      known.set(hash, key);
      console.log(`copied ${m.path} to ${relative(root, join(mediaDir, key))}`);
    }
    sources[m.path] = key;
  }
  mkdirSync(folder, { recursive: true });
  const text = (await entryBytes(bytes, files.find((f) => f.name === COURSE_JSON)!, ARCHIVE_LIMITS.maxJsonBytes)).toString('utf8');
  writeFileSync(join(folder, COURSE_JSON), text.endsWith('\n') ? text : `${text}\n`);
  writeFileSync(join(folder, MEDIA_SOURCES), json(sources));
  console.log(`academy: wrote ${relative(root, folder)}`);
  if (!demoCourses.some((c) => c.code === code)) console.log(`next: add { id: <a free course id>, code: '${code}' } to demoCourses in src/lib/db/seed/catalogue.ts`);
  if (!existsSync(join(root, 'public', archive.course.thumbnail.sitePath))) console.log(`next: the picture ${archive.course.thumbnail.sitePath} is not in public/`);
}

function sizes() {
  const durations = JSON.parse(readFileSync(join(mediaDir, 'durations.json'), 'utf8')) as Record<string, number>;
  for (const { archive, sources } of readDemoCatalogue()) {
    const file = join(DEMO_CATALOGUE_DIR, archive.course.code, COURSE_JSON);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { media: { path: string; sizeBytes: number; durationSeconds: string | null }[] };
    for (const m of raw.media) {
      const key = sources[m.path];
      if (!key) continue;
      m.sizeBytes = statSync(join(mediaDir, key)).size;
      const clip = /^video\/(.+)\.[a-z0-9]+$/.exec(key)?.[1];
      if (clip && durations[clip] !== undefined) m.durationSeconds = durations[clip].toFixed(2);
    }
    writeFileSync(file, json(raw));
  }
  console.log(`academy: sizes written into ${demoCourses.length} demo courses`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'add' && rest[0]) await add(resolve(rest[0]), rest.includes('--replace'));
  else if (command === 'sizes') sizes();
  else {
    console.error('usage: tsx scripts/demo-catalogue.ts add <archive.zip> [--replace] | sizes');
    process.exit(2);
  }
} catch (error) {
  console.error(`academy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
