/** Messages of the back office's dashboard figures: today's and this month's, each against its previous period. */
import type { Shape } from '../types';

export const es = {
  dashboardFigures: {
    heading: 'Cifras',
    utc: 'Días y meses en hora UTC.',
    today: 'Hoy',
    month: 'Este mes',
    now: 'Ahora',
    previous: { day: 'Ayer a esta hora: {value}', month: 'Mismos días del mes pasado: {value}' },
    figures: {
      newLearners: 'Estudiantes nuevos',
      activeLearners: 'Estudiantes activos',
      completions: 'Cursos completados',
      revenue: 'Ingresos',
      openSupport: 'Mensajes de soporte abiertos',
    },
    openSupportLead: 'Nuevos o en curso.',
    change: {
      up: 'Sube {delta} ({percent} %)',
      down: 'Baja {delta} ({percent} %)',
      same: 'Sin cambios',
      new: 'Nuevo: antes no hubo ninguno',
    },
  },
} as const;

export const en: Shape<typeof es> = {
  dashboardFigures: {
    heading: 'Figures',
    utc: 'Days and months in UTC.',
    today: 'Today',
    month: 'This month',
    now: 'Right now',
    previous: { day: 'Yesterday by this time: {value}', month: 'Same days last month: {value}' },
    figures: {
      newLearners: 'New learners',
      activeLearners: 'Active learners',
      completions: 'Courses completed',
      revenue: 'Revenue',
      openSupport: 'Open support messages',
    },
    openSupportLead: 'New or in progress.',
    change: {
      up: 'Up {delta} ({percent}%)',
      down: 'Down {delta} ({percent}%)',
      same: 'No change',
      new: 'New: there were none before',
    },
  },
};
