/** Content collections: editorial pages in both languages, checked with zod at build time. */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';

const bilingual = z.object({ es: z.string().min(1), en: z.string().min(1) });

const privacy = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/privacy' }),
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

export const collections = { privacy, about, testimonials };
