export * from './authoring';
export * from './edits';
export * from './forms';
export { liveDoc, videoChoices, isVideoFile, type VideoChoice, editorView, listCourses, editorChoices, prerequisiteMap, createCourse, editDraft, discardDraft, courseRef, newKey, type EditorView, type CourseListItem, type CreateOutcome, type EditOutcome } from './draft.server';
export { publishDraft, auditSummary, type PublishOutcome } from './publish.server';
export { previewDetails, lessonsWithoutVideo } from './preview';
export { setThumbnail, type ThumbnailOutcome } from './thumbnail.server';
