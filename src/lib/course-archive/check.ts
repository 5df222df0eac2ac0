/**
 * The checks an archive's files pass before anything is written, whatever holds them: a zip uploaded to
 * the import, or a folder of the demo catalogue (`assets/demo-catalogue`). `course.json` is read with the
 * format's own parser (`readCourseJson`); then (`checkContents`) every question's key, every media path
 * listed once and present with its declared size, nothing unlisted or unused, and each file's first
 * bytes (a caption: all of it) against its declared type. The files are reached through `ArchiveFiles`,
 * so both sources share this one code; an import resolves the course's references between the two.
 */
import { questionProblems } from '../question-bank/question-bank';
import { entryBytes, entryStream, type ZipFile } from './unzip';
import { COURSE_JSON, MAX_CAPTION_BYTES, parseArchiveJson, questionDraftOf, referencedMedia, sniffMedia, type CourseArchive, type FormatProblem } from './course-archive';

/** The entries of an archive (name and size), and their bytes read up to a bound. */
export interface ArchiveFiles {
  entries: readonly { name: string; size: number }[];
  /** The whole entry; a source refuses (as too large) one over `max` bytes. */
  read(name: string, max: number): Promise<Buffer>;
  /** The first `max` bytes of an entry (at least its first chunk), reading no more than needed. */
  head(name: string, max: number): Promise<Buffer>;
}

/** A zip's entries as `ArchiveFiles` (the first bytes of an entry inflate no more than asked for). */
export function zipFiles(archive: Uint8Array, files: ZipFile[]): ArchiveFiles {
  const byName = new Map(files.map((f) => [f.name, f]));
  return {
    entries: files,
    read: (name, max) => entryBytes(archive, byName.get(name)!, max),
    async head(name, max) {
      const parts: Buffer[] = [];
      let size = 0;
      for await (const chunk of entryStream(archive, byName.get(name)!)) {
        parts.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= max) break;
      }
      return Buffer.concat(parts).subarray(0, max);
    },
  };
}

/** Why an archive's files are refused before any reference is looked up. */
export type FileProblem = FormatProblem | 'noCourseJson' | 'missingMedia' | 'mediaSize' | 'mediaType' | 'unusedMedia' | 'badQuestion' | 'tooLarge';

export type FileCheck = { status: 'checked'; archive: CourseArchive } | { status: 'refused'; problem: FileProblem; detail: string };

const refused = (problem: FileProblem, detail = ''): FileCheck => ({ status: 'refused', problem, detail });

/** Reads `course.json` with the format's own parser: the archive, or why not. */
export async function readCourseJson(files: ArchiveFiles, maxJsonBytes: number): Promise<FileCheck> {
  if (!files.entries.some((f) => f.name === COURSE_JSON)) return refused('noCourseJson');
  const read = parseArchiveJson((await files.read(COURSE_JSON, maxJsonBytes)).toString('utf8'));
  return read.ok ? { status: 'checked', archive: read.archive } : refused(read.problem, read.path);
}

/** Checks what a parsed archive carries against its files: every question's key, then the media (see the top of this file). */
export async function checkContents(files: ArchiveFiles, archive: CourseArchive): Promise<FileCheck> {
  const byName = new Map(files.entries.map((f) => [f.name, f]));
  for (const [i, q] of (archive.course.exam?.bank ?? []).entries()) if (questionProblems(questionDraftOf(q)).length) return refused('badQuestion', String(i + 1));
  const listed = new Map(archive.media.map((m) => [m.path, m]));
  if (listed.size !== archive.media.length) return refused('invalid', 'media');
  const used = referencedMedia(archive);
  for (const path of used) if (!listed.has(path)) return refused('missingMedia', path);
  for (const m of archive.media) {
    const file = byName.get(m.path);
    if (!file) return refused('missingMedia', m.path);
    if (file.size !== m.sizeBytes) return refused('mediaSize', m.path);
  }
  const extra = files.entries.find((f) => f.name !== COURSE_JSON && !listed.has(f.name));
  if (extra) return refused('unusedMedia', extra.name);
  const orphan = archive.media.find((m) => !used.includes(m.path));
  if (orphan) return refused('unusedMedia', orphan.path);
  for (const m of archive.media) {
    if (m.contentType === 'text/vtt' && m.sizeBytes > MAX_CAPTION_BYTES) return refused('tooLarge', m.path);
    if (!sniffMedia(m.contentType, await files.head(m.path, m.contentType === 'text/vtt' ? MAX_CAPTION_BYTES : 64))) return refused('mediaType', m.path);
  }
  return { status: 'checked', archive };
}

/** Both checks of an archive's files, one after the other: its course, or the first problem with where it is. */
export async function checkArchiveFiles(files: ArchiveFiles, maxJsonBytes: number): Promise<FileCheck> {
  const read = await readCourseJson(files, maxJsonBytes);
  return read.status === 'checked' ? checkContents(files, read.archive) : read;
}
