/** The texts the exam island receives from the page (its part of the message catalogue). */
import type { Messages } from '~/i18n';

export type ExamMessages = Messages['exams']['run'] & { errors: Messages['exams']['errors'] };
