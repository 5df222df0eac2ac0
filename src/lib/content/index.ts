export * from './content';
export { getEvent, getEvents, getFaq, getPortfolio, getPost, getPosts, getPostSlugs, getEventSlugs } from './content.server';
