/**
 * Seed catalogue of the academy: categories, business lines, courses (with their
 * modules, lessons and exam question pools), books, membership plans and contact
 * reasons. Pure typed data, bilingual (Spanish default, English); no I/O.
 */

/** A text in both languages of the academy. */
export interface Bilingual {
  es: string;
  en: string;
}

/**
 * A further resource of a lesson: a PDF document kept in the media folder (`file`, relative to
 * `MEDIA_DIR`; written by `npm run documents` and served only through the access-checked media
 * endpoint) or an external link.
 */
export type SeedExtra = { kind: 'pdf'; title: Bilingual; file: `docs/${string}.pdf` } | { kind: 'link'; title: Bilingual; url: string };

export interface SeedLesson {
  /** e.g. "C01-M1-L1", unique across the whole catalogue. */
  code: string;
  name: Bilingual;
  /** One sentence. */
  summary: Bilingual;
  /** The video file it plays. */
  clip: 'clip-1' | 'clip-2' | 'clip-3' | 'clip-4' | 'clip-5' | 'clip-6';
  /** Optional further resources. */
  extras?: SeedExtra[];
}

export interface SeedModule {
  code: string;
  name: Bilingual;
  lessons: SeedLesson[];
}

export interface SeedQuestion {
  /** `single` (the default): 4 options, exactly one correct; `multiple`: one or more correct; `true-false`: true, then false. */
  kind?: 'single' | 'multiple' | 'true-false';
  prompt: Bilingual;
  options: { text: Bilingual; correct: boolean }[];
}

export interface SeedExam {
  /** Time limit. */
  minutes: number;
  /** Questions drawn per attempt from the pool. */
  questionCount: number;
  /** Minimum score in percent. */
  passingScore: number;
  maxAttempts: number;
  /** At least questionCount + 3 questions. */
  pool: SeedQuestion[];
}

export interface SeedCourse {
  id: number;
  /** e.g. "INTRO-ACADEMY". */
  code: string;
  name: Bilingual;
  /** 2–3 sentences for the course page. */
  description: Bilingual;
  /** 2 introductory, 3 basic, 4 intermediate, 5 trainings. */
  categoryId: 2 | 3 | 4 | 5;
  /** Business line. */
  businessId: 1 | 2 | 3 | 4;
  /** Free for guests (`allowAll`). */
  allowAll: boolean;
  /** Hidden test course. */
  isTest: boolean;
  /** USD with 2 decimals, "0.00" when not paid. */
  price: string;
  prerequisiteCourseId: number | null;
  visibleOnlyToBuyers: boolean;
  /** "/images/courses/<id>.webp". */
  thumbnail: string;
  /** 2–4 modules, each with 2–4 lessons. */
  modules: SeedModule[];
  exam: SeedExam;
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

/** The 16 courses of the catalogue, with modules, lessons and exam pools. */
export const courses: SeedCourse[] = [
  {
    id: 1,
    code: 'INTRO-ACADEMY',
    name: { es: 'Bienvenida a la academia', en: 'Welcome to the academy' },
    description: {
      es: 'Conoce cómo funciona la academia, cómo avanzar por los cursos y cómo aprovechar cada recurso. Este recorrido gratuito te prepara para sacar el máximo provecho de tu formación desde el primer día.',
      en: 'Learn how the academy works, how to progress through the courses and how to make the most of every resource. This free tour prepares you to get the most out of your training from day one.',
    },
    categoryId: 2,
    businessId: 2,
    allowAll: true,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/1.webp',
    modules: [
      {
        code: 'C01-M1',
        name: { es: 'Conoce la academia', en: 'Getting to know the academy' },
        lessons: [
          {
            code: 'C01-M1-L1',
            name: { es: '¿Qué es la academia?', en: 'What is the academy?' },
            summary: {
              es: 'Descubre la misión de la academia y todo lo que puedes aprender en ella.',
              en: "Discover the academy's mission and everything you can learn here.",
            },
            clip: 'clip-1',
          },
          {
            code: 'C01-M1-L2',
            name: { es: 'Categorías y líneas de negocio', en: 'Categories and business lines' },
            summary: {
              es: 'Entiende cómo se organizan los cursos por nivel y por línea de negocio.',
              en: 'Understand how courses are organized by level and by business line.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C01-M1-L3',
            name: { es: 'Tu perfil y tus preferencias', en: 'Your profile and preferences' },
            summary: {
              es: 'Configura tu perfil, tu idioma y tus notificaciones en pocos minutos.',
              en: 'Set up your profile, language and notifications in a few minutes.',
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C01-M2',
        name: { es: 'Cómo estudiar aquí', en: 'How to study here' },
        lessons: [
          {
            code: 'C01-M2-L1',
            name: { es: 'Lecciones, videos y recursos', en: 'Lessons, videos and resources' },
            summary: {
              es: 'Aprende a reproducir las lecciones y a descargar los materiales complementarios.',
              en: 'Learn how to play lessons and download the supplementary materials.',
            },
            clip: 'clip-4',
            extras: [
              { kind: 'pdf', title: { es: 'Guía rápida de la academia', en: 'Academy quick guide' }, file: 'docs/guia-academia.pdf' },
            ],
          },
          {
            code: 'C01-M2-L2',
            name: { es: 'Exámenes y certificados', en: 'Exams and certificates' },
            summary: {
              es: 'Conoce cómo funcionan los exámenes, los intentos y los certificados.',
              en: 'Find out how exams, attempts and certificates work.',
            },
            clip: 'clip-5',
          },
        ],
      },
    ],
    exam: {
      minutes: 10,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué nivel de cursos está pensado para quienes empiezan desde cero?',
            en: 'Which course level is designed for people starting from scratch?',
          },
          options: [
            { text: { es: 'Intermedio', en: 'Intermediate' }, correct: false },
            { text: { es: 'Entrenamientos', en: 'Trainings' }, correct: false },
            { text: { es: 'Introductorio', en: 'Introductory' }, correct: true },
            { text: { es: 'Avanzado', en: 'Advanced' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuántos intentos tienes para aprobar el examen de un curso?',
            en: 'How many attempts do you have to pass a course exam?',
          },
          options: [
            { text: { es: 'Uno', en: 'One' }, correct: false },
            { text: { es: 'Dos', en: 'Two' }, correct: false },
            { text: { es: 'Tres', en: 'Three' }, correct: true },
            { text: { es: 'Ilimitados', en: 'Unlimited' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué puntuación mínima necesitas para aprobar un examen?',
            en: 'What minimum score do you need to pass an exam?',
          },
          options: [
            { text: { es: '50 %', en: '50%' }, correct: false },
            { text: { es: '60 %', en: '60%' }, correct: false },
            { text: { es: '70 %', en: '70%' }, correct: true },
            { text: { es: '90 %', en: '90%' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Dónde encuentras los materiales complementarios de una lección?',
            en: "Where do you find a lesson's supplementary materials?",
          },
          options: [
            { text: { es: 'En la página de facturación', en: 'On the billing page' }, correct: false },
            { text: {
              es: 'En los recursos adicionales de la propia lección',
              en: "In the lesson's own extra resources",
            }, correct: true },
            { text: { es: 'Solo se envían por correo postal', en: 'They are only sent by post' }, correct: false },
            { text: { es: 'En el perfil de otro estudiante', en: "On another student's profile" }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué obtienes al aprobar el examen final de un curso?',
            en: "What do you get when you pass a course's final exam?",
          },
          options: [
            { text: { es: 'Un reembolso del precio', en: 'A refund of the price' }, correct: false },
            { text: { es: 'Un certificado del curso', en: 'A course certificate' }, correct: true },
            { text: { es: 'Permisos de administrador', en: 'Administrator permissions' }, correct: false },
            { text: { es: 'Un nuevo nombre de usuario', en: 'A new username' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿En qué idiomas está disponible la academia?',
            en: 'In which languages is the academy available?',
          },
          options: [
            { text: { es: 'Solo inglés', en: 'English only' }, correct: false },
            { text: { es: 'Español y portugués', en: 'Spanish and Portuguese' }, correct: false },
            { text: { es: 'Francés e inglés', en: 'French and English' }, correct: false },
            { text: { es: 'Español e inglés', en: 'Spanish and English' }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué categoría agrupa los programas de formación para líderes?',
            en: 'Which category groups the training programs for leaders?',
          },
          options: [
            { text: { es: 'Entrenamientos', en: 'Trainings' }, correct: true },
            { text: { es: 'Introductorio', en: 'Introductory' }, correct: false },
            { text: { es: 'Básico', en: 'Basic' }, correct: false },
            { text: { es: 'Bienvenida', en: 'Welcome' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué te conviene hacer antes de presentar un examen?',
            en: 'What should you do before taking an exam?',
          },
          options: [
            { text: { es: 'Saltarte los videos para ahorrar tiempo', en: 'Skip the videos to save time' }, correct: false },
            { text: { es: 'Responder al azar para ver las preguntas', en: 'Answer at random to see the questions' }, correct: false },
            { text: { es: 'Completar todas las lecciones del curso', en: 'Complete all the lessons in the course' }, correct: true },
            { text: { es: 'Abrir varios intentos a la vez', en: 'Open several attempts at once' }, correct: false },
          ],
        },
        {
          kind: 'true-false',
          prompt: {
            es: 'Un examen se califica aunque cierres el navegador antes de enviarlo.',
            en: 'An exam is graded even if you close the browser before submitting it.',
          },
          options: [
            { text: { es: 'Verdadero', en: 'True' }, correct: true },
            { text: { es: 'Falso', en: 'False' }, correct: false },
          ],
        },
        {
          kind: 'multiple',
          prompt: {
            es: '¿Qué incluye un certificado de la academia? Marca todas las que correspondan.',
            en: 'What does an academy certificate include? Select all that apply.',
          },
          options: [
            { text: { es: 'Tu nombre completo', en: 'Your full name' }, correct: true },
            { text: { es: 'Un código de verificación', en: 'A verification code' }, correct: true },
            { text: { es: 'Tu contraseña', en: 'Your password' }, correct: false },
            { text: { es: 'Las horas del curso', en: 'The course hours' }, correct: true },
          ],
        },
      ],
    },
  },
  {
    id: 2,
    code: 'TRAVEL-FUNDAMENTALS',
    name: { es: 'Fundamentos de la industria de viajes', en: 'Travel industry fundamentals' },
    description: {
      es: 'Recorre el funcionamiento de la industria turística: sus actores, sus productos y cómo circula el dinero entre ellos. Aprenderás el vocabulario esencial para hablar con confianza con clientes y proveedores.',
      en: 'Explore how the travel industry works: its players, its products and how money flows between them. You will learn the essential vocabulary to speak confidently with customers and suppliers.',
    },
    categoryId: 2,
    businessId: 1,
    allowAll: true,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/2.webp',
    modules: [
      {
        code: 'C02-M1',
        name: { es: 'Panorama de la industria', en: 'Industry overview' },
        lessons: [
          {
            code: 'C02-M1-L1',
            name: { es: 'Cómo funciona el turismo hoy', en: 'How tourism works today' },
            summary: {
              es: 'Una visión general del tamaño y las tendencias del sector turístico.',
              en: 'An overview of the size and trends of the tourism sector.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C02-M1-L2',
            name: { es: 'Actores de la cadena de valor', en: 'Players in the value chain' },
            summary: {
              es: 'Conoce el papel de aerolíneas, hoteles, operadores turísticos y agencias.',
              en: 'Learn the roles of airlines, hotels, tour operators and agencies.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C02-M1-L3',
            name: { es: 'Temporadas y demanda', en: 'Seasons and demand' },
            summary: {
              es: 'Entiende cómo la temporada alta y la baja afectan a los precios y la disponibilidad.',
              en: 'Understand how high and low seasons affect prices and availability.',
            },
            clip: 'clip-2',
          },
        ],
      },
      {
        code: 'C02-M2',
        name: { es: 'Productos turísticos', en: 'Travel products' },
        lessons: [
          {
            code: 'C02-M2-L1',
            name: { es: 'Vuelos y tarifas aéreas', en: 'Flights and airfares' },
            summary: {
              es: 'Aprende las clases de tarifa y qué incluye cada una.',
              en: 'Learn the fare classes and what each one includes.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'link', title: { es: 'Glosario de términos aéreos', en: 'Airline terms glossary' }, url: 'https://example.com/glosario-aereo' },
            ],
          },
          {
            code: 'C02-M2-L2',
            name: { es: 'Alojamiento y regímenes', en: 'Accommodation and meal plans' },
            summary: {
              es: 'Distingue entre solo alojamiento, desayuno incluido, media pensión y todo incluido.',
              en: 'Tell apart room only, bed and breakfast, half board and all-inclusive.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C02-M2-L3',
            name: { es: 'Cruceros, tours y experiencias', en: 'Cruises, tours and experiences' },
            summary: {
              es: 'Descubre los productos que complementan un viaje y aumentan su valor.',
              en: 'Discover the products that complement a trip and increase its value.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C02-M2-L4',
            name: { es: 'Seguros de viaje', en: 'Travel insurance' },
            summary: {
              es: 'Conoce las coberturas básicas y por qué conviene recomendarlas siempre.',
              en: 'Learn the basic coverages and why you should always recommend them.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C02-M3',
        name: { es: 'Vocabulario y requisitos', en: 'Vocabulary and requirements' },
        lessons: [
          {
            code: 'C02-M3-L1',
            name: { es: 'Glosario esencial del viajero', en: 'Essential travel glossary' },
            summary: {
              es: 'Domina términos como escala, conexión, overbooking y check-in.',
              en: 'Master terms such as layover, connection, overbooking and check-in.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C02-M3-L2',
            name: { es: 'Documentación y requisitos de entrada', en: 'Documents and entry requirements' },
            summary: {
              es: 'Repasa pasaportes, visas y requisitos sanitarios antes de vender un viaje.',
              en: 'Review passports, visas and health requirements before selling a trip.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'link', title: { es: 'Consulta de requisitos de entrada', en: 'Entry requirements lookup' }, url: 'https://example.com/requisitos-entrada' },
            ],
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué régimen incluye desayuno y cena, pero no almuerzo?',
            en: 'Which meal plan includes breakfast and dinner but not lunch?',
          },
          options: [
            { text: { es: 'Media pensión', en: 'Half board' }, correct: true },
            { text: { es: 'Todo incluido', en: 'All-inclusive' }, correct: false },
            { text: { es: 'Solo alojamiento', en: 'Room only' }, correct: false },
            { text: { es: 'Pensión completa', en: 'Full board' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es una escala en un vuelo?', en: 'What is a layover on a flight?' },
          options: [
            { text: { es: 'Un descuento por reservar con antelación', en: 'A discount for booking in advance' }, correct: false },
            { text: { es: 'El asiento junto a la ventanilla', en: 'The window seat' }, correct: false },
            { text: { es: 'El límite de equipaje de mano', en: 'The carry-on baggage allowance' }, correct: false },
            { text: {
              es: 'Una parada intermedia antes de llegar al destino final',
              en: 'An intermediate stop before reaching the final destination',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué suele ocurrir con los precios en temporada alta?',
            en: 'What usually happens to prices in high season?',
          },
          options: [
            { text: { es: 'Bajan siempre', en: 'They always fall' }, correct: false },
            { text: { es: 'Suben por el aumento de la demanda', en: 'They rise because demand increases' }, correct: true },
            { text: { es: 'No cambian nunca', en: 'They never change' }, correct: false },
            { text: { es: 'Solo cambian los de los cruceros', en: 'Only cruise prices change' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué actor diseña paquetes que combinan transporte, alojamiento y actividades?',
            en: 'Which player designs packages that combine transport, accommodation and activities?',
          },
          options: [
            { text: { es: 'La aerolínea', en: 'The airline' }, correct: false },
            { text: { es: 'El operador turístico', en: 'The tour operator' }, correct: true },
            { text: { es: 'La aseguradora', en: 'The insurance company' }, correct: false },
            { text: { es: 'El banco emisor de la tarjeta', en: 'The card-issuing bank' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué significa overbooking?', en: 'What does overbooking mean?' },
          options: [
            { text: { es: 'Reservar con un año de antelación', en: 'Booking a year in advance' }, correct: false },
            { text: { es: 'Viajar sin equipaje facturado', en: 'Traveling without checked baggage' }, correct: false },
            { text: { es: 'Cambiar de hotel a mitad del viaje', en: 'Changing hotels halfway through the trip' }, correct: false },
            { text: {
              es: 'Vender más plazas de las que hay disponibles',
              en: 'Selling more seats than are available',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Por qué conviene recomendar siempre un seguro de viaje?',
            en: 'Why should you always recommend travel insurance?',
          },
          options: [
            { text: {
              es: 'Protege al cliente ante imprevistos médicos, cancelaciones o pérdida de equipaje',
              en: 'It protects the customer against medical emergencies, cancellations or lost baggage',
            }, correct: true },
            { text: {
              es: 'Es obligatorio en todos los países del mundo',
              en: 'It is mandatory in every country in the world',
            }, correct: false },
            { text: { es: 'Reduce el precio del vuelo', en: 'It lowers the price of the flight' }, correct: false },
            { text: { es: 'Sustituye al pasaporte', en: 'It replaces the passport' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué debes revisar antes de confirmar un viaje internacional?',
            en: 'What should you check before confirming an international trip?',
          },
          options: [
            { text: { es: 'El color favorito del cliente', en: "The customer's favorite color" }, correct: false },
            { text: { es: 'La marca del avión', en: 'The aircraft manufacturer' }, correct: false },
            { text: {
              es: 'Los requisitos de entrada del destino, como el pasaporte y la visa',
              en: "The destination's entry requirements, such as passport and visa",
            }, correct: true },
            { text: { es: 'El menú del restaurante del hotel', en: "The hotel restaurant's menu" }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué régimen incluye en el precio las comidas, las bebidas y a menudo actividades?',
            en: 'Which meal plan includes meals, drinks and often activities in the price?',
          },
          options: [
            { text: { es: 'Solo alojamiento', en: 'Room only' }, correct: false },
            { text: { es: 'Alojamiento y desayuno', en: 'Bed and breakfast' }, correct: false },
            { text: { es: 'Todo incluido', en: 'All-inclusive' }, correct: true },
            { text: { es: 'Media pensión', en: 'Half board' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 3,
    code: 'IBO-FIRST-STEPS',
    name: { es: 'Primeros pasos como IBO', en: 'First steps as an IBO' },
    description: {
      es: 'Todo lo que necesitas para arrancar tu negocio como IBO: activar tu cuenta, definir tus metas y presentar tu negocio con ética. Un curso exclusivo para miembros que te acompaña durante tus primeros 90 días.',
      en: 'Everything you need to launch your business as an IBO: activate your account, set your goals and present your business ethically. A members-only course that guides you through your first 90 days.',
    },
    categoryId: 2,
    businessId: 2,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/3.webp',
    modules: [
      {
        code: 'C03-M1',
        name: { es: 'Tu negocio como IBO', en: 'Your business as an IBO' },
        lessons: [
          {
            code: 'C03-M1-L1',
            name: { es: 'Qué significa ser IBO', en: 'What being an IBO means' },
            summary: {
              es: 'Entiende qué es un empresario independiente y cuáles son sus responsabilidades.',
              en: 'Understand what an independent business owner is and what their responsibilities are.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C03-M1-L2',
            name: { es: 'Activa tu oficina virtual', en: 'Activate your back office' },
            summary: {
              es: 'Configura tu oficina virtual y revisa las herramientas que tienes a tu disposición.',
              en: 'Set up your back office and review the tools available to you.',
            },
            clip: 'clip-4',
            extras: [
              { kind: 'pdf', title: { es: 'Lista de verificación de activación', en: 'Activation checklist' }, file: 'docs/lista-activacion-ibo.pdf' },
            ],
          },
        ],
      },
      {
        code: 'C03-M2',
        name: { es: 'Metas y hábitos', en: 'Goals and habits' },
        lessons: [
          {
            code: 'C03-M2-L1',
            name: { es: 'Define tu porqué', en: 'Define your why' },
            summary: {
              es: 'Identifica la motivación que sostendrá tu negocio en los momentos difíciles.',
              en: 'Identify the motivation that will carry your business through tough times.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C03-M2-L2',
            name: { es: 'Metas SMART para tus primeros 90 días', en: 'SMART goals for your first 90 days' },
            summary: {
              es: 'Convierte tus sueños en metas específicas, medibles y con fecha límite.',
              en: 'Turn your dreams into specific, measurable goals with a deadline.',
            },
            clip: 'clip-6',
            extras: [
              { kind: 'pdf', title: { es: 'Hoja de trabajo de metas SMART', en: 'SMART goals worksheet' }, file: 'docs/hoja-metas-smart.pdf' },
            ],
          },
          {
            code: 'C03-M2-L3',
            name: { es: 'Organiza tu semana', en: 'Plan your week' },
            summary: {
              es: 'Reserva bloques de tiempo para prospectar, formarte y dar seguimiento.',
              en: 'Block out time to prospect, learn and follow up.',
            },
            clip: 'clip-1',
          },
        ],
      },
      {
        code: 'C03-M3',
        name: { es: 'Presenta tu negocio', en: 'Presenting your business' },
        lessons: [
          {
            code: 'C03-M3-L1',
            name: { es: 'Tu lista de contactos', en: 'Your contact list' },
            summary: {
              es: 'Elabora una lista de personas con quienes compartir tu proyecto.',
              en: 'Build a list of people to share your project with.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C03-M3-L2',
            name: { es: 'Ética y cumplimiento', en: 'Ethics and compliance' },
            summary: {
              es: 'Aprende qué afirmaciones sobre ingresos y productos están permitidas y cuáles no.',
              en: 'Learn which claims about income and products are allowed and which are not.',
            },
            clip: 'clip-3',
          },
        ],
      },
    ],
    exam: {
      minutes: 12,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: { es: '¿Qué significa la sigla IBO?', en: 'What does the acronym IBO stand for?' },
          options: [
            { text: { es: 'Oficina internacional de reservas', en: 'International Booking Office' }, correct: false },
            { text: { es: 'Inversor bursátil oficial', en: 'Official Brokerage Investor' }, correct: false },
            { text: { es: 'Operador de boletos internacionales', en: 'International Ticket Operator' }, correct: false },
            { text: {
              es: 'Empresario independiente (Independent Business Owner)',
              en: 'Independent Business Owner',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: 'En una meta SMART, ¿qué letra indica que debe tener una fecha límite?',
            en: 'In a SMART goal, which letter means it must have a deadline?',
          },
          options: [
            { text: { es: 'La S', en: 'S' }, correct: false },
            { text: { es: 'La M', en: 'M' }, correct: false },
            { text: { es: 'La A', en: 'A' }, correct: false },
            { text: { es: 'La T (temporal)', en: 'T (time-bound)' }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Para qué sirve definir tu porqué?', en: 'What is the purpose of defining your why?' },
          options: [
            { text: { es: 'Para calcular tus impuestos', en: 'To calculate your taxes' }, correct: false },
            { text: {
              es: 'Para mantener la motivación en los momentos difíciles',
              en: 'To stay motivated through tough times',
            }, correct: true },
            { text: { es: 'Para elegir el hotel de tus vacaciones', en: 'To choose your vacation hotel' }, correct: false },
            { text: { es: 'Para no tener que formarte', en: 'So you do not have to train' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuál de estas afirmaciones sobre ingresos es aceptable al presentar el negocio?',
            en: 'Which of these income statements is acceptable when presenting the business?',
          },
          options: [
            { text: { es: 'Ganarás dinero sin trabajar', en: 'You will make money without working' }, correct: false },
            { text: { es: 'Todos se hacen ricos en un mes', en: 'Everyone gets rich in a month' }, correct: false },
            { text: {
              es: 'Tus ingresos están garantizados desde el primer día',
              en: 'Your income is guaranteed from day one',
            }, correct: false },
            { text: {
              es: 'Los resultados dependen del esfuerzo de cada persona y no están garantizados',
              en: "Results depend on each person's effort and are not guaranteed",
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué es lo primero que conviene hacer al unirte como IBO?',
            en: 'What is the first thing you should do when you join as an IBO?',
          },
          options: [
            { text: {
              es: 'Activar tu oficina virtual y revisar tus herramientas',
              en: 'Activate your back office and review your tools',
            }, correct: true },
            { text: { es: 'Comprar todo el inventario posible', en: 'Buy as much inventory as possible' }, correct: false },
            { text: { es: 'Renunciar a tu empleo actual', en: 'Quit your current job' }, correct: false },
            { text: { es: 'Enviar mensajes masivos a desconocidos', en: 'Send mass messages to strangers' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿A quién incluyes en tu lista de contactos al comenzar?',
            en: 'Who do you include in your contact list when you start?',
          },
          options: [
            { text: { es: 'Solo a personas famosas', en: 'Only famous people' }, correct: false },
            { text: { es: 'Solo a otros IBOs', en: 'Only other IBOs' }, correct: false },
            { text: {
              es: 'A personas de tu entorno con quienes compartir el proyecto',
              en: 'People around you to share the project with',
            }, correct: true },
            { text: { es: 'A nadie; es mejor esperar', en: 'Nobody; it is better to wait' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Por qué conviene reservar bloques de tiempo en tu agenda semanal?',
            en: 'Why should you block out time in your weekly schedule?',
          },
          options: [
            { text: { es: 'Para evitar hablar con clientes', en: 'To avoid talking to customers' }, correct: false },
            { text: { es: 'Porque lo exige la ley', en: 'Because the law requires it' }, correct: false },
            { text: {
              es: 'Para dedicar tiempo constante a prospectar, formarte y dar seguimiento',
              en: 'To spend consistent time prospecting, learning and following up',
            }, correct: true },
            { text: { es: 'Para trabajar solo cuando tengas ganas', en: 'To work only when you feel like it' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cuál de estas es una meta SMART?', en: 'Which of these is a SMART goal?' },
          options: [
            { text: { es: 'Hacer 10 presentaciones antes del 30 de junio', en: 'Give 10 presentations by June 30' }, correct: true },
            { text: { es: 'Tener éxito algún día', en: 'Be successful someday' }, correct: false },
            { text: { es: 'Ser el mejor del equipo', en: 'Be the best on the team' }, correct: false },
            { text: { es: 'Vender mucho', en: 'Sell a lot' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 4,
    code: 'BOOKING-TOOLS',
    name: { es: 'Herramientas de reservas', en: 'Booking tools' },
    description: {
      es: 'Aprende a usar el motor de reservas paso a paso: buscar, comparar, reservar y gestionar cambios. Al terminar podrás atender las solicitudes de tus clientes con rapidez y sin errores.',
      en: "Learn to use the booking engine step by step: search, compare, book and manage changes. By the end you will be able to handle your customers' requests quickly and without errors.",
    },
    categoryId: 3,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/4.webp',
    modules: [
      {
        code: 'C04-M1',
        name: { es: 'El motor de reservas', en: 'The booking engine' },
        lessons: [
          {
            code: 'C04-M1-L1',
            name: { es: 'Recorrido por el panel de reservas', en: 'Tour of the booking dashboard' },
            summary: {
              es: 'Conoce las secciones del panel y dónde encontrar cada función.',
              en: 'Get to know the dashboard sections and where to find each feature.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C04-M1-L2',
            name: { es: 'Búsquedas eficaces de vuelos', en: 'Effective flight searches' },
            summary: {
              es: 'Usa los filtros de fechas, escalas y equipaje para encontrar la mejor opción.',
              en: 'Use the date, stop and baggage filters to find the best option.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C04-M1-L3',
            name: { es: 'Búsqueda y comparación de hoteles', en: 'Searching and comparing hotels' },
            summary: {
              es: 'Compara ubicación, régimen y política de cancelación antes de reservar.',
              en: 'Compare location, meal plan and cancellation policy before booking.',
            },
            clip: 'clip-6',
            extras: [
              { kind: 'pdf', title: { es: 'Guía de reservas', en: 'Booking guide' }, file: 'docs/guia-reservas.pdf' },
            ],
          },
        ],
      },
      {
        code: 'C04-M2',
        name: { es: 'Reservar y cobrar', en: 'Booking and payment' },
        lessons: [
          {
            code: 'C04-M2-L1',
            name: { es: 'Datos del pasajero sin errores', en: 'Error-free passenger details' },
            summary: {
              es: 'Escribe nombres y documentos exactamente como aparecen en el pasaporte.',
              en: 'Enter names and documents exactly as they appear on the passport.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C04-M2-L2',
            name: { es: 'Métodos de pago y confirmaciones', en: 'Payment methods and confirmations' },
            summary: {
              es: 'Procesa los pagos de forma segura y envía la confirmación al cliente.',
              en: 'Process payments securely and send the confirmation to the customer.',
            },
            clip: 'clip-2',
          },
        ],
      },
      {
        code: 'C04-M3',
        name: { es: 'Gestión posventa', en: 'After-sales management' },
        lessons: [
          {
            code: 'C04-M3-L1',
            name: { es: 'Cambios y cancelaciones', en: 'Changes and cancellations' },
            summary: {
              es: 'Aplica las políticas de cambio y calcula correctamente las penalizaciones.',
              en: 'Apply change policies and calculate penalties correctly.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'pdf', title: { es: 'Tabla de penalizaciones por tarifa', en: 'Penalty table by fare' }, file: 'docs/tabla-penalizaciones.pdf' },
            ],
          },
          {
            code: 'C04-M3-L2',
            name: { es: 'Localizadores y seguimiento', en: 'Booking references and tracking' },
            summary: {
              es: 'Usa el localizador para consultar y modificar cualquier reserva.',
              en: 'Use the booking reference to look up and modify any reservation.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C04-M3-L3',
            name: { es: 'Resolución de incidencias', en: 'Troubleshooting issues' },
            summary: {
              es: 'Actúa con rapidez ante retrasos, cancelaciones de vuelos o errores de reserva.',
              en: 'Act quickly on delays, flight cancellations or booking errors.',
            },
            clip: 'clip-5',
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Cómo deben escribirse los nombres de los pasajeros en una reserva?',
            en: 'How should passenger names be entered in a booking?',
          },
          options: [
            { text: { es: 'Con el apodo que prefiera el cliente', en: "With the customer's preferred nickname" }, correct: false },
            { text: {
              es: 'Exactamente como aparecen en el pasaporte o documento de viaje',
              en: 'Exactly as they appear on the passport or travel document',
            }, correct: true },
            { text: { es: 'Solo con el nombre de pila', en: 'With the first name only' }, correct: false },
            { text: { es: 'En cualquier orden', en: 'In any order' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es un localizador de reserva?', en: 'What is a booking reference?' },
          options: [
            { text: { es: 'Un GPS para el equipaje', en: 'A GPS tracker for luggage' }, correct: false },
            { text: {
              es: 'Un código único que identifica la reserva',
              en: 'A unique code that identifies the booking',
            }, correct: true },
            { text: { es: 'El número de asiento', en: 'The seat number' }, correct: false },
            { text: { es: 'Un tipo de tarifa aérea', en: 'A type of airfare' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Además del precio, ¿qué debes comparar antes de reservar un hotel?',
            en: 'Besides price, what should you compare before booking a hotel?',
          },
          options: [
            { text: { es: 'El color de las habitaciones', en: 'The color of the rooms' }, correct: false },
            { text: { es: 'El nombre del gerente', en: "The manager's name" }, correct: false },
            { text: { es: 'El año de construcción del edificio', en: 'The year the building was built' }, correct: false },
            { text: {
              es: 'La ubicación, el régimen y la política de cancelación',
              en: 'The location, meal plan and cancellation policy',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué filtro ayuda a un cliente que solo quiere vuelos directos?',
            en: 'Which filter helps a customer who only wants direct flights?',
          },
          options: [
            { text: { es: 'El filtro de número de escalas', en: 'The number-of-stops filter' }, correct: true },
            { text: { es: 'El filtro de precio máximo', en: 'The maximum price filter' }, correct: false },
            { text: { es: 'El filtro de aerolínea', en: 'The airline filter' }, correct: false },
            { text: { es: 'El filtro de hora de salida', en: 'The departure time filter' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué debes hacer después de procesar el pago?',
            en: 'What should you do after processing the payment?',
          },
          options: [
            { text: { es: 'Borrar la reserva del sistema', en: 'Delete the booking from the system' }, correct: false },
            { text: { es: 'Esperar a que el cliente pregunte', en: 'Wait for the customer to ask' }, correct: false },
            { text: {
              es: 'Enviar la confirmación de la reserva al cliente',
              en: 'Send the booking confirmation to the customer',
            }, correct: true },
            { text: { es: 'Cambiar la fecha del viaje', en: 'Change the travel date' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Un cliente quiere cambiar la fecha de su vuelo. ¿Qué revisas primero?',
            en: 'A customer wants to change their flight date. What do you check first?',
          },
          options: [
            { text: { es: 'El clima en el destino', en: 'The weather at the destination' }, correct: false },
            { text: { es: 'El menú a bordo', en: 'The in-flight menu' }, correct: false },
            { text: {
              es: 'La política de cambios y las posibles penalizaciones de la tarifa',
              en: "The fare's change policy and possible penalties",
            }, correct: true },
            { text: { es: 'La edad del cliente', en: "The customer's age" }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué tipo de tarifa suele permitir cancelar con reembolso?',
            en: 'Which type of fare usually allows cancellation with a refund?',
          },
          options: [
            { text: { es: 'Una tarifa flexible', en: 'A flexible fare' }, correct: true },
            { text: { es: 'Una tarifa no reembolsable', en: 'A non-refundable fare' }, correct: false },
            { text: { es: 'Una promoción de última hora', en: 'A last-minute promotion' }, correct: false },
            { text: { es: 'Ninguna tarifa lo permite', en: 'No fare allows it' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Si se cancela el vuelo de un cliente, ¿qué conviene hacer primero?',
            en: "If a customer's flight is canceled, what should you do first?",
          },
          options: [
            { text: { es: 'Esperar a que la aerolínea lo llame', en: 'Wait for the airline to call them' }, correct: false },
            { text: { es: 'Cerrar la reserva sin avisar', en: 'Close the booking without notice' }, correct: false },
            { text: { es: 'Cobrarle una nueva tarifa', en: 'Charge them a new fare' }, correct: false },
            { text: {
              es: 'Contactar al cliente y buscarle alternativas de inmediato',
              en: 'Contact the customer and look for alternatives right away',
            }, correct: true },
          ],
        },
      ],
    },
  },
  {
    id: 5,
    code: 'DIGITAL-MARKETING-BASICS',
    name: { es: 'Marketing digital básico', en: 'Digital marketing basics' },
    description: {
      es: 'Descubre los conceptos clave del marketing digital y cómo aplicarlos a un negocio independiente. Aprenderás a definir a tu cliente ideal, crear contenido útil y medir resultados sin necesidad de un gran presupuesto.',
      en: 'Discover the key concepts of digital marketing and how to apply them to an independent business. You will learn to define your ideal customer, create useful content and measure results without a large budget.',
    },
    categoryId: 3,
    businessId: 3,
    allowAll: true,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/5.webp',
    modules: [
      {
        code: 'C05-M1',
        name: { es: 'Fundamentos', en: 'Fundamentals' },
        lessons: [
          {
            code: 'C05-M1-L1',
            name: { es: 'Qué es el marketing digital', en: 'What digital marketing is' },
            summary: {
              es: 'Conoce los canales digitales y cómo se complementan entre sí.',
              en: 'Learn about digital channels and how they complement one another.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C05-M1-L2',
            name: { es: 'Tu cliente ideal', en: 'Your ideal customer' },
            summary: {
              es: 'Crea un perfil de cliente ideal que oriente todos tus mensajes.',
              en: 'Create an ideal customer profile to guide all your messages.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C05-M1-L3',
            name: { es: 'Propuesta de valor', en: 'Value proposition' },
            summary: {
              es: 'Explica en una frase por qué alguien debería elegirte.',
              en: 'Explain in one sentence why someone should choose you.',
            },
            clip: 'clip-2',
          },
        ],
      },
      {
        code: 'C05-M2',
        name: { es: 'Contenido y canales', en: 'Content and channels' },
        lessons: [
          {
            code: 'C05-M2-L1',
            name: { es: 'Contenido que aporta valor', en: 'Content that adds value' },
            summary: {
              es: 'Planifica publicaciones que informen, inspiren y generen confianza.',
              en: 'Plan posts that inform, inspire and build trust.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'link', title: { es: 'Plantilla de calendario editorial', en: 'Editorial calendar template' }, url: 'https://example.com/calendario-editorial' },
            ],
          },
          {
            code: 'C05-M2-L2',
            name: { es: 'Correo electrónico y WhatsApp', en: 'Email and WhatsApp' },
            summary: {
              es: 'Usa los canales directos para dar seguimiento sin resultar invasivo.',
              en: 'Use direct channels to follow up without being intrusive.',
            },
            clip: 'clip-4',
          },
        ],
      },
      {
        code: 'C05-M3',
        name: { es: 'Medición', en: 'Measurement' },
        lessons: [
          {
            code: 'C05-M3-L1',
            name: { es: 'Métricas que importan', en: 'Metrics that matter' },
            summary: {
              es: 'Distingue entre métricas de vanidad e indicadores de negocio.',
              en: 'Tell vanity metrics apart from business indicators.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C05-M3-L2',
            name: { es: 'Mejora continua', en: 'Continuous improvement' },
            summary: {
              es: 'Prueba, mide y ajusta tus campañas a partir de los datos.',
              en: 'Test, measure and adjust your campaigns based on data.',
            },
            clip: 'clip-6',
          },
        ],
      },
    ],
    exam: {
      minutes: 12,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué es un perfil de cliente ideal (buyer persona)?',
            en: 'What is an ideal customer profile (buyer persona)?',
          },
          options: [
            { text: { es: 'La lista de todos tus seguidores', en: 'The list of all your followers' }, correct: false },
            { text: {
              es: 'Una representación de tu cliente objetivo basada en datos reales',
              en: 'A representation of your target customer based on real data',
            }, correct: true },
            { text: { es: 'Un cliente que nunca se queja', en: 'A customer who never complains' }, correct: false },
            { text: { es: 'El logotipo de tu negocio', en: 'Your business logo' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cuál de estas es una métrica de vanidad?', en: 'Which of these is a vanity metric?' },
          options: [
            { text: { es: 'La tasa de conversión', en: 'The conversion rate' }, correct: false },
            { text: { es: 'El costo por cliente adquirido', en: 'The cost per customer acquired' }, correct: false },
            { text: { es: 'Los ingresos por campaña', en: 'Revenue per campaign' }, correct: false },
            { text: {
              es: 'Los “me gusta” que no se relacionan con ventas',
              en: 'Likes that are not linked to sales',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué es la tasa de conversión?', en: 'What is the conversion rate?' },
          options: [
            { text: {
              es: 'El porcentaje de personas que realizan la acción deseada',
              en: 'The percentage of people who take the desired action',
            }, correct: true },
            { text: { es: 'El número total de publicaciones', en: 'The total number of posts' }, correct: false },
            { text: { es: 'El tipo de cambio entre monedas', en: 'The exchange rate between currencies' }, correct: false },
            { text: { es: 'El tiempo que tarda en cargar tu página', en: 'The time your page takes to load' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué describe mejor una propuesta de valor?',
            en: 'What best describes a value proposition?',
          },
          options: [
            { text: { es: 'La lista de precios de tus productos', en: 'Your product price list' }, correct: false },
            { text: { es: 'Tu horario de atención', en: 'Your business hours' }, correct: false },
            { text: {
              es: 'Una frase que explica por qué alguien debería elegirte',
              en: 'A sentence that explains why someone should choose you',
            }, correct: true },
            { text: { es: 'Un descuento permanente', en: 'A permanent discount' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué práctica respeta a tus contactos en el correo electrónico?',
            en: 'Which email practice respects your contacts?',
          },
          options: [
            { text: { es: 'Comprar listas de correos', en: 'Buying email lists' }, correct: false },
            { text: { es: 'Enviar diez correos al día', en: 'Sending ten emails a day' }, correct: false },
            { text: {
              es: 'Escribir solo a quienes te han dado su permiso',
              en: 'Writing only to people who have given you permission',
            }, correct: true },
            { text: { es: 'Ocultar el enlace para darse de baja', en: 'Hiding the unsubscribe link' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es una prueba A/B?', en: 'What is an A/B test?' },
          options: [
            { text: {
              es: 'Comparar dos versiones de un mensaje para ver cuál funciona mejor',
              en: 'Comparing two versions of a message to see which works better',
            }, correct: true },
            { text: { es: 'Un examen de ortografía', en: 'A spelling test' }, correct: false },
            { text: { es: 'Publicar el mismo mensaje dos veces', en: 'Posting the same message twice' }, correct: false },
            { text: {
              es: 'Dividir tu presupuesto entre dos personas',
              en: 'Splitting your budget between two people',
            }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Para qué sirve un calendario editorial?', en: 'What is an editorial calendar for?' },
          options: [
            { text: { es: 'Para anotar los cumpleaños de tus clientes', en: "To note your customers' birthdays" }, correct: false },
            { text: { es: 'Para calcular tus impuestos', en: 'To calculate your taxes' }, correct: false },
            { text: { es: 'Para reservar vuelos', en: 'To book flights' }, correct: false },
            { text: {
              es: 'Para planificar qué publicar, cuándo y en qué canal',
              en: 'To plan what to publish, when and on which channel',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Cuál es un ejemplo de contenido que aporta valor a un viajero?',
            en: 'Which is an example of content that adds value for a traveler?',
          },
          options: [
            { text: { es: 'Una publicación que solo dice “compra ya”', en: 'A post that only says “buy now”' }, correct: false },
            { text: {
              es: 'Una guía con consejos para preparar la maleta',
              en: 'A guide with tips for packing a suitcase',
            }, correct: true },
            { text: { es: 'Un mensaje en cadena', en: 'A chain message' }, correct: false },
            { text: { es: 'Una imagen sin texto ni contexto', en: 'An image with no text or context' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 6,
    code: 'PERSONAL-FINANCE-ESSENTIALS',
    name: { es: 'Finanzas personales esenciales', en: 'Personal finance essentials' },
    description: {
      es: 'Toma el control de tu dinero con un método sencillo para presupuestar, ahorrar y salir de deudas. Ideal para independientes con ingresos variables que quieren separar sus finanzas personales de las de su negocio.',
      en: 'Take control of your money with a simple method to budget, save and get out of debt. Ideal for independents with variable income who want to keep their personal and business finances separate.',
    },
    categoryId: 3,
    businessId: 4,
    allowAll: false,
    isTest: false,
    price: '19.99',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/6.webp',
    modules: [
      {
        code: 'C06-M1',
        name: { es: 'Presupuesto', en: 'Budgeting' },
        lessons: [
          {
            code: 'C06-M1-L1',
            name: { es: 'Conoce tus números', en: 'Know your numbers' },
            summary: {
              es: 'Registra tus ingresos y gastos durante un mes para saber a dónde va tu dinero.',
              en: 'Track your income and expenses for a month to see where your money goes.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C06-M1-L2',
            name: { es: 'La regla 50/30/20', en: 'The 50/30/20 rule' },
            summary: {
              es: 'Reparte tus ingresos entre necesidades, deseos y ahorro.',
              en: 'Split your income between needs, wants and savings.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C06-M1-L3',
            name: { es: 'Presupuesto con ingresos variables', en: 'Budgeting with variable income' },
            summary: {
              es: 'Planifica tomando como referencia tu mes de menores ingresos.',
              en: 'Plan using your lowest-income month as a baseline.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'pdf', title: { es: 'Plantilla de presupuesto mensual', en: 'Monthly budget template' }, file: 'docs/plantilla-presupuesto.pdf' },
            ],
          },
        ],
      },
      {
        code: 'C06-M2',
        name: { es: 'Ahorro y deudas', en: 'Savings and debt' },
        lessons: [
          {
            code: 'C06-M2-L1',
            name: { es: 'Tu fondo de emergencia', en: 'Your emergency fund' },
            summary: {
              es: 'Calcula cuánto necesitas y cómo construirlo paso a paso.',
              en: 'Work out how much you need and how to build it step by step.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C06-M2-L2',
            name: { es: 'Métodos para salir de deudas', en: 'Debt payoff methods' },
            summary: {
              es: 'Compara el método bola de nieve con el método avalancha.',
              en: 'Compare the snowball method with the avalanche method.',
            },
            clip: 'clip-5',
            extras: [
              { kind: 'pdf', title: { es: 'Calculadora de pago de deudas', en: 'Debt payoff calculator' }, file: 'docs/calculadora-deudas.pdf' },
            ],
          },
          {
            code: 'C06-M2-L3',
            name: { es: 'Uso responsable del crédito', en: 'Responsible use of credit' },
            summary: {
              es: 'Aprende a usar la tarjeta de crédito sin pagar intereses innecesarios.',
              en: 'Learn to use a credit card without paying unnecessary interest.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C06-M3',
        name: { es: 'Finanzas del independiente', en: 'Finances for independents' },
        lessons: [
          {
            code: 'C06-M3-L1',
            name: {
              es: 'Separa tus cuentas personales y de negocio',
              en: 'Separate your personal and business accounts',
            },
            summary: {
              es: 'Evita mezclar gastos y simplifica tu contabilidad.',
              en: 'Avoid mixing expenses and simplify your bookkeeping.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C06-M3-L2',
            name: { es: 'Impuestos y reservas', en: 'Taxes and reserves' },
            summary: {
              es: 'Aparta un porcentaje de cada ingreso para cumplir con tus obligaciones fiscales.',
              en: 'Set aside a percentage of every payment to meet your tax obligations.',
            },
            clip: 'clip-2',
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: 'Según la regla 50/30/20, ¿qué porcentaje de tus ingresos se destina al ahorro?',
            en: 'Under the 50/30/20 rule, what percentage of your income goes to savings?',
          },
          options: [
            { text: { es: '10 %', en: '10%' }, correct: false },
            { text: { es: '20 %', en: '20%' }, correct: true },
            { text: { es: '30 %', en: '30%' }, correct: false },
            { text: { es: '50 %', en: '50%' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Para qué sirve un fondo de emergencia?', en: 'What is an emergency fund for?' },
          options: [
            { text: {
              es: 'Para cubrir gastos imprevistos sin endeudarte',
              en: 'To cover unexpected expenses without going into debt',
            }, correct: true },
            { text: { es: 'Para comprar artículos de lujo', en: 'To buy luxury items' }, correct: false },
            { text: { es: 'Para invertir en la bolsa cada mes', en: 'To invest in the stock market every month' }, correct: false },
            { text: { es: 'Para pagar las vacaciones anuales', en: 'To pay for your yearly vacation' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuántos meses de gastos suele recomendarse cubrir con el fondo de emergencia?',
            en: 'How many months of expenses is an emergency fund usually recommended to cover?',
          },
          options: [
            { text: { es: 'Una semana', en: 'One week' }, correct: false },
            { text: { es: 'Un mes', en: 'One month' }, correct: false },
            { text: { es: 'Entre tres y seis meses', en: 'Between three and six months' }, correct: true },
            { text: { es: 'Diez años', en: 'Ten years' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿En qué consiste el método avalancha?', en: 'What is the avalanche method?' },
          options: [
            { text: { es: 'Pagar primero la deuda de menor saldo', en: 'Paying off the smallest balance first' }, correct: false },
            { text: { es: 'Pedir un préstamo para pagar otro', en: 'Taking out a loan to pay off another' }, correct: false },
            { text: {
              es: 'Pagar primero la deuda con la tasa de interés más alta',
              en: 'Paying off the debt with the highest interest rate first',
            }, correct: true },
            { text: { es: 'Pagar solo el mínimo de todas las deudas', en: 'Paying only the minimum on every debt' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿En qué consiste el método bola de nieve?', en: 'What is the snowball method?' },
          options: [
            { text: {
              es: 'Pagar primero la deuda de menor saldo para ganar motivación',
              en: 'Paying off the smallest balance first to build momentum',
            }, correct: true },
            { text: {
              es: 'Pagar primero la deuda con el interés más alto',
              en: 'Paying off the highest-interest debt first',
            }, correct: false },
            { text: { es: 'Dejar de pagar todas las deudas', en: 'Stopping payments on all debts' }, correct: false },
            { text: { es: 'Ahorrar antes de pagar cualquier deuda', en: 'Saving before paying any debt' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cómo evitas pagar intereses con tu tarjeta de crédito?',
            en: 'How do you avoid paying interest on your credit card?',
          },
          options: [
            { text: { es: 'Pagando solo el mínimo', en: 'By paying only the minimum' }, correct: false },
            { text: { es: 'Usando varias tarjetas a la vez', en: 'By using several cards at once' }, correct: false },
            { text: { es: 'Retirando efectivo con la tarjeta', en: 'By withdrawing cash with the card' }, correct: false },
            { text: {
              es: 'Pagando el saldo total antes de la fecha límite cada mes',
              en: 'By paying the full balance before the due date every month',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Por qué conviene separar las cuentas personales de las del negocio?',
            en: 'Why should you keep personal and business accounts separate?',
          },
          options: [
            { text: { es: 'Para pagar más comisiones bancarias', en: 'To pay more bank fees' }, correct: false },
            { text: {
              es: 'Para controlar mejor los gastos y simplificar la contabilidad',
              en: 'To keep better track of expenses and simplify bookkeeping',
            }, correct: true },
            { text: {
              es: 'Porque es imposible tener una sola cuenta',
              en: 'Because it is impossible to have a single account',
            }, correct: false },
            { text: { es: 'Para ocultar ingresos', en: 'To hide income' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Si tus ingresos son variables, ¿qué referencia conviene usar para presupuestar?',
            en: 'If your income is variable, what baseline should you use for budgeting?',
          },
          options: [
            { text: { es: 'Tu mejor mes del año', en: 'Your best month of the year' }, correct: false },
            { text: { es: 'Tu mes de menores ingresos', en: 'Your lowest-income month' }, correct: true },
            { text: { es: 'Los ingresos de un amigo', en: "A friend's income" }, correct: false },
            { text: { es: 'Una cifra que te gustaría ganar', en: 'A figure you would like to earn' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 7,
    code: 'SELLING-TRAVEL-PACKAGES',
    name: { es: 'Venta de paquetes turísticos', en: 'Selling travel packages' },
    description: {
      es: 'Domina el proceso completo de venta de paquetes turísticos, desde la primera conversación hasta el cierre y el seguimiento. Aprenderás a detectar necesidades, presentar propuestas atractivas y responder a las objeciones más comunes.',
      en: 'Master the complete process of selling travel packages, from the first conversation to closing and follow-up. You will learn to identify needs, present attractive proposals and respond to the most common objections.',
    },
    categoryId: 4,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/7.webp',
    modules: [
      {
        code: 'C07-M1',
        name: { es: 'Entender al viajero', en: 'Understanding the traveler' },
        lessons: [
          {
            code: 'C07-M1-L1',
            name: { es: 'Tipos de viajero', en: 'Traveler types' },
            summary: {
              es: 'Reconoce las necesidades de familias, parejas, grupos y viajeros de negocios.',
              en: 'Recognize the needs of families, couples, groups and business travelers.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C07-M1-L2',
            name: { es: 'Preguntas para descubrir necesidades', en: 'Questions to uncover needs' },
            summary: {
              es: 'Usa preguntas abiertas para conocer el presupuesto, las fechas y las expectativas.',
              en: 'Use open questions to learn about budget, dates and expectations.',
            },
            clip: 'clip-4',
            extras: [
              { kind: 'pdf', title: { es: 'Cuestionario de necesidades del viajero', en: 'Traveler needs questionnaire' }, file: 'docs/cuestionario-necesidades.pdf' },
            ],
          },
        ],
      },
      {
        code: 'C07-M2',
        name: { es: 'Diseñar la propuesta', en: 'Designing the proposal' },
        lessons: [
          {
            code: 'C07-M2-L1',
            name: { es: 'Arma un paquete a la medida', en: 'Build a tailor-made package' },
            summary: {
              es: 'Combina vuelo, hotel, traslados y actividades según el perfil del cliente.',
              en: "Combine flight, hotel, transfers and activities to suit the customer's profile.",
            },
            clip: 'clip-5',
          },
          {
            code: 'C07-M2-L2',
            name: { es: 'Presenta beneficios, no características', en: 'Present benefits, not features' },
            summary: {
              es: 'Traduce cada elemento del paquete en una experiencia para el viajero.',
              en: 'Translate each element of the package into an experience for the traveler.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C07-M2-L3',
            name: { es: 'Ventas adicionales y complementarias', en: 'Upselling and cross-selling' },
            summary: {
              es: 'Ofrece mejoras y servicios adicionales que realmente aporten valor.',
              en: 'Offer upgrades and extra services that add real value.',
            },
            clip: 'clip-1',
            extras: [
              { kind: 'pdf', title: { es: 'Guía de ventas complementarias', en: 'Cross-selling guide' }, file: 'docs/guia-ventas-complementarias.pdf' },
            ],
          },
        ],
      },
      {
        code: 'C07-M3',
        name: { es: 'Objeciones y cierre', en: 'Objections and closing' },
        lessons: [
          {
            code: 'C07-M3-L1',
            name: { es: 'Responder a la objeción de precio', en: 'Handling the price objection' },
            summary: {
              es: 'Refuerza el valor del paquete antes de hablar de descuentos.',
              en: 'Reinforce the value of the package before talking about discounts.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C07-M3-L2',
            name: { es: 'Técnicas de cierre', en: 'Closing techniques' },
            summary: {
              es: 'Aplica el cierre por alternativa, el cierre por resumen y el de urgencia real.',
              en: 'Apply the alternative-choice close, the summary close and the genuine-urgency close.',
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C07-M4',
        name: { es: 'Seguimiento', en: 'Follow-up' },
        lessons: [
          {
            code: 'C07-M4-L1',
            name: { es: 'Acompaña al cliente antes del viaje', en: 'Support the customer before the trip' },
            summary: {
              es: 'Envía recordatorios y documentos para que el viaje empiece sin sorpresas.',
              en: 'Send reminders and documents so the trip starts without surprises.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C07-M4-L2',
            name: { es: 'Reseñas y referidos', en: 'Reviews and referrals' },
            summary: {
              es: 'Convierte a cada viajero satisfecho en una fuente de nuevos clientes.',
              en: 'Turn every satisfied traveler into a source of new customers.',
            },
            clip: 'clip-5',
          },
        ],
      },
    ],
    exam: {
      minutes: 18,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué tipo de pregunta ayuda más a descubrir las necesidades del cliente?',
            en: "Which type of question best helps uncover a customer's needs?",
          },
          options: [
            { text: {
              es: 'Una pregunta abierta, como “¿Cómo imaginas tus vacaciones ideales?”',
              en: 'An open question, such as “What do your ideal vacations look like?”',
            }, correct: true },
            { text: { es: 'Una pregunta cerrada de sí o no', en: 'A closed yes-or-no question' }, correct: false },
            { text: { es: 'Una pregunta sobre la competencia', en: 'A question about the competition' }, correct: false },
            { text: { es: 'Ninguna; es mejor no preguntar', en: 'None; it is better not to ask' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es una venta adicional (upselling)?', en: 'What is upselling?' },
          options: [
            { text: {
              es: 'Ofrecer un producto distinto que complementa la compra',
              en: 'Offering a different product that complements the purchase',
            }, correct: false },
            { text: { es: 'Vender el mismo paquete dos veces', en: 'Selling the same package twice' }, correct: false },
            { text: {
              es: 'Ofrecer una versión mejorada del producto que el cliente ya quiere',
              en: 'Offering an upgraded version of the product the customer already wants',
            }, correct: true },
            { text: { es: 'Subir el precio después de la venta', en: 'Raising the price after the sale' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuál es un ejemplo de venta complementaria?',
            en: 'Which is an example of cross-selling?',
          },
          options: [
            { text: {
              es: 'Cambiar una habitación estándar por una suite',
              en: 'Upgrading a standard room to a suite',
            }, correct: false },
            { text: { es: 'Cancelar la reserva del cliente', en: "Canceling the customer's booking" }, correct: false },
            { text: {
              es: 'Añadir un seguro de viaje y traslados a la reserva del hotel',
              en: 'Adding travel insurance and transfers to the hotel booking',
            }, correct: true },
            { text: { es: 'Ofrecer el mismo hotel en otra fecha', en: 'Offering the same hotel on another date' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'El cliente dice que el paquete es caro. ¿Qué conviene hacer primero?',
            en: 'The customer says the package is expensive. What should you do first?',
          },
          options: [
            { text: {
              es: 'Recordarle el valor y todo lo que incluye el paquete',
              en: 'Remind them of the value and everything the package includes',
            }, correct: true },
            { text: { es: 'Ofrecer un descuento inmediato', en: 'Offer an immediate discount' }, correct: false },
            { text: { es: 'Terminar la conversación', en: 'End the conversation' }, correct: false },
            { text: { es: 'Criticar a la competencia', en: 'Criticize the competition' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué significa presentar beneficios en lugar de características?',
            en: 'What does presenting benefits instead of features mean?',
          },
          options: [
            { text: { es: 'Leer la ficha técnica del hotel', en: "Reading out the hotel's fact sheet" }, correct: false },
            { text: { es: 'Hablar solo del precio', en: 'Talking only about the price' }, correct: false },
            { text: {
              es: 'Enumerar los metros cuadrados de la habitación',
              en: "Listing the room's square footage",
            }, correct: false },
            { text: {
              es: 'Explicar cómo cada elemento mejora la experiencia del viajero',
              en: "Explaining how each element improves the traveler's experience",
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿En qué consiste el cierre por alternativa?', en: 'What is the alternative-choice close?' },
          options: [
            { text: { es: 'Presionar al cliente para que compre hoy', en: 'Pressuring the customer to buy today' }, correct: false },
            { text: {
              es: 'Ofrecer dos opciones válidas para que el cliente elija una',
              en: 'Offering two valid options for the customer to choose from',
            }, correct: true },
            { text: { es: 'Ofrecer un producto de la competencia', en: "Offering a competitor's product" }, correct: false },
            { text: {
              es: 'Dejar que el cliente decida sin información',
              en: 'Letting the customer decide without information',
            }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué suele necesitar una familia con niños pequeños?',
            en: 'What does a family with young children usually need?',
          },
          options: [
            { text: { es: 'Vuelos nocturnos con varias escalas', en: 'Overnight flights with several stops' }, correct: false },
            { text: {
              es: 'Habitaciones amplias, actividades infantiles y vuelos en horarios cómodos',
              en: "Spacious rooms, kids' activities and flights at convenient times",
            }, correct: true },
            { text: { es: 'Hoteles solo para adultos', en: 'Adults-only hotels' }, correct: false },
            { text: { es: 'Excursiones de aventura extrema', en: 'Extreme adventure excursions' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuál es el mejor momento para pedir una reseña o un referido?',
            en: 'When is the best time to ask for a review or a referral?',
          },
          options: [
            { text: { es: 'Antes de que pague la reserva', en: 'Before they pay for the booking' }, correct: false },
            { text: { es: 'En la primera llamada', en: 'On the first call' }, correct: false },
            { text: { es: 'Nunca; no hay que pedirlo', en: 'Never; you should not ask' }, correct: false },
            { text: {
              es: 'Cuando el cliente regresa satisfecho de su viaje',
              en: 'When the customer comes back happy from their trip',
            }, correct: true },
          ],
        },
      ],
    },
  },
  {
    id: 8,
    code: 'SOCIAL-MEDIA-TRAVEL',
    name: { es: 'Redes sociales para vendedores de viajes', en: 'Social media for travel sellers' },
    description: {
      es: 'Convierte tus redes sociales en un escaparate de destinos que atraiga clientes de forma constante. Aprenderás a elegir plataformas, crear contenido visual de viajes y transformar seguidores en conversaciones de venta.',
      en: 'Turn your social media into a showcase of destinations that consistently attracts customers. You will learn to choose platforms, create visual travel content and turn followers into sales conversations.',
    },
    categoryId: 4,
    businessId: 3,
    allowAll: false,
    isTest: false,
    price: '29.99',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/8.webp',
    modules: [
      {
        code: 'C08-M1',
        name: { es: 'Estrategia', en: 'Strategy' },
        lessons: [
          {
            code: 'C08-M1-L1',
            name: { es: 'Elige tus plataformas', en: 'Choose your platforms' },
            summary: {
              es: 'Decide dónde estar según tu público: Instagram, Facebook, TikTok o YouTube.',
              en: 'Decide where to be based on your audience: Instagram, Facebook, TikTok or YouTube.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C08-M1-L2',
            name: { es: 'Un perfil optimizado', en: 'An optimized profile' },
            summary: {
              es: 'Redacta una biografía clara que termine con una llamada a la acción.',
              en: 'Write a clear bio that ends with a call to action.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C08-M1-L3',
            name: { es: 'Pilares de contenido', en: 'Content pillars' },
            summary: {
              es: 'Define tres o cuatro temas que guiarán todas tus publicaciones.',
              en: 'Define three or four topics that will guide all your posts.',
            },
            clip: 'clip-2',
          },
        ],
      },
      {
        code: 'C08-M2',
        name: { es: 'Creación de contenido', en: 'Content creation' },
        lessons: [
          {
            code: 'C08-M2-L1',
            name: { es: 'Fotos y videos de destinos', en: 'Destination photos and videos' },
            summary: {
              es: 'Consejos prácticos para grabar con el celular contenido que inspire a viajar.',
              en: 'Practical tips for shooting content with your phone that inspires people to travel.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'link', title: { es: 'Banco de imágenes con licencia', en: 'Licensed image library' }, url: 'https://example.com/banco-imagenes' },
            ],
          },
          {
            code: 'C08-M2-L2',
            name: { es: 'Historias y videos cortos', en: 'Stories and short videos' },
            summary: {
              es: 'Aprovecha los formatos efímeros y verticales para mostrar tu día a día.',
              en: 'Use ephemeral and vertical formats to show your day-to-day.',
            },
            clip: 'clip-4',
          },
        ],
      },
      {
        code: 'C08-M3',
        name: { es: 'De seguidores a clientes', en: 'From followers to customers' },
        lessons: [
          {
            code: 'C08-M3-L1',
            name: { es: 'Mensajes directos que convierten', en: 'Direct messages that convert' },
            summary: {
              es: 'Responde las consultas con rapidez y guía la conversación hacia una propuesta.',
              en: 'Reply to inquiries quickly and steer the conversation toward a proposal.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C08-M3-L2',
            name: { es: 'Publicidad con poco presupuesto', en: 'Advertising on a small budget' },
            summary: {
              es: 'Segmenta tus anuncios por intereses y ubicación sin desperdiciar dinero.',
              en: 'Target your ads by interests and location without wasting money.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C08-M3-L3',
            name: { es: 'Normas y reputación en línea', en: 'Rules and online reputation' },
            summary: {
              es: 'Respeta los derechos de autor y las políticas de la compañía, y responde a las críticas con profesionalismo.',
              en: 'Respect copyright and company policies, and respond to criticism professionally.',
            },
            clip: 'clip-1',
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: { es: '¿Qué son los pilares de contenido?', en: 'What are content pillars?' },
          options: [
            { text: { es: 'Las columnas de un hotel', en: "A hotel's columns" }, correct: false },
            { text: { es: 'Tus seguidores más antiguos', en: 'Your oldest followers' }, correct: false },
            { text: {
              es: 'Los temas principales que guían tus publicaciones',
              en: 'The main topics that guide your posts',
            }, correct: true },
            { text: { es: 'Las redes sociales más populares', en: 'The most popular social networks' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué debe incluir una buena biografía de perfil?',
            en: 'What should a good profile bio include?',
          },
          options: [
            { text: { es: 'Tu historial laboral completo', en: 'Your full work history' }, correct: false },
            { text: { es: 'Solo emojis', en: 'Only emojis' }, correct: false },
            { text: {
              es: 'Qué ofreces, a quién ayudas y una llamada a la acción',
              en: 'What you offer, who you help and a call to action',
            }, correct: true },
            { text: { es: 'Tu dirección particular', en: 'Your home address' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cómo conviene responder a un comentario negativo público?',
            en: 'How should you respond to a negative public comment?',
          },
          options: [
            { text: {
              es: 'Con calma y profesionalismo, ofreciendo continuar por mensaje privado',
              en: 'Calmly and professionally, offering to continue by private message',
            }, correct: true },
            { text: { es: 'Borrándolo y bloqueando a la persona', en: 'Deleting it and blocking the person' }, correct: false },
            { text: { es: 'Discutiendo en público hasta ganar', en: 'Arguing in public until you win' }, correct: false },
            { text: { es: 'Ignorándolo siempre', en: 'Always ignoring it' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Puedes publicar cualquier foto de un destino que encuentres en internet?',
            en: 'Can you post any destination photo you find online?',
          },
          options: [
            { text: { es: 'Sí, si mencionas el país', en: 'Yes, if you mention the country' }, correct: false },
            { text: {
              es: 'Sí, todas las imágenes de internet son gratuitas',
              en: 'Yes, all images online are free',
            }, correct: false },
            { text: { es: 'Sí, si la recortas', en: 'Yes, if you crop it' }, correct: false },
            { text: {
              es: 'No, solo imágenes propias o con licencia de uso',
              en: 'No, only your own images or licensed ones',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué formato es ideal para mostrar tu día a día de forma cercana?',
            en: 'Which format is ideal for showing your day-to-day in a personal way?',
          },
          options: [
            { text: { es: 'Un documento PDF', en: 'A PDF document' }, correct: false },
            { text: { es: 'Las historias', en: 'Stories' }, correct: true },
            { text: { es: 'Un correo masivo', en: 'A mass email' }, correct: false },
            { text: { es: 'Un anuncio impreso', en: 'A print ad' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué es la segmentación en la publicidad en redes?',
            en: 'What is targeting in social media advertising?',
          },
          options: [
            { text: { es: 'Dividir una imagen en partes', en: 'Splitting an image into parts' }, correct: false },
            { text: {
              es: 'Elegir a quién se muestra el anuncio según intereses, edad o ubicación',
              en: 'Choosing who sees the ad based on interests, age or location',
            }, correct: true },
            { text: { es: 'Publicar a cualquier hora', en: 'Posting at any time' }, correct: false },
            { text: { es: 'Pagar el anuncio en varias cuotas', en: 'Paying for the ad in installments' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Un seguidor pregunta por precios en un mensaje directo. ¿Qué haces?',
            en: 'A follower asks about prices in a direct message. What do you do?',
          },
          options: [
            { text: { es: 'Le envías solo un precio sin contexto', en: 'Send just a price with no context' }, correct: false },
            { text: {
              es: 'Esperas una semana para no parecer insistente',
              en: 'Wait a week so you do not seem pushy',
            }, correct: false },
            { text: { es: 'Le pides que busque en internet', en: 'Ask them to search online' }, correct: false },
            { text: {
              es: 'Respondes pronto, preguntas por su viaje y preparas una propuesta',
              en: 'Reply promptly, ask about their trip and prepare a proposal',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué plataforma se centra principalmente en videos cortos verticales?',
            en: 'Which platform focuses mainly on short vertical videos?',
          },
          options: [
            { text: { es: 'TikTok', en: 'TikTok' }, correct: true },
            { text: { es: 'LinkedIn', en: 'LinkedIn' }, correct: false },
            { text: { es: 'El correo electrónico', en: 'Email' }, correct: false },
            { text: { es: 'Un blog', en: 'A blog' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 9,
    code: 'LEADERSHIP-DISTRIBUTORS',
    name: { es: 'Liderazgo para distribuidores', en: 'Leadership for distributors' },
    description: {
      es: 'Desarrolla las habilidades de liderazgo que necesitas para formar y acompañar a tu propio equipo de IBOs. Trabajarás la comunicación, la motivación y la duplicación de buenos hábitos para que tu red crezca de forma sana.',
      en: 'Develop the leadership skills you need to train and support your own team of IBOs. You will work on communication, motivation and the duplication of good habits so your network grows in a healthy way.',
    },
    categoryId: 5,
    businessId: 2,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/9.webp',
    modules: [
      {
        code: 'C09-M1',
        name: { es: 'Liderar con el ejemplo', en: 'Leading by example' },
        lessons: [
          {
            code: 'C09-M1-L1',
            name: { es: 'Estilos de liderazgo', en: 'Leadership styles' },
            summary: {
              es: 'Conoce los estilos más comunes y cuándo conviene aplicar cada uno.',
              en: 'Learn the most common styles and when to apply each one.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C09-M1-L2',
            name: { es: 'Integridad y confianza', en: 'Integrity and trust' },
            summary: {
              es: 'Construye tu credibilidad cumpliendo lo que prometes.',
              en: 'Build your credibility by keeping your promises.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C09-M1-L3',
            name: { es: 'Gestión del tiempo del líder', en: 'Time management for leaders' },
            summary: {
              es: 'Prioriza las actividades que hacen crecer a tu equipo.',
              en: 'Prioritize the activities that grow your team.',
            },
            clip: 'clip-4',
          },
        ],
      },
      {
        code: 'C09-M2',
        name: { es: 'Comunicación y motivación', en: 'Communication and motivation' },
        lessons: [
          {
            code: 'C09-M2-L1',
            name: { es: 'Escucha activa', en: 'Active listening' },
            summary: {
              es: 'Escucha para comprender antes de responder.',
              en: 'Listen to understand before you respond.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C09-M2-L2',
            name: { es: 'Retroalimentación efectiva', en: 'Effective feedback' },
            summary: {
              es: 'Da comentarios específicos, oportunos y orientados a la mejora.',
              en: 'Give specific, timely, improvement-focused feedback.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C09-M2-L3',
            name: { es: 'Reconocimiento y celebración', en: 'Recognition and celebration' },
            summary: {
              es: 'Celebra los logros del equipo para mantener alta la motivación.',
              en: "Celebrate the team's achievements to keep motivation high.",
            },
            clip: 'clip-1',
            extras: [
              { kind: 'link', title: { es: 'Ideas de reconocimiento para equipos', en: 'Team recognition ideas' }, url: 'https://example.com/ideas-reconocimiento' },
            ],
          },
        ],
      },
      {
        code: 'C09-M3',
        name: { es: 'Duplicación', en: 'Duplication' },
        lessons: [
          {
            code: 'C09-M3-L1',
            name: { es: 'Sistemas sencillos que cualquiera puede copiar', en: 'Simple systems anyone can copy' },
            summary: {
              es: 'Diseña procesos que cualquier IBO nuevo pueda repetir.',
              en: 'Design processes that any new IBO can repeat.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'pdf', title: { es: 'Plantilla de sistema de duplicación', en: 'Duplication system template' }, file: 'docs/sistema-duplicacion.pdf' },
            ],
          },
          {
            code: 'C09-M3-L2',
            name: { es: 'Reuniones de equipo productivas', en: 'Productive team meetings' },
            summary: {
              es: 'Planifica reuniones breves con objetivos claros y acuerdos concretos.',
              en: 'Plan short meetings with clear goals and concrete agreements.',
            },
            clip: 'clip-3',
          },
        ],
      },
    ],
    exam: {
      minutes: 20,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué significa la duplicación en una red de distribución?',
            en: 'What does duplication mean in a distribution network?',
          },
          options: [
            { text: {
              es: 'Copiar el contenido de otros líderes sin permiso',
              en: "Copying other leaders' content without permission",
            }, correct: false },
            { text: { es: 'Registrar dos veces a la misma persona', en: 'Registering the same person twice' }, correct: false },
            { text: {
              es: 'Que los nuevos miembros puedan repetir los mismos hábitos y sistemas',
              en: 'New members being able to repeat the same habits and systems',
            }, correct: true },
            { text: { es: 'Duplicar los precios de los productos', en: 'Doubling product prices' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué caracteriza a la escucha activa?', en: 'What characterizes active listening?' },
          options: [
            { text: {
              es: 'Prestar atención plena y confirmar lo que entendiste',
              en: 'Paying full attention and confirming what you understood',
            }, correct: true },
            { text: {
              es: 'Preparar tu respuesta mientras el otro habla',
              en: 'Preparing your answer while the other person talks',
            }, correct: false },
            { text: { es: 'Interrumpir para ahorrar tiempo', en: 'Interrupting to save time' }, correct: false },
            { text: {
              es: 'Revisar el celular durante la conversación',
              en: 'Checking your phone during the conversation',
            }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cómo debe ser una buena retroalimentación?', en: 'What should good feedback be like?' },
          options: [
            { text: { es: 'General y tardía', en: 'General and late' }, correct: false },
            { text: { es: 'Solo negativa', en: 'Only negative' }, correct: false },
            { text: { es: 'Dada siempre en público', en: 'Always given in public' }, correct: false },
            { text: {
              es: 'Específica, oportuna y orientada a la mejora',
              en: 'Specific, timely and focused on improvement',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Cuál es la mejor forma de ganarte la confianza de tu equipo?',
            en: "What is the best way to earn your team's trust?",
          },
          options: [
            { text: { es: 'Prometer resultados rápidos', en: 'Promising quick results' }, correct: false },
            { text: {
              es: 'Cumplir lo que prometes y actuar con coherencia',
              en: 'Keeping your promises and acting consistently',
            }, correct: true },
            { text: { es: 'Evitar los temas difíciles', en: 'Avoiding difficult topics' }, correct: false },
            { text: { es: 'Tomar todas las decisiones en solitario', en: 'Making every decision alone' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué estilo de liderazgo conviene con un IBO recién llegado?',
            en: 'Which leadership style suits a newly joined IBO?',
          },
          options: [
            { text: { es: 'Uno totalmente ausente', en: 'A completely hands-off one' }, correct: false },
            { text: {
              es: 'Uno más directivo, con instrucciones claras y acompañamiento cercano',
              en: 'A more directive one, with clear instructions and close support',
            }, correct: true },
            { text: { es: 'Uno basado en la presión constante', en: 'One based on constant pressure' }, correct: false },
            { text: {
              es: 'Uno que delega todo desde el primer día',
              en: 'One that delegates everything from day one',
            }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Por qué es importante reconocer los logros del equipo?',
            en: "Why is it important to recognize the team's achievements?",
          },
          options: [
            { text: { es: 'Porque sustituye a la formación', en: 'Because it replaces training' }, correct: false },
            { text: { es: 'Porque es obligatorio por contrato', en: 'Because the contract requires it' }, correct: false },
            { text: { es: 'No es importante', en: 'It is not important' }, correct: false },
            { text: {
              es: 'Porque refuerza los buenos hábitos y mantiene la motivación',
              en: 'Because it reinforces good habits and keeps motivation up',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué hace productiva una reunión de equipo?', en: 'What makes a team meeting productive?' },
          options: [
            { text: {
              es: 'Un objetivo claro, una duración limitada y acuerdos concretos',
              en: 'A clear goal, a limited length and concrete agreements',
            }, correct: true },
            { text: { es: 'Que dure lo máximo posible', en: 'Making it last as long as possible' }, correct: false },
            { text: { es: 'Que no tenga agenda', en: 'Having no agenda' }, correct: false },
            { text: { es: 'Que solo hable el líder', en: 'Letting only the leader speak' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué tipo de sistema es más fácil de duplicar?',
            en: 'Which kind of system is easiest to duplicate?',
          },
          options: [
            { text: { es: 'Uno que depende del carisma del líder', en: "One that depends on the leader's charisma" }, correct: false },
            { text: { es: 'Uno que cambia cada semana', en: 'One that changes every week' }, correct: false },
            { text: {
              es: 'Uno sencillo, documentado y que cualquiera pueda seguir',
              en: 'A simple, documented one that anyone can follow',
            }, correct: true },
            { text: { es: 'Uno que solo conoce el líder', en: 'One that only the leader knows' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 10,
    code: 'ELITE-TRAVEL-AGENT',
    name: { es: 'Certificación Agente de Viajes Élite', en: 'Elite Travel Agent Certification' },
    description: {
      es: 'Programa de certificación avanzado para quienes quieren especializarse en viajes de alto valor. Cubre viajes de lujo, grupos, destinos especializados y estándares de servicio premium, y culmina con un examen de certificación.',
      en: 'An advanced certification program for those who want to specialize in high-value travel. It covers luxury travel, groups, specialized destinations and premium service standards, and culminates in a certification exam.',
    },
    categoryId: 4,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: '99.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: true,
    thumbnail: '/images/courses/10.webp',
    modules: [
      {
        code: 'C10-M1',
        name: { es: 'Viajes de lujo', en: 'Luxury travel' },
        lessons: [
          {
            code: 'C10-M1-L1',
            name: { es: 'El perfil del viajero de lujo', en: 'The luxury traveler profile' },
            summary: {
              es: 'Entiende lo que valora este cliente: exclusividad, tiempo y atención personalizada.',
              en: 'Understand what this customer values: exclusivity, time and personalized attention.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C10-M1-L2',
            name: { es: 'Hoteles boutique y de cinco estrellas', en: 'Boutique and five-star hotels' },
            summary: {
              es: 'Aprende a seleccionar propiedades según su estilo y sus servicios.',
              en: 'Learn to select properties by style and amenities.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C10-M1-L3',
            name: { es: 'Experiencias exclusivas', en: 'Exclusive experiences' },
            summary: {
              es: 'Diseña actividades privadas que hacen único un viaje.',
              en: 'Design private activities that make a trip unique.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C10-M2',
        name: { es: 'Viajes de grupo', en: 'Group travel' },
        lessons: [
          {
            code: 'C10-M2-L1',
            name: { es: 'Cotizar viajes de grupo', en: 'Quoting group trips' },
            summary: {
              es: 'Calcula costos, plazas gratuitas y márgenes para grupos.',
              en: 'Calculate costs, complimentary places and margins for groups.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C10-M2-L2',
            name: { es: 'Bodas de destino y eventos', en: 'Destination weddings and events' },
            summary: {
              es: 'Coordina proveedores y plazos para celebraciones lejos de casa.',
              en: 'Coordinate suppliers and deadlines for celebrations away from home.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'pdf', title: { es: 'Cronograma para bodas de destino', en: 'Destination wedding timeline' }, file: 'docs/cronograma-bodas.pdf' },
            ],
          },
          {
            code: 'C10-M2-L3',
            name: { es: 'Viajes de incentivo corporativo', en: 'Corporate incentive trips' },
            summary: {
              es: 'Propón viajes con los que una empresa premia el desempeño de sus equipos.',
              en: "Propose trips with which a company rewards its teams' performance.",
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C10-M3',
        name: { es: 'Destinos especializados', en: 'Specialized destinations' },
        lessons: [
          {
            code: 'C10-M3-L1',
            name: { es: 'Turismo de aventura', en: 'Adventure travel' },
            summary: {
              es: 'Evalúa riesgos, niveles de dificultad y proveedores certificados.',
              en: 'Assess risks, difficulty levels and certified suppliers.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C10-M3-L2',
            name: { es: 'Turismo sostenible', en: 'Sustainable tourism' },
            summary: {
              es: 'Recomienda opciones que cuidan el entorno y benefician a las comunidades locales.',
              en: 'Recommend options that protect the environment and benefit local communities.',
            },
            clip: 'clip-5',
            extras: [
              { kind: 'link', title: {
                es: 'Directorio de certificaciones sostenibles',
                en: 'Directory of sustainability certifications',
              }, url: 'https://example.com/certificaciones-sostenibles' },
            ],
          },
          {
            code: 'C10-M3-L3',
            name: { es: 'Viajes accesibles', en: 'Accessible travel' },
            summary: {
              es: 'Planifica viajes para personas con movilidad reducida u otras necesidades específicas.',
              en: 'Plan trips for people with reduced mobility or other specific needs.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C10-M4',
        name: { es: 'Servicio premium', en: 'Premium service' },
        lessons: [
          {
            code: 'C10-M4-L1',
            name: { es: 'Asistencia las 24 horas', en: 'Around-the-clock assistance' },
            summary: {
              es: 'Organiza un protocolo de asistencia para emergencias durante el viaje.',
              en: 'Set up an assistance protocol for emergencies during the trip.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C10-M4-L2',
            name: { es: 'Fidelización de clientes de alto valor', en: 'Retaining high-value customers' },
            summary: {
              es: 'Crea relaciones a largo plazo con detalles personalizados.',
              en: 'Build long-term relationships through personalized touches.',
            },
            clip: 'clip-2',
          },
        ],
      },
    ],
    exam: {
      minutes: 20,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué suele valorar más un viajero de lujo?',
            en: 'What does a luxury traveler usually value most?',
          },
          options: [
            { text: {
              es: 'La exclusividad, el tiempo y la atención personalizada',
              en: 'Exclusivity, time and personalized attention',
            }, correct: true },
            { text: { es: 'El precio más bajo posible', en: 'The lowest possible price' }, correct: false },
            { text: { es: 'Los vuelos con muchas escalas', en: 'Flights with many stops' }, correct: false },
            { text: { es: 'Los paquetes estándar sin cambios', en: 'Standard packages with no changes' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué es una plaza gratuita en un viaje de grupo?',
            en: 'What is a complimentary place on a group trip?',
          },
          options: [
            { text: { es: 'Un asiento vacío en el autobús', en: 'An empty seat on the bus' }, correct: false },
            { text: {
              es: 'Una plaza que el cliente no paga por error',
              en: 'A place the customer does not pay for by mistake',
            }, correct: false },
            { text: { es: 'Un descuento para el último en reservar', en: 'A discount for the last person to book' }, correct: false },
            { text: {
              es: 'Una plaza sin costo que el proveedor concede al alcanzar cierto número de pasajeros',
              en: 'A free place the supplier grants once a certain number of passengers is reached',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué es un viaje de incentivo?', en: 'What is an incentive trip?' },
          options: [
            { text: { es: 'Un viaje que se paga a plazos', en: 'A trip paid in installments' }, correct: false },
            { text: {
              es: 'Un viaje con el que una empresa premia el desempeño de sus empleados o socios',
              en: 'A trip a company uses to reward the performance of its employees or partners',
            }, correct: true },
            { text: { es: 'Un viaje de última hora con descuento', en: 'A discounted last-minute trip' }, correct: false },
            { text: { es: 'Un viaje escolar', en: 'A school trip' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué caracteriza al turismo sostenible?', en: 'What characterizes sustainable tourism?' },
          options: [
            { text: {
              es: 'Solo usa hoteles de cadenas internacionales',
              en: 'It only uses international hotel chains',
            }, correct: false },
            { text: {
              es: 'Minimiza el impacto ambiental y beneficia a las comunidades locales',
              en: 'It minimizes environmental impact and benefits local communities',
            }, correct: true },
            { text: { es: 'Prohíbe viajar en avión', en: 'It forbids air travel' }, correct: false },
            { text: { es: 'Siempre es más barato', en: 'It is always cheaper' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué debes verificar al vender un viaje de aventura?',
            en: 'What must you check when selling an adventure trip?',
          },
          options: [
            { text: { es: 'Que el hotel tenga piscina', en: 'That the hotel has a pool' }, correct: false },
            { text: {
              es: 'Que el destino sea el más lejano posible',
              en: 'That the destination is as far away as possible',
            }, correct: false },
            { text: { es: 'Que no haga falta seguro de viaje', en: 'That no travel insurance is needed' }, correct: false },
            { text: {
              es: 'Que los proveedores estén certificados y la dificultad sea adecuada para el cliente',
              en: 'That suppliers are certified and the difficulty suits the customer',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: 'Al planificar un viaje para una persona en silla de ruedas, ¿qué confirmas primero?',
            en: 'When planning a trip for a wheelchair user, what do you confirm first?',
          },
          options: [
            { text: {
              es: 'Que las habitaciones, los traslados y las actividades sean accesibles',
              en: 'That rooms, transfers and activities are accessible',
            }, correct: true },
            { text: { es: 'Que el vuelo sea el más barato', en: 'That the flight is the cheapest' }, correct: false },
            { text: {
              es: 'Que el hotel esté en el centro histórico',
              en: 'That the hotel is in the historic center',
            }, correct: false },
            { text: { es: 'Que el viaje dure más de dos semanas', en: 'That the trip lasts more than two weeks' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Con cuánta antelación conviene empezar a planificar una boda de destino?',
            en: 'How far in advance should you start planning a destination wedding?',
          },
          options: [
            { text: { es: 'Una semana antes', en: 'A week before' }, correct: false },
            { text: { es: 'Un mes antes', en: 'A month before' }, correct: false },
            { text: { es: 'Entre nueve y doce meses antes', en: 'Nine to twelve months before' }, correct: true },
            { text: { es: 'No hace falta planificarla', en: 'It does not need planning' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué acción fideliza mejor a un cliente de alto valor?',
            en: 'Which action best retains a high-value customer?',
          },
          options: [
            { text: { es: 'Enviarle ofertas genéricas cada día', en: 'Sending them generic offers every day' }, correct: false },
            { text: { es: 'Cobrarle tarifas más altas', en: 'Charging them higher fees' }, correct: false },
            { text: {
              es: 'Recordar sus preferencias y sorprenderlo con detalles personalizados',
              en: 'Remembering their preferences and surprising them with personalized touches',
            }, correct: true },
            { text: {
              es: 'Contactarlo solo cuando haya un problema',
              en: 'Contacting them only when there is a problem',
            }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 11,
    code: 'CUSTOMER-SERVICE-EXCELLENCE',
    name: { es: 'Excelencia en el servicio al cliente', en: 'Customer service excellence' },
    description: {
      es: 'Entrenamiento práctico para ofrecer un servicio que convierta a cada viajero en un cliente fiel. Aprenderás a comunicarte con empatía, resolver quejas y medir la satisfacción de tus clientes.',
      en: "Hands-on training to deliver service that turns every traveler into a loyal customer. You will learn to communicate with empathy, resolve complaints and measure your customers' satisfaction.",
    },
    categoryId: 5,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/11.webp',
    modules: [
      {
        code: 'C11-M1',
        name: { es: 'Comunicación con el cliente', en: 'Communicating with customers' },
        lessons: [
          {
            code: 'C11-M1-L1',
            name: { es: 'La primera impresión', en: 'First impressions' },
            summary: {
              es: 'Cuida el saludo, el tono y el tiempo de respuesta desde el primer contacto.',
              en: 'Take care of your greeting, tone and response time from the first contact.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C11-M1-L2',
            name: { es: 'Empatía en la práctica', en: 'Empathy in practice' },
            summary: {
              es: 'Ponte en el lugar del viajero y reconoce sus emociones.',
              en: "Put yourself in the traveler's shoes and acknowledge their feelings.",
            },
            clip: 'clip-4',
          },
          {
            code: 'C11-M1-L3',
            name: { es: 'Comunicación por escrito', en: 'Written communication' },
            summary: {
              es: 'Redacta correos y mensajes claros, amables y sin errores.',
              en: 'Write clear, friendly, error-free emails and messages.',
            },
            clip: 'clip-5',
            extras: [
              { kind: 'pdf', title: { es: 'Plantillas de mensajes para clientes', en: 'Customer message templates' }, file: 'docs/plantillas-mensajes.pdf' },
            ],
          },
          {
            code: 'C11-M1-L4',
            name: { es: 'Atención telefónica', en: 'Phone support' },
            summary: {
              es: 'Gestiona las llamadas con una estructura clara y ciérralas siempre con un resumen.',
              en: 'Handle calls with a clear structure and always close them with a summary.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C11-M2',
        name: { es: 'Resolución de problemas', en: 'Problem solving' },
        lessons: [
          {
            code: 'C11-M2-L1',
            name: { es: 'El modelo de gestión de quejas', en: 'The complaint handling model' },
            summary: {
              es: 'Escucha, discúlpate, resuelve y da seguimiento.',
              en: 'Listen, apologize, solve and follow up.',
            },
            clip: 'clip-1',
            extras: [
              { kind: 'pdf', title: { es: 'Protocolo de gestión de quejas', en: 'Complaint handling protocol' }, file: 'docs/protocolo-quejas.pdf' },
            ],
          },
          {
            code: 'C11-M2-L2',
            name: { es: 'Clientes difíciles', en: 'Difficult customers' },
            summary: {
              es: 'Mantén la calma y pon límites con respeto.',
              en: 'Stay calm and set boundaries respectfully.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C11-M2-L3',
            name: { es: 'Medir la satisfacción', en: 'Measuring satisfaction' },
            summary: {
              es: 'Usa encuestas y el índice de recomendación neta (NPS) para mejorar.',
              en: 'Use surveys and the Net Promoter Score (NPS) to improve.',
            },
            clip: 'clip-3',
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Cuál es el primer paso para gestionar una queja?',
            en: 'What is the first step in handling a complaint?',
          },
          options: [
            { text: {
              es: 'Explicar por qué el cliente está equivocado',
              en: 'Explaining why the customer is wrong',
            }, correct: false },
            { text: { es: 'Ofrecer un reembolso de inmediato', en: 'Offering a refund immediately' }, correct: false },
            { text: { es: 'Pasar la llamada a otra persona', en: 'Passing the call to someone else' }, correct: false },
            { text: {
              es: 'Escuchar al cliente sin interrumpir',
              en: 'Listening to the customer without interrupting',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué significa mostrar empatía?', en: 'What does showing empathy mean?' },
          options: [
            { text: { es: 'Darle siempre la razón al cliente', en: 'Always agreeing with the customer' }, correct: false },
            { text: {
              es: 'Comprender y reconocer cómo se siente el cliente',
              en: 'Understanding and acknowledging how the customer feels',
            }, correct: true },
            { text: { es: 'Contar tus propios problemas', en: 'Talking about your own problems' }, correct: false },
            { text: {
              es: 'Responder lo más rápido posible sin escuchar',
              en: 'Answering as fast as possible without listening',
            }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué mide el índice de recomendación neta (NPS)?',
            en: 'What does the Net Promoter Score (NPS) measure?',
          },
          options: [
            { text: { es: 'El número de ventas del mes', en: 'The number of sales in the month' }, correct: false },
            { text: {
              es: 'La probabilidad de que un cliente te recomiende',
              en: 'How likely a customer is to recommend you',
            }, correct: true },
            { text: { es: 'El tiempo medio de cada llamada', en: 'The average length of each call' }, correct: false },
            { text: { es: 'El precio medio de un viaje', en: 'The average price of a trip' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cómo conviene cerrar una llamada de atención al cliente?',
            en: 'How should you close a customer service call?',
          },
          options: [
            { text: {
              es: 'Colgando en cuanto se resuelva la duda',
              en: 'Hanging up as soon as the question is answered',
            }, correct: false },
            { text: { es: 'Con una oferta que no pidió', en: 'With an offer they did not ask for' }, correct: false },
            { text: { es: 'Sin despedirse, para ahorrar tiempo', en: 'Without saying goodbye, to save time' }, correct: false },
            { text: {
              es: 'Con un resumen de lo acordado y los próximos pasos',
              en: 'With a summary of what was agreed and the next steps',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: 'Un cliente te grita por un retraso. ¿Qué haces?',
            en: 'A customer shouts at you about a delay. What do you do?',
          },
          options: [
            { text: {
              es: 'Mantienes la calma, reconoces su molestia y le ofreces soluciones',
              en: 'Stay calm, acknowledge their frustration and offer solutions',
            }, correct: true },
            { text: { es: 'Le gritas también', en: 'Shout back' }, correct: false },
            { text: { es: 'Cuelgas la llamada', en: 'Hang up the call' }, correct: false },
            { text: { es: 'Le dices que no es tu problema', en: 'Tell them it is not your problem' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué hace eficaz un mensaje escrito a un cliente?',
            en: 'What makes a written message to a customer effective?',
          },
          options: [
            { text: { es: 'Que sea muy largo y técnico', en: 'Being very long and technical' }, correct: false },
            { text: { es: 'Que esté escrito todo en mayúsculas', en: 'Being written in all capital letters' }, correct: false },
            { text: { es: 'Que sea claro, amable y sin errores', en: 'Being clear, friendly and error-free' }, correct: true },
            { text: { es: 'Que use muchas abreviaturas', en: 'Using lots of abbreviations' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Por qué es importante dar seguimiento después de resolver una queja?',
            en: 'Why is it important to follow up after resolving a complaint?',
          },
          options: [
            { text: { es: 'Para venderle algo inmediatamente', en: 'To sell them something straight away' }, correct: false },
            { text: { es: 'Para recordarle que fue su culpa', en: 'To remind them it was their fault' }, correct: false },
            { text: {
              es: 'Para confirmar que el cliente quedó satisfecho con la solución',
              en: 'To confirm the customer is satisfied with the solution',
            }, correct: true },
            { text: { es: 'No es necesario dar seguimiento', en: 'Following up is not necessary' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué influye más en la primera impresión?',
            en: 'What has the most influence on a first impression?',
          },
          options: [
            { text: {
              es: 'El saludo, el tono y la rapidez de la respuesta',
              en: 'The greeting, the tone and how quickly you respond',
            }, correct: true },
            { text: { es: 'El precio del paquete', en: 'The price of the package' }, correct: false },
            { text: { es: 'La cantidad de emojis', en: 'The number of emojis' }, correct: false },
            { text: { es: 'La longitud de tu firma de correo', en: 'The length of your email signature' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 12,
    code: 'INTERNAL-TEST',
    name: { es: 'Curso de prueba interno', en: 'Internal test course' },
    description: {
      es: 'Curso interno para comprobar el funcionamiento de la plataforma. No es visible para los estudiantes y su contenido es solo de prueba.',
      en: 'An internal course for checking that the platform works. It is not visible to students and its content is for testing only.',
    },
    categoryId: 2,
    businessId: 2,
    allowAll: true,
    isTest: true,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/12.webp',
    modules: [
      {
        code: 'C12-M1',
        name: { es: 'Módulo de prueba A', en: 'Test module A' },
        lessons: [
          {
            code: 'C12-M1-L1',
            name: { es: 'Lección de prueba: reproducción de video', en: 'Test lesson: video playback' },
            summary: {
              es: 'Comprueba que el reproductor carga y registra el progreso.',
              en: 'Checks that the player loads and records progress.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C12-M1-L2',
            name: { es: 'Lección de prueba: recursos adicionales', en: 'Test lesson: extra resources' },
            summary: {
              es: 'Comprueba la descarga de archivos y los enlaces externos.',
              en: 'Checks file downloads and external links.',
            },
            clip: 'clip-5',
            extras: [
              { kind: 'pdf', title: { es: 'Archivo de prueba', en: 'Test file' }, file: 'docs/prueba.pdf' },
              { kind: 'link', title: { es: 'Enlace de prueba', en: 'Test link' }, url: 'https://example.com/prueba' },
            ],
          },
        ],
      },
      {
        code: 'C12-M2',
        name: { es: 'Módulo de prueba B', en: 'Test module B' },
        lessons: [
          {
            code: 'C12-M2-L1',
            name: { es: 'Lección de prueba: progreso del curso', en: 'Test lesson: course progress' },
            summary: {
              es: 'Comprueba el cálculo del porcentaje de avance.',
              en: 'Checks how the progress percentage is calculated.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C12-M2-L2',
            name: { es: 'Lección de prueba: acceso al examen', en: 'Test lesson: exam access' },
            summary: {
              es: 'Comprueba que el examen se habilita al completar las lecciones.',
              en: 'Checks that the exam unlocks once the lessons are complete.',
            },
            clip: 'clip-1',
          },
        ],
      },
    ],
    exam: {
      minutes: 10,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué comprueba la lección de reproducción de video?',
            en: 'What does the video playback lesson check?',
          },
          options: [
            { text: { es: 'Que el pago se procesa', en: 'That the payment is processed' }, correct: false },
            { text: {
              es: 'Que el reproductor carga y registra el progreso',
              en: 'That the player loads and records progress',
            }, correct: true },
            { text: { es: 'Que el correo de bienvenida llega', en: 'That the welcome email arrives' }, correct: false },
            { text: { es: 'Que el idioma cambia solo', en: 'That the language changes by itself' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Quién puede ver este curso de prueba?', en: 'Who can see this test course?' },
          options: [
            { text: { es: 'Todos los estudiantes', en: 'All students' }, correct: false },
            { text: { es: 'Solo el equipo interno', en: 'Only the internal team' }, correct: true },
            { text: { es: 'Los visitantes sin cuenta', en: 'Visitors without an account' }, correct: false },
            { text: { es: 'Solo quienes lo compran', en: 'Only buyers' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuándo se habilita el examen en este curso?',
            en: 'When does the exam unlock in this course?',
          },
          options: [
            { text: { es: 'Justo después de inscribirse', en: 'Right after enrolling' }, correct: false },
            { text: { es: 'Una semana después de empezar', en: 'One week after starting' }, correct: false },
            { text: { es: 'Nunca se habilita', en: 'It never unlocks' }, correct: false },
            { text: { es: 'Al completar todas las lecciones', en: 'Once all the lessons are complete' }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué tipos de recursos adicionales puede tener una lección?',
            en: 'What kinds of extra resources can a lesson have?',
          },
          options: [
            { text: { es: 'Archivos PDF y enlaces', en: 'PDF files and links' }, correct: true },
            { text: { es: 'Solo imágenes', en: 'Only images' }, correct: false },
            { text: { es: 'Solo audios', en: 'Only audio files' }, correct: false },
            { text: { es: 'Ninguno', en: 'None' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué puntuación mínima se necesita para aprobar este examen?',
            en: 'What minimum score is needed to pass this exam?',
          },
          options: [
            { text: { es: '50 %', en: '50%' }, correct: false },
            { text: { es: '60 %', en: '60%' }, correct: false },
            { text: { es: '70 %', en: '70%' }, correct: true },
            { text: { es: '100 %', en: '100%' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cuántas preguntas se sortean en cada intento?',
            en: 'How many questions are drawn in each attempt?',
          },
          options: [
            { text: { es: '3', en: '3' }, correct: false },
            { text: { es: '5', en: '5' }, correct: true },
            { text: { es: '8', en: '8' }, correct: false },
            { text: { es: '10', en: '10' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cuántos intentos permite este examen?', en: 'How many attempts does this exam allow?' },
          options: [
            { text: { es: '1', en: '1' }, correct: false },
            { text: { es: '2', en: '2' }, correct: false },
            { text: { es: '3', en: '3' }, correct: true },
            { text: { es: 'Ilimitados', en: 'Unlimited' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cómo se calcula el avance de un curso?', en: 'How is course progress calculated?' },
          options: [
            { text: { es: 'Según el tiempo conectado', en: 'By time spent online' }, correct: false },
            { text: { es: 'Según el número de inicios de sesión', en: 'By the number of logins' }, correct: false },
            { text: { es: 'Según la nota del examen', en: 'By the exam score' }, correct: false },
            { text: {
              es: 'Según el porcentaje de lecciones completadas',
              en: 'By the percentage of lessons completed',
            }, correct: true },
          ],
        },
      ],
    },
  },
  {
    id: 16,
    code: 'MASTERMIND-SCALE',
    name: { es: 'Mastermind: escala tu red', en: 'Mastermind: scale your network' },
    description: {
      es: 'Programa intensivo para líderes que quieren llevar su red al siguiente nivel con estrategia, datos y mentalidad de crecimiento. Incluye casos reales, planes de acción y herramientas para construir una organización que no dependa solo de ti.',
      en: 'An intensive program for leaders who want to take their network to the next level with strategy, data and a growth mindset. It includes real cases, action plans and tools to build an organization that does not depend on you alone.',
    },
    categoryId: 5,
    businessId: 2,
    allowAll: false,
    isTest: false,
    price: '149.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: true,
    thumbnail: '/images/courses/16.webp',
    modules: [
      {
        code: 'C16-M1',
        name: { es: 'Mentalidad de escala', en: 'Scaling mindset' },
        lessons: [
          {
            code: 'C16-M1-L1',
            name: { es: 'De vendedor a constructor de organizaciones', en: 'From seller to organization builder' },
            summary: {
              es: 'Cambia tu foco de las ventas personales al crecimiento de tu equipo.',
              en: 'Shift your focus from personal sales to growing your team.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C16-M1-L2',
            name: { es: 'Tu visión a tres años', en: 'Your three-year vision' },
            summary: {
              es: 'Define a dónde quieres llevar tu red y qué tendrá que cambiar para lograrlo.',
              en: 'Define where you want to take your network and what will have to change to get there.',
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C16-M2',
        name: { es: 'Estrategia y datos', en: 'Strategy and data' },
        lessons: [
          {
            code: 'C16-M2-L1',
            name: { es: 'Indicadores clave de tu red', en: "Your network's key indicators" },
            summary: {
              es: 'Mide la activación, la retención y la productividad de cada línea.',
              en: 'Measure activation, retention and productivity for each line.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C16-M2-L2',
            name: { es: 'Identificar y desarrollar líderes', en: 'Identifying and developing leaders' },
            summary: {
              es: 'Detecta a las personas con potencial y crea un plan de crecimiento para cada una.',
              en: 'Spot people with potential and create a growth plan for each one.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C16-M2-L3',
            name: { es: 'Expansión a nuevos mercados', en: 'Expanding into new markets' },
            summary: {
              es: 'Evalúa los requisitos legales, culturales y de idioma antes de abrir una nueva región.',
              en: 'Assess legal, cultural and language requirements before opening a new region.',
            },
            clip: 'clip-6',
            extras: [
              { kind: 'link', title: { es: 'Guía de apertura de mercados', en: 'Market opening guide' }, url: 'https://example.com/apertura-mercados' },
            ],
          },
          {
            code: 'C16-M2-L4',
            name: { es: 'Eventos que impulsan el crecimiento', en: 'Events that drive growth' },
            summary: {
              es: 'Planifica eventos que formen, reconozcan y conecten a tu red.',
              en: 'Plan events that train, recognize and connect your network.',
            },
            clip: 'clip-1',
          },
        ],
      },
      {
        code: 'C16-M3',
        name: { es: 'Plan de acción', en: 'Action plan' },
        lessons: [
          {
            code: 'C16-M3-L1',
            name: { es: 'Tu plan de 90 días', en: 'Your 90-day plan' },
            summary: {
              es: 'Convierte tu visión en prioridades trimestrales medibles.',
              en: 'Turn your vision into measurable quarterly priorities.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'pdf', title: { es: 'Plantilla del plan de 90 días', en: '90-day plan template' }, file: 'docs/plan-90-dias.pdf' },
            ],
          },
          {
            code: 'C16-M3-L2',
            name: { es: 'Grupos de responsabilidad', en: 'Accountability groups' },
            summary: {
              es: 'Crea círculos de compañeros que se apoyan para cumplir sus metas.',
              en: 'Build peer circles that support one another in reaching their goals.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C16-M3-L3',
            name: { es: 'Crecer con equilibrio', en: 'Growing with balance' },
            summary: {
              es: 'Haz crecer tu negocio sin descuidar tu salud, tu familia ni tus valores.',
              en: 'Grow your business without neglecting your health, your family or your values.',
            },
            clip: 'clip-4',
          },
        ],
      },
    ],
    exam: {
      minutes: 20,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué cambio de enfoque exige escalar una red?',
            en: 'What shift in focus does scaling a network require?',
          },
          options: [
            { text: { es: 'Vender más horas al día tú solo', en: 'Selling more hours a day on your own' }, correct: false },
            { text: {
              es: 'Pasar de las ventas personales a desarrollar a otras personas',
              en: 'Moving from personal sales to developing other people',
            }, correct: true },
            { text: { es: 'Dejar de formar al equipo', en: 'Stopping team training' }, correct: false },
            { text: { es: 'Concentrarse solo en los clientes nuevos', en: 'Focusing only on new customers' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué mide la tasa de retención de tu red?',
            en: "What does your network's retention rate measure?",
          },
          options: [
            { text: { es: 'El número de publicaciones en redes', en: 'The number of social media posts' }, correct: false },
            { text: { es: 'El precio medio de venta', en: 'The average selling price' }, correct: false },
            { text: { es: 'Las horas que trabaja el líder', en: 'The hours the leader works' }, correct: false },
            { text: {
              es: 'El porcentaje de miembros que siguen activos tras un periodo',
              en: 'The percentage of members still active after a period',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué es un grupo de responsabilidad (mastermind)?',
            en: 'What is an accountability (mastermind) group?',
          },
          options: [
            { text: {
              es: 'Un círculo de compañeros que se apoyan y se piden cuentas para cumplir sus metas',
              en: 'A circle of peers who support each other and hold each other accountable for their goals',
            }, correct: true },
            { text: { es: 'Un comité que impone sanciones', en: 'A committee that imposes penalties' }, correct: false },
            { text: { es: 'Un curso en línea sin interacción', en: 'An online course with no interaction' }, correct: false },
            { text: { es: 'Un grupo de chat para enviar ofertas', en: 'A chat group for sending offers' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué señal indica que un IBO tiene potencial de liderazgo?',
            en: 'Which sign shows that an IBO has leadership potential?',
          },
          options: [
            { text: { es: 'Solo le interesa su propio ingreso', en: 'They only care about their own income' }, correct: false },
            { text: { es: 'Evita asistir a las formaciones', en: 'They avoid attending trainings' }, correct: false },
            { text: {
              es: 'Es constante, aprende rápido y ayuda a otros sin que se lo pidan',
              en: 'They are consistent, learn fast and help others without being asked',
            }, correct: true },
            { text: { es: 'Cambia de objetivo cada semana', en: 'They change goals every week' }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Antes de abrir un nuevo mercado, ¿qué debes evaluar?',
            en: 'Before opening a new market, what should you assess?',
          },
          options: [
            { text: { es: 'Solo el clima del país', en: "Only the country's weather" }, correct: false },
            { text: { es: 'El número de aeropuertos', en: 'The number of airports' }, correct: false },
            { text: {
              es: 'Los requisitos legales, culturales y de idioma del país',
              en: "The country's legal, cultural and language requirements",
            }, correct: true },
            { text: { es: 'Nada; basta con tener contactos allí', en: 'Nothing; having contacts there is enough' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Para qué sirve un plan de 90 días?', en: 'What is a 90-day plan for?' },
          options: [
            { text: {
              es: 'Para convertir la visión en prioridades medibles a corto plazo',
              en: 'To turn the vision into measurable short-term priorities',
            }, correct: true },
            { text: { es: 'Para sustituir la visión a largo plazo', en: 'To replace the long-term vision' }, correct: false },
            { text: { es: 'Para planificar solo las vacaciones', en: 'To plan only your vacations' }, correct: false },
            { text: { es: 'Para calcular las comisiones del año', en: "To calculate the year's commissions" }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué hace sostenible el crecimiento de una organización?',
            en: "What makes an organization's growth sustainable?",
          },
          options: [
            { text: {
              es: 'Que el líder lo controle todo personalmente',
              en: 'Having the leader personally control everything',
            }, correct: false },
            { text: { es: 'Que se recluten personas sin formarlas', en: 'Recruiting people without training them' }, correct: false },
            { text: { es: 'Que se celebren eventos cada semana', en: 'Holding events every week' }, correct: false },
            { text: {
              es: 'Que no dependa solo del líder y cuente con sistemas y nuevos líderes',
              en: 'Not depending on the leader alone and having systems and new leaders',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué objetivo debería tener un evento de la red?',
            en: 'What should a network event aim to do?',
          },
          options: [
            { text: { es: 'Vender la mayor cantidad posible de entradas', en: 'Sell as many tickets as possible' }, correct: false },
            { text: {
              es: 'Formar, reconocer y conectar a los miembros',
              en: 'Train, recognize and connect members',
            }, correct: true },
            { text: { es: 'Mostrar solo los logros del líder', en: "Show only the leader's achievements" }, correct: false },
            { text: { es: 'Sustituir el seguimiento individual', en: 'Replace one-to-one follow-up' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 20,
    code: 'CRUISE-SALES-MASTERCLASS',
    name: { es: 'Masterclass de venta de cruceros', en: 'Cruise sales masterclass' },
    description: {
      es: 'Aprende a vender cruceros con seguridad: navieras, tipos de camarote, itinerarios y todo lo que el cliente pregunta antes de embarcar. Una masterclass práctica para convertir los cruceros en una línea rentable de tu negocio.',
      en: 'Learn to sell cruises with confidence: cruise lines, cabin types, itineraries and everything customers ask before boarding. A hands-on masterclass to make cruises a profitable line of your business.',
    },
    categoryId: 5,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: '49.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/20.webp',
    modules: [
      {
        code: 'C20-M1',
        name: { es: 'El mundo de los cruceros', en: 'The world of cruising' },
        lessons: [
          {
            code: 'C20-M1-L1',
            name: { es: 'Navieras y sus estilos', en: 'Cruise lines and their styles' },
            summary: {
              es: 'Distingue entre navieras familiares, premium, de lujo y de expedición.',
              en: 'Tell apart family, premium, luxury and expedition cruise lines.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C20-M1-L2',
            name: { es: 'Itinerarios y temporadas', en: 'Itineraries and seasons' },
            summary: {
              es: 'Conoce las mejores épocas para navegar por el Caribe, el Mediterráneo y Alaska.',
              en: 'Learn the best times to sail the Caribbean, the Mediterranean and Alaska.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C20-M2',
        name: { es: 'Vender el crucero adecuado', en: 'Selling the right cruise' },
        lessons: [
          {
            code: 'C20-M2-L1',
            name: { es: 'Tipos de camarote', en: 'Cabin types' },
            summary: {
              es: 'Explica las diferencias entre camarote interior, exterior, con balcón y suite.',
              en: 'Explain the differences between inside, ocean-view and balcony cabins and suites.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C20-M2-L2',
            name: { es: 'Qué incluye y qué no', en: 'What is included and what is not' },
            summary: {
              es: 'Aclara propinas, bebidas, excursiones y tasas portuarias.',
              en: 'Clarify gratuities, drinks, shore excursions and port fees.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'pdf', title: { es: 'Lista de verificación para cruceros', en: 'Cruise checklist' }, file: 'docs/checklist-cruceros.pdf' },
            ],
          },
          {
            code: 'C20-M2-L3',
            name: { es: 'Excursiones en tierra', en: 'Shore excursions' },
            summary: {
              es: 'Recomienda excursiones según los intereses y el ritmo de cada pasajero.',
              en: "Recommend excursions based on each passenger's interests and pace.",
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C20-M3',
        name: { es: 'Antes de zarpar', en: 'Before setting sail' },
        lessons: [
          {
            code: 'C20-M3-L1',
            name: { es: 'Documentación y embarque', en: 'Documents and boarding' },
            summary: {
              es: 'Prepara al cliente para el registro en línea y el día de embarque.',
              en: 'Prepare the customer for online check-in and boarding day.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C20-M3-L2',
            name: { es: 'Cruceros para grupos y familias', en: 'Cruises for groups and families' },
            summary: {
              es: 'Aprovecha las tarifas de grupo y los programas infantiles.',
              en: "Make the most of group rates and kids' programs.",
            },
            clip: 'clip-5',
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué tipo de camarote no tiene ventana ni vista al mar?',
            en: 'Which type of cabin has no window or sea view?',
          },
          options: [
            { text: { es: 'El camarote interior', en: 'The inside cabin' }, correct: true },
            { text: { es: 'El camarote exterior', en: 'The ocean-view cabin' }, correct: false },
            { text: { es: 'El camarote con balcón', en: 'The balcony cabin' }, correct: false },
            { text: { es: 'La suite', en: 'The suite' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué son las tasas portuarias?', en: 'What are port fees?' },
          options: [
            { text: {
              es: 'Cargos que cobran los puertos por cada pasajero y escala',
              en: 'Charges levied by ports for each passenger and port call',
            }, correct: true },
            { text: { es: 'Las propinas para la tripulación', en: 'Tips for the crew' }, correct: false },
            { text: { es: 'El precio de las bebidas a bordo', en: 'The price of drinks on board' }, correct: false },
            { text: { es: 'Una multa por llegar tarde al barco', en: 'A fine for arriving late to the ship' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué gasto no suele estar incluido en la tarifa básica de un crucero?',
            en: "Which expense is usually not included in a cruise's basic fare?",
          },
          options: [
            { text: { es: 'El alojamiento a bordo', en: 'Accommodation on board' }, correct: false },
            { text: { es: 'Las comidas del restaurante principal', en: 'Meals in the main dining room' }, correct: false },
            { text: { es: 'Las excursiones en tierra', en: 'Shore excursions' }, correct: true },
            { text: {
              es: 'El traslado entre los puertos del itinerario',
              en: 'Travel between the ports on the itinerary',
            }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Cuál es la temporada de cruceros por Alaska?', en: 'When is the Alaska cruise season?' },
          options: [
            { text: { es: 'De diciembre a febrero', en: 'From December to February' }, correct: false },
            { text: { es: 'Solo en enero', en: 'Only in January' }, correct: false },
            { text: { es: 'De mayo a septiembre', en: 'From May to September' }, correct: true },
            { text: { es: 'Todo el año por igual', en: 'Equally all year round' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué tipo de naviera conviene a una familia con niños?',
            en: 'Which kind of cruise line suits a family with children?',
          },
          options: [
            { text: {
              es: 'Una naviera familiar con programas infantiles y entretenimiento a bordo',
              en: "A family cruise line with kids' programs and onboard entertainment",
            }, correct: true },
            { text: { es: 'Una naviera de expedición polar', en: 'A polar expedition cruise line' }, correct: false },
            { text: { es: 'Un crucero solo para adultos', en: 'An adults-only cruise' }, correct: false },
            { text: { es: 'Un velero sin servicios', en: 'A sailboat with no amenities' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué caracteriza a un crucero de expedición?',
            en: 'What characterizes an expedition cruise?',
          },
          options: [
            { text: { es: 'Barcos enormes con parques acuáticos', en: 'Huge ships with water parks' }, correct: false },
            { text: { es: 'Itinerarios solo por ríos urbanos', en: 'Itineraries on city rivers only' }, correct: false },
            { text: { es: 'Viajes de una sola noche', en: 'Single-night trips' }, correct: false },
            { text: {
              es: 'Barcos pequeños que llegan a destinos remotos con guías especializados',
              en: 'Small ships that reach remote destinations with specialist guides',
            }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué debe completar el pasajero antes del día de embarque?',
            en: 'What must the passenger complete before boarding day?',
          },
          options: [
            { text: { es: 'La reserva de todas las cenas', en: 'Booking every dinner' }, correct: false },
            { text: {
              es: 'El registro en línea con sus documentos de viaje',
              en: 'Online check-in with their travel documents',
            }, correct: true },
            { text: { es: 'El pago de las propinas en efectivo', en: 'Paying gratuities in cash' }, correct: false },
            { text: { es: 'Un examen médico obligatorio', en: 'A mandatory medical exam' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Cómo recomiendas una excursión en tierra?',
            en: 'How do you recommend a shore excursion?',
          },
          options: [
            { text: { es: 'Eligiendo siempre la más cara', en: 'Always choosing the most expensive one' }, correct: false },
            { text: {
              es: 'Según los intereses, la condición física y el ritmo del pasajero',
              en: "Based on the passenger's interests, fitness and pace",
            }, correct: true },
            { text: { es: 'Eligiendo la que termine más tarde', en: 'Choosing the one that ends latest' }, correct: false },
            { text: { es: 'Al azar', en: 'At random' }, correct: false },
          ],
        },
      ],
    },
  },
  {
    id: 31,
    code: 'REAL-VISION-BASIC',
    name: { es: 'Real Vision básico', en: 'Real Vision basic' },
    description: {
      es: 'Introducción a los mercados financieros y a la inversión para quienes nunca han invertido. Aprenderás cómo funcionan las acciones, los bonos y los fondos, y cómo pensar en el riesgo antes de tomar decisiones.',
      en: 'An introduction to financial markets and investing for people who have never invested. You will learn how stocks, bonds and funds work, and how to think about risk before making decisions.',
    },
    categoryId: 3,
    businessId: 4,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/31.webp',
    modules: [
      {
        code: 'C31-M1',
        name: { es: 'Cómo funcionan los mercados', en: 'How markets work' },
        lessons: [
          {
            code: 'C31-M1-L1',
            name: { es: '¿Qué es un mercado financiero?', en: 'What is a financial market?' },
            summary: {
              es: 'Conoce quién compra, quién vende y por qué se mueven los precios.',
              en: 'Learn who buys, who sells and why prices move.',
            },
            clip: 'clip-6',
          },
          {
            code: 'C31-M1-L2',
            name: { es: 'Inflación y tasas de interés', en: 'Inflation and interest rates' },
            summary: {
              es: 'Entiende cómo afectan a tu poder adquisitivo y a tus inversiones.',
              en: 'Understand how they affect your purchasing power and your investments.',
            },
            clip: 'clip-1',
          },
        ],
      },
      {
        code: 'C31-M2',
        name: { es: 'Instrumentos básicos', en: 'Basic instruments' },
        lessons: [
          {
            code: 'C31-M2-L1',
            name: { es: 'Acciones', en: 'Stocks' },
            summary: {
              es: 'Descubre qué significa ser dueño de una parte de una empresa.',
              en: 'Discover what it means to own part of a company.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C31-M2-L2',
            name: { es: 'Bonos', en: 'Bonds' },
            summary: {
              es: 'Aprende cómo funciona prestar dinero a un gobierno o a una empresa a cambio de intereses.',
              en: 'Learn how lending money to a government or a company in exchange for interest works.',
            },
            clip: 'clip-3',
          },
          {
            code: 'C31-M2-L3',
            name: { es: 'Fondos indexados y ETF', en: 'Index funds and ETFs' },
            summary: {
              es: 'Diversifica con un solo producto de bajo costo.',
              en: 'Diversify with a single low-cost product.',
            },
            clip: 'clip-4',
            extras: [
              { kind: 'link', title: { es: 'Glosario de inversión', en: 'Investing glossary' }, url: 'https://example.com/glosario-inversion' },
            ],
          },
        ],
      },
      {
        code: 'C31-M3',
        name: { es: 'Riesgo y rentabilidad', en: 'Risk and return' },
        lessons: [
          {
            code: 'C31-M3-L1',
            name: {
              es: 'La relación entre riesgo y rentabilidad',
              en: 'The relationship between risk and return',
            },
            summary: {
              es: 'Entiende por qué una mayor rentabilidad esperada implica asumir más riesgo.',
              en: 'Understand why higher expected returns mean taking on more risk.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C31-M3-L2',
            name: { es: 'Diversificación', en: 'Diversification' },
            summary: {
              es: 'Reduce el riesgo repartiendo tu dinero entre distintos activos.',
              en: 'Reduce risk by spreading your money across different assets.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C31-M4',
        name: { es: 'Tus primeros pasos como inversor', en: 'Your first steps as an investor' },
        lessons: [
          {
            code: 'C31-M4-L1',
            name: { es: 'Perfil de inversor y horizonte temporal', en: 'Investor profile and time horizon' },
            summary: {
              es: 'Define cuánto riesgo puedes asumir y durante cuánto tiempo vas a invertir.',
              en: 'Define how much risk you can take and how long you will invest for.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C31-M4-L2',
            name: { es: 'El interés compuesto', en: 'Compound interest' },
            summary: {
              es: 'Descubre por qué empezar pronto marca la diferencia.',
              en: 'Discover why starting early makes all the difference.',
            },
            clip: 'clip-2',
          },
          {
            code: 'C31-M4-L3',
            name: { es: 'Cómo evitar fraudes financieros', en: 'How to avoid financial scams' },
            summary: {
              es: 'Reconoce las promesas de rentabilidad garantizada y otras señales de alerta.',
              en: 'Recognize promises of guaranteed returns and other red flags.',
            },
            clip: 'clip-3',
            extras: [
              { kind: 'link', title: { es: 'Cómo verificar una entidad financiera', en: 'How to verify a financial firm' }, url: 'https://example.com/verificar-entidad' },
            ],
          },
        ],
      },
    ],
    exam: {
      minutes: 15,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué compras cuando adquieres una acción?',
            en: 'What do you buy when you buy a share of stock?',
          },
          options: [
            { text: {
              es: 'Una pequeña parte de la propiedad de una empresa',
              en: 'A small piece of ownership in a company',
            }, correct: true },
            { text: { es: 'Un préstamo a la empresa', en: 'A loan to the company' }, correct: false },
            { text: { es: 'Un seguro contra pérdidas', en: 'Insurance against losses' }, correct: false },
            { text: { es: 'Un producto de la empresa con descuento', en: 'A company product at a discount' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es un bono?', en: 'What is a bond?' },
          options: [
            { text: { es: 'Una parte de la propiedad de una empresa', en: 'A share of ownership in a company' }, correct: false },
            { text: { es: 'Una moneda digital', en: 'A digital currency' }, correct: false },
            { text: {
              es: 'Un préstamo que haces a un gobierno o a una empresa a cambio de intereses',
              en: 'A loan you make to a government or company in exchange for interest',
            }, correct: true },
            { text: { es: 'Un descuento en una tienda', en: 'A store discount' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué efecto tiene la inflación sobre el dinero que ahorras sin invertir?',
            en: 'What effect does inflation have on money you save without investing?',
          },
          options: [
            { text: { es: 'Lo hace crecer automáticamente', en: 'It makes it grow automatically' }, correct: false },
            { text: { es: 'No tiene ningún efecto', en: 'It has no effect' }, correct: false },
            { text: {
              es: 'Reduce su poder adquisitivo con el tiempo',
              en: 'It reduces its purchasing power over time',
            }, correct: true },
            { text: { es: 'Lo convierte en otra moneda', en: 'It converts it into another currency' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es la diversificación?', en: 'What is diversification?' },
          options: [
            { text: {
              es: 'Repartir la inversión entre distintos activos para reducir el riesgo',
              en: 'Spreading your investment across different assets to reduce risk',
            }, correct: true },
            { text: { es: 'Invertir todo en una sola empresa', en: 'Investing everything in a single company' }, correct: false },
            { text: { es: 'Cambiar de inversión cada día', en: 'Changing investments every day' }, correct: false },
            { text: { es: 'Guardar todo el dinero en efectivo', en: 'Keeping all your money in cash' }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué es un fondo indexado?', en: 'What is an index fund?' },
          options: [
            { text: { es: 'Un fondo que garantiza ganancias', en: 'A fund that guarantees profits' }, correct: false },
            { text: { es: 'Una cuenta de ahorro tradicional', en: 'A traditional savings account' }, correct: false },
            { text: { es: 'Un préstamo hipotecario', en: 'A mortgage loan' }, correct: false },
            { text: {
              es: 'Un fondo que replica un índice del mercado, normalmente con costos bajos',
              en: 'A fund that tracks a market index, usually at low cost',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué es el interés compuesto?', en: 'What is compound interest?' },
          options: [
            { text: { es: 'Un interés que solo se paga una vez', en: 'Interest that is paid only once' }, correct: false },
            { text: {
              es: 'Ganar intereses sobre los intereses ya acumulados',
              en: 'Earning interest on interest already accumulated',
            }, correct: true },
            { text: { es: 'Una comisión bancaria', en: 'A bank fee' }, correct: false },
            { text: { es: 'El interés de una tarjeta de crédito', en: "A credit card's interest rate" }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'Alguien te promete una rentabilidad alta y garantizada sin ningún riesgo. ¿Qué significa?',
            en: 'Someone promises you a high, guaranteed return with no risk at all. What does it mean?',
          },
          options: [
            { text: {
              es: 'Es una oportunidad que no debes dejar pasar',
              en: 'It is an opportunity you must not miss',
            }, correct: false },
            { text: {
              es: 'Es una señal de alerta de un posible fraude',
              en: 'It is a red flag for a possible scam',
            }, correct: true },
            { text: { es: 'Es lo normal en los mercados', en: 'It is normal in the markets' }, correct: false },
            { text: {
              es: 'Es una inversión regulada por definición',
              en: 'It is a regulated investment by definition',
            }, correct: false },
          ],
        },
        {
          prompt: {
            es: 'En general, ¿qué relación existe entre riesgo y rentabilidad esperada?',
            en: 'In general, what is the relationship between risk and expected return?',
          },
          options: [
            { text: {
              es: 'A mayor rentabilidad esperada, menor riesgo',
              en: 'The higher the expected return, the lower the risk',
            }, correct: false },
            { text: { es: 'No existe ninguna relación', en: 'There is no relationship at all' }, correct: false },
            { text: { es: 'El riesgo siempre es cero', en: 'Risk is always zero' }, correct: false },
            { text: {
              es: 'A mayor rentabilidad esperada, mayor riesgo',
              en: 'The higher the expected return, the higher the risk',
            }, correct: true },
          ],
        },
      ],
    },
  },
  {
    id: 32,
    code: 'REAL-VISION-INTERMEDIATE',
    name: { es: 'Real Vision intermedio', en: 'Real Vision intermediate' },
    description: {
      es: 'La continuación de Real Vision básico para profundizar en el análisis de los mercados y en la construcción de una cartera. Estudiarás los ciclos económicos, el análisis fundamental y técnico, y cómo gestionar tus emociones al invertir.',
      en: 'The follow-up to Real Vision basic, going deeper into market analysis and portfolio construction. You will study economic cycles, fundamental and technical analysis, and how to manage your emotions when investing.',
    },
    categoryId: 4,
    businessId: 4,
    allowAll: false,
    isTest: false,
    price: '0.00',
    prerequisiteCourseId: 31,
    visibleOnlyToBuyers: false,
    thumbnail: '/images/courses/32.webp',
    modules: [
      {
        code: 'C32-M1',
        name: { es: 'Macroeconomía para inversores', en: 'Macroeconomics for investors' },
        lessons: [
          {
            code: 'C32-M1-L1',
            name: { es: 'Ciclos económicos', en: 'Economic cycles' },
            summary: {
              es: 'Identifica las fases de expansión, auge, recesión y recuperación.',
              en: 'Identify the phases of expansion, peak, recession and recovery.',
            },
            clip: 'clip-4',
          },
          {
            code: 'C32-M1-L2',
            name: { es: 'Bancos centrales y política monetaria', en: 'Central banks and monetary policy' },
            summary: {
              es: 'Entiende cómo las decisiones sobre las tasas de interés mueven los mercados.',
              en: 'Understand how interest rate decisions move markets.',
            },
            clip: 'clip-5',
          },
          {
            code: 'C32-M1-L3',
            name: { es: 'Divisas y materias primas', en: 'Currencies and commodities' },
            summary: {
              es: 'Conoce los factores que mueven el dólar, el petróleo y el oro.',
              en: 'Learn the factors that move the dollar, oil and gold.',
            },
            clip: 'clip-6',
          },
        ],
      },
      {
        code: 'C32-M2',
        name: { es: 'Análisis de inversiones', en: 'Investment analysis' },
        lessons: [
          {
            code: 'C32-M2-L1',
            name: { es: 'Análisis fundamental', en: 'Fundamental analysis' },
            summary: {
              es: 'Evalúa una empresa a partir de sus ingresos, sus beneficios y su deuda.',
              en: 'Evaluate a company based on its revenue, earnings and debt.',
            },
            clip: 'clip-1',
          },
          {
            code: 'C32-M2-L2',
            name: { es: 'Ratios de valoración', en: 'Valuation ratios' },
            summary: {
              es: 'Interpreta el PER, la rentabilidad por dividendo y otros indicadores clave.',
              en: 'Interpret the P/E ratio, dividend yield and other key indicators.',
            },
            clip: 'clip-2',
            extras: [
              { kind: 'pdf', title: { es: 'Hoja resumen de ratios financieros', en: 'Financial ratios cheat sheet' }, file: 'docs/ratios-financieros.pdf' },
            ],
          },
          {
            code: 'C32-M2-L3',
            name: { es: 'Introducción al análisis técnico', en: 'Introduction to technical analysis' },
            summary: {
              es: 'Lee tendencias, soportes y resistencias en un gráfico de precios.',
              en: 'Read trends, support and resistance levels on a price chart.',
            },
            clip: 'clip-3',
          },
        ],
      },
      {
        code: 'C32-M3',
        name: { es: 'Cartera y comportamiento', en: 'Portfolio and behavior' },
        lessons: [
          {
            code: 'C32-M3-L1',
            name: { es: 'Asignación de activos y rebalanceo', en: 'Asset allocation and rebalancing' },
            summary: {
              es: 'Define el peso de cada activo y ajústalo periódicamente.',
              en: 'Set the weight of each asset and adjust it periodically.',
            },
            clip: 'clip-4',
            extras: [
              { kind: 'pdf', title: { es: 'Plantilla de seguimiento de cartera', en: 'Portfolio tracking template' }, file: 'docs/seguimiento-cartera.pdf' },
            ],
          },
          {
            code: 'C32-M3-L2',
            name: { es: 'Sesgos del inversor', en: 'Investor biases' },
            summary: {
              es: 'Reconoce el miedo, la euforia y otros sesgos que afectan a tus decisiones.',
              en: 'Recognize fear, euphoria and other biases that affect your decisions.',
            },
            clip: 'clip-5',
          },
        ],
      },
    ],
    exam: {
      minutes: 18,
      questionCount: 5,
      passingScore: 70,
      maxAttempts: 3,
      pool: [
        {
          prompt: {
            es: '¿Qué suele hacer un banco central para frenar una inflación alta?',
            en: 'What does a central bank usually do to curb high inflation?',
          },
          options: [
            { text: { es: 'Bajar las tasas de interés', en: 'Lower interest rates' }, correct: false },
            { text: { es: 'Cerrar la bolsa de valores', en: 'Close the stock exchange' }, correct: false },
            { text: { es: 'Subir las tasas de interés', en: 'Raise interest rates' }, correct: true },
            { text: { es: 'Eliminar los impuestos', en: 'Abolish taxes' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué mide el PER (relación precio-beneficio)?',
            en: 'What does the P/E (price-to-earnings) ratio measure?',
          },
          options: [
            { text: { es: 'La deuda total de una empresa', en: "A company's total debt" }, correct: false },
            { text: { es: 'El número de empleados de la empresa', en: "The company's number of employees" }, correct: false },
            { text: {
              es: 'Cuántas veces paga el mercado los beneficios anuales de una empresa',
              en: "How many times the market is paying for a company's annual earnings",
            }, correct: true },
            { text: { es: 'La inflación de un país', en: "A country's inflation" }, correct: false },
          ],
        },
        {
          prompt: { es: '¿Qué estudia el análisis fundamental?', en: 'What does fundamental analysis study?' },
          options: [
            { text: {
              es: 'Los estados financieros y el valor real de una empresa',
              en: "A company's financial statements and intrinsic value",
            }, correct: true },
            { text: { es: 'Solo los gráficos de precios', en: 'Price charts only' }, correct: false },
            { text: { es: 'Los rumores en redes sociales', en: 'Social media rumors' }, correct: false },
            { text: { es: 'El horario de la bolsa', en: 'Stock exchange trading hours' }, correct: false },
          ],
        },
        {
          prompt: { es: 'En análisis técnico, ¿qué es un soporte?', en: 'In technical analysis, what is support?' },
          options: [
            { text: {
              es: 'Un nivel donde la oferta suele frenar las subidas',
              en: 'A level where supply tends to halt rallies',
            }, correct: false },
            { text: { es: 'El servicio de atención del bróker', en: "The broker's customer service" }, correct: false },
            { text: { es: 'Un tipo de dividendo', en: 'A type of dividend' }, correct: false },
            { text: {
              es: 'Un nivel de precio donde la demanda suele frenar las caídas',
              en: 'A price level where demand tends to halt declines',
            }, correct: true },
          ],
        },
        {
          prompt: { es: '¿Qué significa rebalancear una cartera?', en: 'What does rebalancing a portfolio mean?' },
          options: [
            { text: { es: 'Venderlo todo cuando el mercado cae', en: 'Selling everything when the market falls' }, correct: false },
            { text: {
              es: 'Devolver el peso de cada activo a la asignación objetivo',
              en: "Bringing each asset's weight back to the target allocation",
            }, correct: true },
            { text: {
              es: 'Comprar solo el activo que más ha subido',
              en: 'Buying only the asset that has risen the most',
            }, correct: false },
            { text: { es: 'Cambiar de bróker cada año', en: 'Changing brokers every year' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué fase del ciclo económico se caracteriza por la caída de la actividad y del empleo?',
            en: 'Which phase of the economic cycle is marked by falling activity and employment?',
          },
          options: [
            { text: { es: 'La expansión', en: 'Expansion' }, correct: false },
            { text: { es: 'El auge', en: 'The peak' }, correct: false },
            { text: { es: 'La recesión', en: 'Recession' }, correct: true },
            { text: { es: 'La recuperación', en: 'Recovery' }, correct: false },
          ],
        },
        {
          prompt: {
            es: '¿Qué sesgo lleva a muchos inversores a vender en pánico cuando el mercado cae?',
            en: 'Which bias leads many investors to panic-sell when the market falls?',
          },
          options: [
            { text: { es: 'El sesgo de confirmación', en: 'Confirmation bias' }, correct: false },
            { text: { es: 'El efecto anclaje', en: 'The anchoring effect' }, correct: false },
            { text: { es: 'El exceso de confianza', en: 'Overconfidence' }, correct: false },
            { text: { es: 'La aversión a las pérdidas', en: 'Loss aversion' }, correct: true },
          ],
        },
        {
          prompt: {
            es: '¿Qué activo se considera tradicionalmente un refugio en tiempos de incertidumbre?',
            en: 'Which asset is traditionally considered a safe haven in uncertain times?',
          },
          options: [
            { text: { es: 'El oro', en: 'Gold' }, correct: true },
            { text: { es: 'Las acciones tecnológicas de pequeña capitalización', en: 'Small-cap tech stocks' }, correct: false },
            { text: { es: 'Los bonos de alto rendimiento', en: 'High-yield bonds' }, correct: false },
            { text: { es: 'Las materias primas industriales', en: 'Industrial commodities' }, correct: false },
          ],
        },
      ],
    },
  },
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
