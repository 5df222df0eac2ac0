/**
 * Reads the editorial collections (blog, events, FAQ, portfolio) in one language and shapes them for
 * the pages. The rules (order, neighbours, grouping) are the pure functions of `content.ts`.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import type { Locale } from '~/i18n';
import { inLocale, newestFirst, readingMinutes, unpairedSlugs, type EventSummary, type PostSummary } from './content';

/** Fails the build when a slug exists in only one language: every slug must address both. */
function assertPaired(collection: string, ids: string[]): void {
  const missing = unpairedSlugs(ids);
  if (missing.length > 0) throw new Error(`${collection}: these slugs lack a Spanish or English version: ${missing.join(', ')}`);
}

/** Every post in `locale`, newest first. */
export async function getPosts(locale: Locale): Promise<PostSummary[]> {
  const all = await getCollection('blog');
  assertPaired('blog', all.map((e) => e.id));
  return newestFirst(inLocale(all, locale).map((e) => ({ slug: e.slug, ...e.data, minutes: readingMinutes(e.body ?? '') })));
}

/** The slugs of all posts (the same in both languages), for `getStaticPaths`. */
export async function getPostSlugs(): Promise<string[]> {
  return (await getPosts('es')).map((p) => p.slug);
}

/** One post's entry (to render its body), or undefined. */
export async function getPost(locale: Locale, slug: string): Promise<CollectionEntry<'blog'> | undefined> {
  return getEntry('blog', `${locale}/${slug}`);
}

/** Every event in `locale` (unsorted: `splitEvents` orders them relative to a date). */
export async function getEvents(locale: Locale): Promise<EventSummary[]> {
  const all = await getCollection('events');
  assertPaired('events', all.map((e) => e.id));
  return inLocale(all, locale).map((e) => ({ slug: e.slug, ...e.data }));
}

/** The slugs of all events, for `getStaticPaths`. */
export async function getEventSlugs(): Promise<string[]> {
  return (await getEvents('es')).map((e) => e.slug);
}

/** One event's entry (to render its body), or undefined. */
export async function getEvent(locale: Locale, slug: string): Promise<CollectionEntry<'events'> | undefined> {
  return getEntry('events', `${locale}/${slug}`);
}

/** The FAQ in `locale`: question and answer texts with their topic and order. */
export async function getFaq(locale: Locale) {
  return (await getCollection('faq')).map(({ id, data }) => ({
    id,
    topic: data.topic,
    order: data.order,
    question: data.question[locale],
    answer: data.answer[locale],
  }));
}

/** The portfolio's success stories in `locale`. */
export async function getPortfolio(locale: Locale) {
  return (await getCollection('portfolio')).map(({ id, data }) => ({
    id,
    category: data.category,
    order: data.order,
    image: data.image,
    title: data.title[locale],
    summary: data.summary[locale],
    result: data.result[locale],
  }));
}
