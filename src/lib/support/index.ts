export * from './support';
export {
  loadInbox,
  loadMessage,
  assignableStaff,
  setMessageStatus,
  assignMessage,
  addNote,
  replyToMessage,
  threadCounts,
  type InboxLine,
  type InboxPage,
  type MessagePage,
  type ThreadEntry,
  type StaffPerson,
  type ChangeOutcome,
  type AssignOutcome,
  type EntryOutcome,
} from './support.server';
export { runReplyJob, registerSupportJobs, type ReplyJobDeps } from './reply-job.server';
