/**
 * Messages of an IBO's funnel (/mybusiness/funnel): the period form, the steps with their conversion,
 * the comparison with the period before, the figures by day, week or month, and the refusals of a period.
 */
import type { Shape } from '../types';

export const es = {
  businessFunnel: {
    title: 'Mi embudo',
    description: 'Lo que producen tus enlaces: visitas, prospectos, registros, compradores e ingresos.',
    lead: 'Lo que producen tus enlaces en el periodo que elijas, comparado con el periodo anterior de la misma duración.',
    period: 'Periodo',
    from: 'Desde',
    to: 'Hasta',
    apply: 'Ver periodo',
    quick: 'Periodos rápidos',
    last: { 7: 'Últimos 7 días', 30: 'Últimos 30 días', 90: 'Últimos 90 días', 365: 'Último año' },
    summary: 'Del {from} al {to}: visitas, {visits}; prospectos, {prospects}; registros, {registered}; compradores, {buyers}; ingresos, {revenue}.',
    steps: { visits: 'Visitas por tus enlaces', prospects: 'Prospectos que registraste', registered: 'Registros por tu enlace', buyers: 'Compradores', revenue: 'Ingresos' },
    stepsTitle: 'Tu embudo, paso a paso',
    conversion: '{share} del paso anterior',
    conversionHead: 'Conversión',
    compare: {
      title: 'Comparado con el periodo anterior',
      lead: 'Periodo anterior: del {from} al {to}.',
      figure: 'Cifra',
      now: 'Este periodo',
      before: 'Periodo anterior',
      change: 'Cambio',
      none: 'sin datos antes',
    },
    series: { day: 'Por día', week: 'Por semana', month: 'Por mes' },
    seriesCaption: 'Tus cifras {bucket}',
    when: 'Fecha',
    empty: 'En este periodo tus enlaces todavía no produjeron nada. Compártelos desde la sección Compartir.',
    note: 'Las visitas se cuentan por día sin guardar nada de quien visita. Los ingresos son lo que pagaron los pedidos con tu referencia, después de cupones y menos lo reembolsado. Días en hora UTC.',
    refusals: {
      otherIbo: 'Solo puedes ver las cifras de tu propio negocio.',
    },
  },
};

export const en: Shape<typeof es> = {
  businessFunnel: {
    title: 'My funnel',
    description: 'What your links produce: visits, prospects, sign-ups, buyers and revenue.',
    lead: 'What your links produce over the period you choose, compared with the period of the same length before it.',
    period: 'Period',
    from: 'From',
    to: 'To',
    apply: 'Show period',
    quick: 'Quick periods',
    last: { 7: 'Last 7 days', 30: 'Last 30 days', 90: 'Last 90 days', 365: 'Last year' },
    summary: 'From {from} to {to}: visits, {visits}; prospects, {prospects}; sign-ups, {registered}; buyers, {buyers}; revenue, {revenue}.',
    steps: { visits: 'Visits through your links', prospects: 'Prospects you registered', registered: 'Sign-ups through your link', buyers: 'Buyers', revenue: 'Revenue' },
    stepsTitle: 'Your funnel, step by step',
    conversion: '{share} of the step before',
    conversionHead: 'Conversion',
    compare: {
      title: 'Compared with the period before',
      lead: 'Period before: from {from} to {to}.',
      figure: 'Figure',
      now: 'This period',
      before: 'Period before',
      change: 'Change',
      none: 'nothing before',
    },
    series: { day: 'By day', week: 'By week', month: 'By month' },
    seriesCaption: 'Your figures {bucket}',
    when: 'Date',
    empty: 'Your links have not produced anything in this period yet. Share them from the Share section.',
    note: 'Visits are counted per day, keeping nothing about the visitor. Revenue is what the orders you referred paid, after coupons and less refunds. Days in UTC.',
    refusals: {
      otherIbo: 'You can only see the figures of your own business.',
    },
  },
};
