export * from './course-archive';
export { readZip, entryStream, entryBytes, isSafeName, ZipRefused, type ZipFile, type ZipLimits, type ZipProblem } from './unzip';
export { zipStream, type StreamEntry } from '../zip/zip';
export { checkArchiveFiles, checkContents, readCourseJson, zipFiles, type ArchiveFiles, type FileCheck, type FileProblem } from './check';
