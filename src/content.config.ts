/** Content collections: editorial pages in both languages, checked with zod at build time. */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { BLOG_CATEGORIES, EVENT_KINDS, FAQ_TOPICS, PORTFOLIO_CATEGORIES } from './lib/content/content';

const bilingual = z.object({ es: z.string().min(1), en: z.string().min(1) });

const privacy = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/privacy' }),
  schema: z.object({ title: z.string(), description: z.string(), updated: z.coerce.date() }),
});

const terms = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/terms' }),
  schema: z.object({ title: z.string(), description: z.string(), updated: z.coerce.date() }),
});

const about = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/about' }),
  schema: z.object({
    title: z.string(),
    description: z.string(),
    lead: z.string(),
    stats: z.array(z.object({ value: z.string(), label: z.string() })).min(1),
  }),
});

const testimonials = defineCollection({
  loader: file('./src/content/testimonials/testimonials.json'),
  schema: z.object({ name: z.string(), avatar: z.string(), role: bilingual, quote: bilingual }),
});

/** Blog posts: `blog/<es|en>/<slug>.md`, the same slug in both folders (entry id `es/<slug>`). */
const blog = defineCollection({
  loader: glob({ pattern: '{es,en}/*.md', base: './src/content/blog' }),
  schema: z.object({
    title: z.string().min(1).max(110),
    description: z.string().min(1).max(220),
    date: z.coerce.date(),
    author: z.string().min(1),
    category: z.enum(BLOG_CATEGORIES),
    tags: z.array(z.string().min(1)).min(1).max(6),
    cover: z.string().regex(/^\/images\/blog\/[a-z0-9-]+\.webp$/),
  }),
});

/** Webinars and in-person trainings: `events/<es|en>/<slug>.md`; times carry their UTC offset. */
const events = defineCollection({
  loader: glob({ pattern: '{es,en}/*.md', base: './src/content/events' }),
  schema: z
    .object({
      title: z.string().min(1).max(110),
      description: z.string().min(1).max(220),
      kind: z.enum(EVENT_KINDS),
      start: z.coerce.date(),
      end: z.coerce.date(),
      /** IANA time zone the times are shown in. */
      timezone: z.string().min(1),
      mode: z.enum(['online', 'in-person']),
      venue: z.object({ name: z.string(), address: z.string(), city: z.string(), country: z.string().length(2) }).optional(),
      host: z.string().min(1),
      cover: z.string().regex(/^\/images\/events\/[a-z0-9-]+\.webp$/),
    })
    .refine((e) => e.end > e.start, { message: 'an event must end after it starts', path: ['end'] })
    .refine((e) => e.mode === 'online' || e.venue !== undefined, { message: 'an in-person event needs a venue', path: ['venue'] }),
});

/** Frequently asked questions, each in both languages, grouped by topic. */
const faq = defineCollection({
  loader: file('./src/content/faq/faq.json'),
  schema: z.object({ topic: z.enum(FAQ_TOPICS), order: z.number().int(), question: bilingual, answer: bilingual }),
});

/** Success stories shown on the portfolio page. */
const portfolio = defineCollection({
  loader: file('./src/content/portfolio/portfolio.json'),
  schema: z.object({
    category: z.enum(PORTFOLIO_CATEGORIES),
    order: z.number().int(),
    image: z.string().regex(/^\/images\/portfolio\/[a-z0-9-]+\.webp$/),
    title: bilingual,
    summary: bilingual,
    result: bilingual,
  }),
});

export const collections = { privacy, terms, about, testimonials, blog, events, faq, portfolio };
