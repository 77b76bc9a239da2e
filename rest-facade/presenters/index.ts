/** REST representations of the GraphQL fragment data (contract §4, §5.1–5.3, §7.1). Pure functions. */
export * from './types.ts';
export { presentEvent, eventUrl, eventRestUrl, DEFAULT_CURRENCY_CODE, type EventPresentOptions, type EventPresentSettings } from './event.ts';
export { presentVenue, presentOrganizer, type LinkedPostPresentOptions } from './linked-post.ts';
export {
  presentTerm,
  presentEmbeddedTerm,
  termUrls,
  termPublicUrl,
  termLinks,
  TAXONOMY_NAME,
  TAXONOMY_COLLECTION,
  type Taxonomy,
  type TermPresentOptions,
} from './term.ts';
export { presentImage } from './image.ts';
export { eventJsonLd, venueJsonLd, organizerJsonLd, jsonLdDescription } from './json-ld.ts';
export { redact, defaultLock, lockAllProtected, lockNone, lockUnless } from './redact.ts';
export {
  eventsEnvelope,
  venuesEnvelope,
  linkedPostsEnvelope,
  organizersEnvelope,
  termsEnvelope,
  postListUrls,
  termListUrls,
  listHeaders,
  eventsListResponse,
  linkedPostsListResponse,
  termsListResponse,
  type ListEnvelopeInput,
  type EventsUrlParams,
  type EventsEnvelopeInput,
  type EventWindowValues,
  type LinkedPostsEnvelopeInput,
  type LinkedPostsUrlParams,
  type TermsUrlParams,
  type QueryValue,
  type QueryPairs,
} from './envelope.ts';
export { globalId, postUrl, dateDetails, escJs, escHtml, phpUrlencode, rawQueryValue, isoWithOffset } from './util.ts';
