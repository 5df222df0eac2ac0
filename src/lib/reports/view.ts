/**
 * What a report page draws, pure: from a report's figures, its summary sentence, charts and tables with
 * every text already in the reader's language (numbers, dates and money formatted). The page renders
 * these shapes and nothing else, so every report looks and reads the same way.
 */
import { format, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { formatCents } from '../commerce/money';
import { localePath, paths } from '../paths';
import { barWidths, columns, labelEvery } from './chart';
import { itemFlag, type ItemFlag } from './items';
import { ACQUISITION_STEPS, bucketLabel, formatCount, formatShare, formatSignedCents, funnel, PROGRESS_STEPS, type ReportFilter } from './reports';
import type { AcquisitionRow, EnrolmentsReport, ExamSummaryRow, FunnelRow, ItemRow, RevenueReport, RevenueRow } from './reports.server';

export interface Cell {
  text: string;
  href?: string;
  /** An accessible name for the link, when the text alone would not say where it goes. */
  label?: string;
  numeric?: boolean;
  flag?: ItemFlag;
}

export interface Table {
  caption: string;
  head: string[];
  rows: Cell[][];
}

export type Chart =
  | { kind: 'columns'; title: string; labels: string[]; every: number; series: { name: string; values: number[] }[]; ticks: { y: number; text: string }[]; geometry: ReturnType<typeof columns> }
  | { kind: 'bars'; title: string; rows: { label: string; text: string; width: number }[] };

export interface Section {
  heading?: string;
  lead?: string;
  chart?: Chart;
  table: Table;
  note?: string;
}

export interface ReportView {
  summary: string;
  sections: Section[];
}

type T = Messages['reports'];
const n = formatCount;
const name = (locale: Locale, r: { nameEs: string; nameEn: string }) => (locale === 'en' ? r.nameEn : r.nameEs);

export function columnChart(title: string, labels: string[], series: { name: string; values: number[] }[], tick: (v: number) => string): Chart {
  const geometry = columns(series.map((s) => s.values));
  return { kind: 'columns', title, labels, every: labelEvery(labels.length, 6), series, ticks: geometry.ticks.map((t) => ({ y: t.y, text: tick(t.value) })), geometry };
}

function range(f: ReportFilter, locale: Locale) {
  const day = (d: string) => bucketLabel(d, 'day', locale);
  return { from: day(f.fromDay), to: day(f.toDay) };
}

export function enrolmentsView(r: EnrolmentsReport, f: ReportFilter, locale: Locale, t: T): ReportView {
  const labels = r.series.map((b) => bucketLabel(b.bucket, f.bucket, locale, true));
  const peak = r.series.reduce((best, b) => (b.enrolments > best.enrolments ? b : best), r.series[0]!);
  const summary =
    r.totals.enrolments + r.totals.completions === 0
      ? format(t.enrolments.summaryNone, range(f, locale))
      : format(t.enrolments.summary, { ...range(f, locale), enrolments: n(r.totals.enrolments, locale), completions: n(r.totals.completions, locale), peak: bucketLabel(peak.bucket, f.bucket, locale), peakCount: n(peak.enrolments, locale) });
  return {
    summary,
    sections: [
      {
        chart: columnChart(t.names.enrolments, labels, [{ name: t.enrolments.enrolments, values: r.series.map((b) => b.enrolments) }, { name: t.enrolments.completions, values: r.series.map((b) => b.completions) }], (v) => n(v, locale)),
        table: {
          caption: format(t.table, { name: t.names.enrolments }),
          head: [t.enrolments.bucket, t.enrolments.enrolments, t.enrolments.completions],
          rows: r.series.map((b) => [{ text: bucketLabel(b.bucket, f.bucket, locale) }, { text: n(b.enrolments, locale), numeric: true }, { text: n(b.completions, locale), numeric: true }]),
        },
      },
    ],
  };
}

export function funnelView(rows: FunnelRow[], f: ReportFilter, locale: Locale, t: T): ReportView {
  const steps = (r: FunnelRow) => funnel(PROGRESS_STEPS.map((step) => ({ step, count: r[step] })));
  const one = f.courseId !== undefined ? rows.find((r) => r.courseId === f.courseId) : rows.length === 1 ? rows[0] : undefined;
  const summary = one
    ? format(t.funnel.summary, { course: name(locale, one), started: n(one.started, locale), certified: n(one.certified, locale), share: formatShare(one.started ? one.certified / one.started : null, locale) })
    : rows.length === 0
      ? t.empty
      : t.funnel.pick;
  const chart: Chart | undefined = one
    ? (() => {
        const s = steps(one);
        const widths = barWidths(s.map((x) => x.count));
        return { kind: 'bars' as const, title: name(locale, one), rows: s.map((x, i) => ({ label: t.funnel.steps[x.step], text: `${n(x.count, locale)} · ${formatShare(x.ofStart === null ? null : x.ofStart / 100, locale)}`, width: widths[i]! })) };
      })()
    : undefined;
  return {
    summary,
    sections: [
      {
        ...(chart ? { chart } : {}),
        table: {
          caption: format(t.table, { name: t.names.funnel }),
          head: [t.funnel.course, t.funnel.lessons, ...PROGRESS_STEPS.map((s) => t.funnel.steps[s])],
          rows: rows.map((r) => [
            { text: name(locale, r) },
            { text: n(r.lessons, locale), numeric: true },
            ...steps(r).map((x, i) => ({ text: i === 0 ? n(x.count, locale) : `${n(x.count, locale)} (${formatShare(x.ofStart === null ? null : x.ofStart / 100, locale)})`, numeric: true })),
          ]),
        },
      },
    ],
  };
}

export function examsView(summaryRows: ExamSummaryRow[], items: ItemRow[] | null, f: ReportFilter, locale: Locale, t: T): ReportView {
  const attempts = summaryRows.reduce((a, r) => a + r.attempts, 0);
  const passed = summaryRows.reduce((a, r) => a + r.passed, 0);
  const decimal = (v: number | null, digits: number) => (v === null ? '—' : new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v));
  const sections: Section[] = [
    {
      table: {
        caption: format(t.table, { name: t.names.exams }),
        head: [t.exams.course, t.exams.attempts, t.exams.passed, t.exams.passRate, t.exams.average],
        rows: summaryRows.map((r) => [
          { text: name(locale, r), href: `${localePath(locale, paths.adminReport('exams'))}?${new URLSearchParams({ from: f.fromDay, to: f.toDay, course: String(r.courseId) }).toString()}` },
          { text: n(r.attempts, locale), numeric: true },
          { text: n(r.passed, locale), numeric: true },
          { text: formatShare(r.attempts ? r.passed / r.attempts : null, locale), numeric: true },
          { text: decimal(r.averageScore, 1), numeric: true },
        ]),
      },
    },
  ];
  let summary = attempts === 0 ? t.empty : format(t.exams.summary, { attempts: n(attempts, locale), share: formatShare(passed / attempts, locale) });
  if (items) {
    const course = summaryRows.find((r) => r.courseId === f.courseId);
    const flags = items.map((q) => itemFlag(q.answers, q.answers ? q.right / q.answers : null, q.discrimination));
    const flagged = flags.filter((fl) => fl !== 'good' && fl !== 'fewAnswers').length;
    summary += ' ' + format(t.exams.itemsSummary, { count: n(items.length, locale), flagged: n(flagged, locale) });
    const widths = barWidths(items.map((q) => (q.answers ? (q.right * 100) / q.answers : 0)).concat(100)).slice(0, -1);
    sections.push({
      heading: format(t.exams.items, { course: course ? name(locale, course) : String(f.courseId) }),
      lead: t.exams.itemsLead,
      chart: { kind: 'bars', title: t.exams.right, rows: items.map((q, i) => ({ label: `${t.exams.question} ${q.position}${q.retired ? ` ${t.exams.retired}` : ''}`, text: formatShare(q.answers ? q.right / q.answers : null, locale), width: widths[i]! })) },
      table: {
        caption: format(t.table, { name: t.exams.right }),
        head: [t.exams.question, t.exams.answers, t.exams.right, t.exams.wrong, t.exams.discrimination, t.exams.flag],
        rows: items.map((q, i) => [
          {
            text: `${q.position}. ${locale === 'en' ? q.promptEn : q.promptEs}${q.retired ? ` ${t.exams.retired}` : ''}`,
            ...(q.retired || f.courseId === undefined ? {} : { href: `${localePath(locale, paths.adminQuestionBank(f.courseId, `?edit=${q.questionId}`))}#question-form`, label: format(t.exams.edit, { n: q.position }) }),
          },
          { text: n(q.answers, locale), numeric: true },
          { text: formatShare(q.answers ? q.right / q.answers : null, locale), numeric: true },
          { text: q.wrong ? format(t.exams.times, { text: locale === 'en' ? q.wrong.textEn : q.wrong.textEs, count: n(q.wrong.times, locale) }) : t.exams.none },
          { text: decimal(q.discrimination, 2), numeric: true },
          { text: t.exams.flags[flags[i]!], flag: flags[i]! },
        ]),
      },
    });
  } else {
    sections.push({ table: { caption: '', head: [], rows: [] }, note: t.exams.pickCourse });
  }
  return { summary, sections };
}

export function revenueView(r: RevenueReport, f: ReportFilter, locale: Locale, t: T): ReportView {
  const money = (x: RevenueRow): Cell[] => [
    { text: n(x.orders, locale), numeric: true },
    { text: formatCents(x.gross, locale), numeric: true },
    { text: formatSignedCents(-x.refunded, locale), numeric: true },
    { text: formatSignedCents(x.net, locale), numeric: true },
  ];
  const head = (first: string) => [first, t.revenue.orders, t.revenue.gross, t.revenue.refunded, t.revenue.net];
  const breakdown = (key: 'byCourse' | 'byKind' | 'byCoupon' | 'byIbo', label: (x: RevenueRow) => string): Section => {
    const rows = r[key];
    const widths = barWidths(rows.map((x) => Math.max(0, x.net)));
    return {
      heading: t.revenue[key],
      ...(rows.length > 0 ? { chart: { kind: 'bars' as const, title: t.revenue[key], rows: rows.slice(0, 12).map((x, i) => ({ label: label(x), text: formatSignedCents(x.net, locale), width: widths[i]! })) } } : {}),
      table: { caption: format(t.table, { name: t.revenue[key] }), head: head(t.revenue.key), rows: rows.map((x) => [{ text: label(x) }, ...money(x)]) },
    };
  };
  const labels = r.byDay.map((d) => bucketLabel(d.bucket, f.bucket, locale, true));
  return {
    summary: format(t.revenue.summary, { ...range(f, locale), gross: formatCents(r.totals.gross, locale), orders: n(r.totals.orders, locale), refunded: formatCents(r.totals.refunded, locale), net: formatSignedCents(r.totals.net, locale) }),
    sections: [
      {
        heading: t.revenue.byDay,
        chart: columnChart(t.revenue.byDay, labels, [{ name: t.revenue.net, values: r.byDay.map((d) => Math.max(0, d.net) / 100) }, { name: t.revenue.refunded, values: r.byDay.map((d) => d.refunded / 100) }], (v) => formatCents(Math.round(v * 100), locale).replace(/[.,]00$/, '')),
        table: { caption: format(t.table, { name: t.revenue.byDay }), head: head(t.revenue.bucket), rows: r.byDay.map((d) => [{ text: bucketLabel(d.bucket, f.bucket, locale) }, ...money(d)]) },
        note: t.revenue.note,
      },
      breakdown('byCourse', (x) => (locale === 'en' ? x.labelEn : x.labelEs)),
      breakdown('byKind', (x) => t.revenue.kinds[x.key as 'course' | 'book' | 'plan'] ?? x.key),
      breakdown('byCoupon', (x) => x.key || t.revenue.noCoupon),
      breakdown('byIbo', (x) => (x.key ? x.labelEs : t.revenue.noIbo)),
    ],
  };
}

export function acquisitionView(rows: AcquisitionRow[], f: ReportFilter, locale: Locale, t: T): ReportView {
  const sum = (k: (typeof ACQUISITION_STEPS)[number]) => rows.reduce((a, r) => a + r[k], 0);
  const totals = Object.fromEntries(ACQUISITION_STEPS.map((k) => [k, sum(k)])) as Record<(typeof ACQUISITION_STEPS)[number], number>;
  const steps = funnel(ACQUISITION_STEPS.map((step) => ({ step, count: totals[step] })));
  const widths = barWidths(steps.map((s) => s.count));
  const one = f.iboId !== undefined ? rows[0] : undefined;
  return {
    summary: format(t.acquisition.summary, { ...range(f, locale), visits: n(totals.visits, locale), prospects: n(totals.prospects, locale), registered: n(totals.registered, locale), buyers: n(totals.buyers, locale) }),
    sections: [
      {
        chart: { kind: 'bars', title: one ? `${one.code} · ${one.companyName}` : t.names.acquisition, rows: steps.map((s, i) => ({ label: t.acquisition.steps[s.step], text: `${n(s.count, locale)} · ${formatShare(s.ofPrevious === null ? null : s.ofPrevious / 100, locale)}`, width: widths[i]! })) },
        table: {
          caption: format(t.table, { name: t.names.acquisition }),
          head: [t.acquisition.ibo, ...ACQUISITION_STEPS.map((s) => t.acquisition.steps[s])],
          rows: rows.map((r) => [{ text: `${r.code} · ${r.companyName}` }, ...ACQUISITION_STEPS.map((s) => ({ text: n(r[s], locale), numeric: true }))]),
        },
        note: t.acquisition.note,
      },
    ],
  };
}
