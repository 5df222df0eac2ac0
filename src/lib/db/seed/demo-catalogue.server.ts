/**
 * The demo courses are course archives kept as text: `assets/demo-catalogue/<code>/course.json` is the
 * `course.json` the exporter writes for that course, checked by the same code an import runs
 * (`checkArchiveFiles`). An archive's media sit beside `course.json` as `media/<n>.<ext>`; the demo
 * clips, captions and documents, though, are shared by many courses and already live in the media folder
 * (`MEDIA_DIR`), so instead of a copy per course each folder has `media.json`, naming for every media
 * path of its archive the file in the media folder (`"media/1.webm": "video/clip-1.webm"`), which is also
 * the file's storage key. The thumbnail is one of the site's own pictures, found at its `sitePath` in
 * `public/` (or the built site's `dist/client/`), as an import finds it. Course row ids are not in an
 * archive: `catalogue.demoCourses` gives them, in seeding order.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { checkContents, COURSE_JSON, parseArchiveJson, type ArchiveFiles, type CourseArchive } from '../../course-archive';
import { projectRoot } from '../../config/project-root.server';
import { demoCourses } from './catalogue';

/** Where the demo courses' folders are. */
export const DEMO_CATALOGUE_DIR = join(projectRoot(), 'assets', 'demo-catalogue');
/** Each demo folder's map from its archive's media paths to files of the media folder. */
export const MEDIA_SOURCES = 'media.json';
/** Where the site's own pictures are: the source folder, or the built site's. */
const SITE_DIRS = [join(projectRoot(), 'public'), join(projectRoot(), 'dist', 'client')];

/** A demo course: its row id here, its archive, and the media folder's file for each media path. */
export interface DemoCourse {
  id: number;
  archive: CourseArchive;
  sources: Readonly<Record<string, string>>;
}

/** Reads (and parses with the archive's own parser) the demo course `code`; throws, naming the folder, when it does not parse. */
export function readDemoCourse(id: number, code: string, dir = DEMO_CATALOGUE_DIR): DemoCourse {
  const folder = join(dir, code);
  const read = parseArchiveJson(readFileSync(join(folder, COURSE_JSON), 'utf8'));
  if (!read.ok) throw new Error(`demo course ${code}: course.json is refused (${read.problem} at "${read.path}")`);
  if (read.archive.course.code !== code) throw new Error(`demo course ${code}: course.json is course ${read.archive.course.code}`);
  const sources = JSON.parse(readFileSync(join(folder, MEDIA_SOURCES), 'utf8')) as Record<string, string>;
  const outside = Object.values(sources).find((file) => !/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/.test(file));
  if (outside !== undefined) throw new Error(`demo course ${code}: "${outside}" is no file of the media folder`);
  return { id, archive: read.archive, sources };
}

/** Every demo course, in seeding order (parsed, not yet checked against its files). */
export const readDemoCatalogue = (dir = DEMO_CATALOGUE_DIR): DemoCourse[] => demoCourses.map((c) => readDemoCourse(c.id, c.code, dir));

/** A demo folder's files as an archive's entries: `course.json`, each media path from the media folder, the thumbnail from the site's pictures. */
export function demoFiles(course: DemoCourse, mediaDir: string, dir = DEMO_CATALOGUE_DIR): ArchiveFiles {
  const where = new Map<string, string>([[COURSE_JSON, join(dir, course.archive.course.code, COURSE_JSON)]]);
  for (const [path, file] of Object.entries(course.sources)) where.set(path, join(mediaDir, file));
  const thumb = course.archive.course.thumbnail;
  if (thumb.file) {
    const site = SITE_DIRS.map((d) => join(d, thumb.sitePath)).find((f) => existsSync(f));
    if (site) where.set(thumb.file, site);
  }
  const bytes = async (name: string, max: number) => {
    const handle = await open(where.get(name)!);
    try {
      const buffer = Buffer.alloc(Math.min(max, (await handle.stat()).size));
      await handle.read(buffer, 0, buffer.length, 0);
      return buffer;
    } finally {
      await handle.close();
    }
  };
  return {
    entries: [...where].flatMap(([name, file]) => (existsSync(file) ? [{ name, size: statSync(file).size }] : [])),
    async read(name, max) {
      if (statSync(where.get(name)!).size > max) throw new Error(`demo course ${course.archive.course.code}: ${name} is over ${max} bytes`);
      return bytes(name, max);
    },
    head: bytes,
  };
}

/**
 * Every demo course, in seeding order, each checked as an import checks an archive's files (format, both
 * languages, questions, each media file's size and type); throws on the first refused, naming it.
 */
export async function checkedDemoCatalogue(mediaDir: string, dir = DEMO_CATALOGUE_DIR): Promise<DemoCourse[]> {
  const checked: DemoCourse[] = [];
  for (const course of readDemoCatalogue(dir)) {
    // `course.json` was read by the format's parser above; the rest is checked as an import checks it.
    const result = await checkContents(demoFiles(course, mediaDir, dir), course.archive);
    if (result.status !== 'checked') throw new Error(`demo course ${course.archive.course.code} is refused: ${result.problem} ${result.detail}`.trim());
    checked.push({ ...course, archive: result.archive });
  }
  return checked;
}

/** A demo lesson's video (its first resource) as the media folder's file and its length in seconds. */
export function lessonVideo(course: DemoCourse, lesson: CourseArchive['course']['modules'][number]['lessons'][number]): { file: string; seconds: number } {
  const video = lesson.resources.find((r) => r.kind === 'video');
  if (!video || video.kind !== 'video') throw new Error(`demo course ${course.archive.course.code}: lesson "${lesson.name.es}" has no video`);
  const media = course.archive.media.find((m) => m.path === video.file)!;
  return { file: course.sources[video.file]!, seconds: Number(media.durationSeconds ?? 0) };
}
