/**
 * What the IBO's funnel page draws, pure: its summary sentence, the steps as bars with the conversion
 * from each to the next, the comparison with the period before, and the figures per bucket as columns
 * and a table, every text in the reader's language. The shapes are the reports' (`reports/view.ts`), so
 * the page draws them with the reports' own components.
 */
import { format, messages, type Locale } from '~/i18n';
import { formatCents } from '../commerce/money';
import { barWidths } from '../reports/chart';
import { bucketLabel, formatCount, formatShare, type ReportFilter } from '../reports/reports';
import { columnChart, type ReportView } from '../reports/view';
import { BUSINESS_FUNNEL_STEPS, changeOf, funnelSteps, type FunnelFigures } from './funnel';
import type { IboFunnel } from './funnel.server';

/** A change against the period before, signed ("+25 %", "−10 %"), or the words for "nothing before". */
export function changeText(now: number, before: number, locale: Locale): string {
  const change = changeOf(now, before);
  if (change === null) return now === 0 ? '—' : messages(locale).businessFunnel.compare.none;
  const text = formatShare(Math.abs(change), locale);
  return change > 0 ? `+${text}` : change < 0 ? `−${text}` : text;
}

export function businessFunnelView(figures: IboFunnel, period: ReportFilter, previous: ReportFilter, locale: Locale): ReportView {
  const t = messages(locale).businessFunnel;
  const n = (v: number) => formatCount(v, locale);
  const day = (d: string) => bucketLabel(d, 'day', locale);
  const value = (key: keyof FunnelFigures, figures: FunnelFigures) => (key === 'revenue' ? formatCents(figures.revenue, locale) : n(figures[key]));
  const steps = funnelSteps(figures.totals);
  const widths = barWidths(steps.map((s) => s.count));
  const { totals } = figures;
  const nothing = BUSINESS_FUNNEL_STEPS.every((s) => totals[s] === 0) && totals.revenue === 0;
  const labels = figures.series.map((b) => bucketLabel(b.bucket, period.bucket, locale, true));
  const bucketName = t.series[period.bucket];
  return {
    summary: nothing
      ? t.empty
      : format(t.summary, { from: day(period.fromDay), to: day(period.toDay), visits: n(totals.visits), prospects: n(totals.prospects), registered: n(totals.registered), buyers: n(totals.buyers), revenue: formatCents(totals.revenue, locale) }),
    sections: [
      {
        heading: t.stepsTitle,
        chart: {
          kind: 'bars',
          title: t.stepsTitle,
          rows: steps.map((s, i) => ({ label: t.steps[s.step], text: i === 0 ? n(s.count) : `${n(s.count)} · ${formatShare(s.ofPrevious === null ? null : s.ofPrevious / 100, locale)}`, width: widths[i]! })),
        },
        table: {
          caption: t.stepsTitle,
          head: [t.compare.figure, t.compare.now, t.conversionHead],
          rows: [
            ...steps.map((s, i) => [{ text: t.steps[s.step] }, { text: n(s.count), numeric: true }, { text: i === 0 || s.ofPrevious === null ? '—' : format(t.conversion, { share: formatShare(s.ofPrevious / 100, locale) }), numeric: true }]),
          ],
        },
      },
      {
        heading: t.compare.title,
        lead: format(t.compare.lead, { from: day(previous.fromDay), to: day(previous.toDay) }),
        table: {
          caption: t.compare.title,
          head: [t.compare.figure, t.compare.now, t.compare.before, t.compare.change],
          rows: ([...BUSINESS_FUNNEL_STEPS, 'revenue'] as const).map((k) => [
            { text: t.steps[k] },
            { text: value(k, figures.totals), numeric: true },
            { text: value(k, figures.previous), numeric: true },
            { text: changeText(figures.totals[k], figures.previous[k], locale), numeric: true },
          ]),
        },
      },
      {
        heading: bucketName,
        chart: columnChart(
          format(t.seriesCaption, { bucket: bucketName.toLowerCase() }),
          labels,
          (['visits', 'registered', 'buyers'] as const).map((k) => ({ name: t.steps[k], values: figures.series.map((b) => b[k]) })),
          n,
        ),
        table: {
          caption: format(t.seriesCaption, { bucket: bucketName.toLowerCase() }),
          head: [t.when, ...([...BUSINESS_FUNNEL_STEPS, 'revenue'] as const).map((k) => t.steps[k])],
          rows: figures.series.map((b) => [{ text: bucketLabel(b.bucket, period.bucket, locale) }, ...([...BUSINESS_FUNNEL_STEPS, 'revenue'] as const).map((k) => ({ text: value(k, b), numeric: true }))]),
        },
        note: t.note,
      },
    ],
  };
}
