/**
 * Seed catalogue of the academy besides its courses: categories, business lines, which demo courses
 * there are (their archives hold the rest), books, membership plans and contact reasons. Pure typed
 * data, bilingual (Spanish default, English); no I/O.
 */

/** A text in both languages of the academy. */
export interface Bilingual {
  es: string;
  en: string;
}

/** Course categories, i.e. the levels of the catalogue. */
export const categories: { id: 2 | 3 | 4 | 5; name: Bilingual }[] = [
  { id: 2, name: { es: 'Introductorio', en: 'Introductory' } },
  { id: 3, name: { es: 'Básico', en: 'Basic' } },
  { id: 4, name: { es: 'Intermedio', en: 'Intermediate' } },
  { id: 5, name: { es: 'Entrenamientos', en: 'Trainings' } },
];

/** Business lines a course belongs to. */
export const businesses: { id: 1 | 2 | 3 | 4; name: Bilingual }[] = [
  { id: 1, name: { es: 'Viajes', en: 'Travel' } },
  { id: 2, name: { es: 'Emprendimiento', en: 'Entrepreneurship' } },
  { id: 3, name: { es: 'Marketing digital', en: 'Digital marketing' } },
  { id: 4, name: { es: 'Finanzas personales', en: 'Personal finance' } },
];

/**
 * The demo courses, in the order they are seeded, each with its row id here (ids mean nothing in an
 * archive, and many pages and tests name courses 2 and 31). Everything else about a course is its course
 * archive in `assets/demo-catalogue/<code>/` (see `demo-catalogue.server.ts`).
 */
export const demoCourses: readonly { id: number; code: string }[] = [
  { id: 1, code: 'INTRO-ACADEMY' },
  { id: 2, code: 'TRAVEL-FUNDAMENTALS' },
  { id: 3, code: 'IBO-FIRST-STEPS' },
  { id: 4, code: 'BOOKING-TOOLS' },
  { id: 5, code: 'DIGITAL-MARKETING-BASICS' },
  { id: 6, code: 'PERSONAL-FINANCE-ESSENTIALS' },
  { id: 7, code: 'SELLING-TRAVEL-PACKAGES' },
  { id: 8, code: 'SOCIAL-MEDIA-TRAVEL' },
  { id: 9, code: 'LEADERSHIP-DISTRIBUTORS' },
  { id: 10, code: 'ELITE-TRAVEL-AGENT' },
  { id: 11, code: 'CUSTOMER-SERVICE-EXCELLENCE' },
  { id: 12, code: 'INTERNAL-TEST' },
  { id: 16, code: 'MASTERMIND-SCALE' },
  { id: 20, code: 'CRUISE-SALES-MASTERCLASS' },
  { id: 31, code: 'REAL-VISION-BASIC' },
  { id: 32, code: 'REAL-VISION-INTERMEDIATE' },
];

/** Books sold in the academy store. */
export const books: {
  id: number;
  code: string;
  title: Bilingual;
  author: string;
  description: Bilingual;
  price: string;
  cover: string;
}[] = [
  {
    id: 1,
    code: 'BOOK-ART-TRAVEL',
    title: { es: 'El arte de viajar vendiendo', en: 'The art of selling travel' },
    author: 'Lucía Herrera',
    description: {
      es: 'Una guía práctica para convertir la pasión por los viajes en un negocio rentable. Lucía Herrera comparte técnicas de venta, historias reales y los errores que conviene evitar.',
      en: 'A practical guide to turning a passion for travel into a profitable business. Lucía Herrera shares sales techniques, real stories and the mistakes worth avoiding.',
    },
    price: '14.90',
    cover: '/images/books/1.webp',
  },
  {
    id: 2,
    code: 'BOOK-BORDERLESS',
    title: { es: 'Emprender sin fronteras', en: 'Entrepreneurship without borders' },
    author: 'Diego Morales',
    description: {
      es: 'Diego Morales explica cómo construir un negocio independiente que funcione desde cualquier lugar del mundo. Incluye herramientas para organizar el tiempo, formar equipos y mantener la motivación.',
      en: 'Diego Morales explains how to build an independent business that works from anywhere in the world. It includes tools for organizing your time, building teams and staying motivated.',
    },
    price: '18.50',
    cover: '/images/books/2.webp',
  },
  {
    id: 3,
    code: 'BOOK-FINANCE-INDEPENDENTS',
    title: { es: 'Finanzas para independientes', en: 'Finance for independents' },
    author: 'Valeria Ortiz',
    description: {
      es: 'Un manual claro para gestionar ingresos variables, ahorrar e invertir sin complicaciones. Valeria Ortiz propone un método paso a paso pensado para quienes trabajan por cuenta propia.',
      en: 'A clear handbook for managing variable income, saving and investing without complications. Valeria Ortiz offers a step-by-step method designed for the self-employed.',
    },
    price: '12.00',
    cover: '/images/books/3.webp',
  },
  {
    id: 4,
    code: 'BOOK-DESTINATION-MARKETING',
    title: { es: 'Marketing de destinos', en: 'Destination marketing' },
    author: 'Andrés Castillo',
    description: {
      es: 'Andrés Castillo revela cómo se promocionan los destinos turísticos y cómo aplicar esas estrategias a tu propio negocio. Incluye ejemplos de campañas reales en redes sociales y medios digitales.',
      en: 'Andrés Castillo reveals how travel destinations are promoted and how to apply those strategies to your own business. It includes examples of real campaigns on social media and digital channels.',
    },
    price: '16.75',
    cover: '/images/books/4.webp',
  },
];

/** Membership plans and the course categories each one unlocks. */
export const plans: {
  id: number;
  code: string;
  name: Bilingual;
  description: Bilingual;
  price: string;
  period: 'month' | 'year';
  features: Bilingual[];
  unlocksCategoryIds: number[];
}[] = [
  {
    id: 1,
    code: 'PLAN-BASIC',
    name: { es: 'Básica', en: 'Basic' },
    description: {
      es: 'Ideal para empezar: acceso a todos los cursos introductorios y básicos.',
      en: 'Ideal for getting started: access to all introductory and basic courses.',
    },
    price: '9.99',
    period: 'month',
    features: [
      {
        es: 'Acceso a todos los cursos introductorios y básicos',
        en: 'Access to all introductory and basic courses',
      },
      {
        es: 'Certificado digital al aprobar cada curso',
        en: 'A digital certificate for every course you pass',
      },
      { es: 'Estudia a tu ritmo desde cualquier dispositivo', en: 'Study at your own pace on any device' },
    ],
    unlocksCategoryIds: [2, 3],
  },
  {
    id: 2,
    code: 'PLAN-PROFESSIONAL',
    name: { es: 'Profesional', en: 'Professional' },
    description: {
      es: 'Para quienes quieren crecer: suma los cursos intermedios a tu formación.',
      en: 'For those who want to grow: add the intermediate courses to your training.',
    },
    price: '19.99',
    period: 'month',
    features: [
      { es: 'Todo lo incluido en la membresía Básica', en: 'Everything in the Basic membership' },
      { es: 'Acceso a todos los cursos intermedios', en: 'Access to all intermediate courses' },
      { es: 'Recursos descargables exclusivos', en: 'Exclusive downloadable resources' },
      { es: 'Soporte prioritario por correo electrónico', en: 'Priority email support' },
    ],
    unlocksCategoryIds: [2, 3, 4],
  },
  {
    id: 3,
    code: 'PLAN-ELITE',
    name: { es: 'Élite', en: 'Elite' },
    description: {
      es: 'Acceso completo durante un año, incluidos los entrenamientos para líderes.',
      en: 'Full access for a whole year, including the leadership trainings.',
    },
    price: '199.00',
    period: 'year',
    features: [
      {
        es: 'Todo lo incluido en la membresía Profesional',
        en: 'Everything in the Professional membership',
      },
      { es: 'Acceso a todos los entrenamientos', en: 'Access to all trainings' },
      { es: 'Sesiones de preguntas y respuestas en vivo', en: 'Live Q&A sessions' },
      { es: 'Material exclusivo para líderes de equipo', en: 'Exclusive material for team leaders' },
      { es: 'Un solo pago al año', en: 'A single payment per year' },
    ],
    unlocksCategoryIds: [2, 3, 4, 5],
  },
];

/** Reasons a visitor can pick in the contact form; id 8 (course information) must exist. */
export const contactUsTypes: { id: number; description: Bilingual }[] = [
  { id: 8, description: { es: 'Información sobre cursos', en: 'Course information' } },
  { id: 1, description: { es: 'Soporte técnico', en: 'Technical support' } },
  { id: 2, description: { es: 'Facturación y pagos', en: 'Billing and payments' } },
  { id: 3, description: { es: 'Quiero ser IBO', en: 'I want to become an IBO' } },
  { id: 4, description: { es: 'Otro', en: 'Other' } },
];

/** Identification document types the payment form offers, named in each language. */
export const identificationTypes: { id: number; name: Bilingual }[] = [
  { id: 1, name: { es: 'Pasaporte', en: 'Passport' } },
  { id: 2, name: { es: 'Documento nacional de identidad', en: 'National identity document' } },
  { id: 3, name: { es: 'Licencia de conducir', en: "Driver's license" } },
  { id: 4, name: { es: 'Identificación tributaria', en: 'Tax identification number' } },
];
