/** A report page's figures, read and turned into what the page draws (`view.ts`), in the reader's language. */
import { messages, type Locale } from '~/i18n';
import type { Db } from '../db/client';
import type { ReportFilter, ReportKey } from './reports';
import { acquisitionReport, enrolmentsReport, examSummary, funnelReport, itemAnalysis, revenueReport } from './reports.server';
import { acquisitionView, enrolmentsView, examsView, funnelView, revenueView, type ReportView } from './view';

export async function loadReportView(db: Db, report: ReportKey, f: ReportFilter, locale: Locale): Promise<ReportView> {
  const t = messages(locale).reports;
  switch (report) {
    case 'enrolments':
      return enrolmentsView(await enrolmentsReport(db, f), f, locale, t);
    case 'funnel':
      return funnelView(await funnelReport(db, f), f, locale, t);
    case 'exams':
      return examsView(await examSummary(db, f), f.courseId === undefined ? null : await itemAnalysis(db, f.courseId, f), f, locale, t);
    case 'revenue':
      return revenueView(await revenueReport(db, f), f, locale, t);
    case 'acquisition':
      return acquisitionView(await acquisitionReport(db, f), f, locale, t);
  }
}
