export * from './videos';
export * from './webvtt';
export { toolPaths, probeFile, runFfmpeg, type FfmpegRun } from './tools.server';
export { uploadsDir, uploadFile, uploadDataStore, uploadedFiles, UPLOADS_PREFIX, type UploadedFiles } from './upload-files.server';
export {
  createVideo,
  uploadOwner,
  dropUpload,
  finishUpload,
  claimTranscode,
  renewClaim,
  releaseClaim,
  markReady,
  listVideos,
  videoById,
  videoStatuses,
  videoInLessons,
  saveCaption,
  previewFacts,
  type LibraryVideo,
  type CaptionOutcome,
} from './videos.server';
export { transcodeVideo, transcodeDue, sweepLeftovers, startVideoWorker, type TranscodeDeps } from './transcode.server';
