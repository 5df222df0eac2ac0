/**
 * Messages of an IBO's team (/mybusiness/team): the IBOs it sponsored and theirs, two levels deep,
 * with their funnels over a period and the team's sum. Figures only: never another IBO's people.
 */
import type { Shape } from '../types';

export const es = {
  businessTeam: {
    title: 'Mi equipo',
    description: 'Los IBO que patrocinaste y los que ellos patrocinaron, con lo que producen sus enlaces.',
    lead: 'Los IBO que patrocinaste (nivel 1) y los que ellos patrocinaron (nivel 2), con las cifras de sus enlaces en el periodo. Solo ves cifras: las personas de cada IBO son suyas.',
    you: 'Tú ({code})',
    sum: 'Tu equipo en total',
    member: 'IBO',
    steps: { visits: 'Visitas', prospects: 'Prospectos', registered: 'Registros', buyers: 'Compradores', revenue: 'Ingresos' },
    level: 'Nivel',
    levels: { 1: 'Nivel 1', 2: 'Nivel 2' },
    sponsoredBy: 'Patrocinado por {code}',
    suspended: 'suspendido',
    summary: 'Del {from} al {to}: tu equipo tiene {members} IBO; sus enlaces sumaron visitas, {visits}; registros, {registered}; compradores, {buyers}; ingresos, {revenue}.',
    none: 'Todavía no patrocinas a ningún IBO. Cuando la academia registre a un IBO con tu código como patrocinador, aparecerá aquí.',
    caption: 'Cifras de tu equipo del {from} al {to}',
    note: 'Los compradores se cuentan por IBO: una persona que compró a dos IBO cuenta en cada uno.',
  },
};

export const en: Shape<typeof es> = {
  businessTeam: {
    title: 'My team',
    description: 'The IBOs you sponsored and the ones they sponsored, with what their links produce.',
    lead: 'The IBOs you sponsored (level 1) and the ones they sponsored (level 2), with the figures of their links over the period. You see figures only: each IBO’s people are their own.',
    you: 'You ({code})',
    sum: 'Your team in all',
    member: 'IBO',
    steps: { visits: 'Visits', prospects: 'Prospects', registered: 'Sign-ups', buyers: 'Buyers', revenue: 'Revenue' },
    level: 'Level',
    levels: { 1: 'Level 1', 2: 'Level 2' },
    sponsoredBy: 'Sponsored by {code}',
    suspended: 'suspended',
    summary: 'From {from} to {to}: your team has {members} IBOs; their links added up to visits, {visits}; sign-ups, {registered}; buyers, {buyers}; revenue, {revenue}.',
    none: 'You do not sponsor any IBO yet. When the academy registers an IBO with your code as its sponsor, it will show here.',
    caption: 'Your team’s figures from {from} to {to}',
    note: 'Buyers are counted per IBO: someone who bought from two IBOs counts in each.',
  },
};
