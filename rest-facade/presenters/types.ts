/**
 * Input types of the presenters: hand-written mirrors of the GraphQL fragments in
 * `rest-facade/resources/fragments.graphql` (RestEvent, RestVenue, RestOrganizer, RestCategory,
 * RestTag, RestImage), plus the URL/settings context the presenters need.
 */

/** GraphQL `PostStatus`. */
export type PostStatusEnum = 'PUBLISH' | 'FUTURE' | 'DRAFT' | 'PENDING' | 'PRIVATE' | 'TRASH';

/** `fragment RestImage on Image`. */
export interface RestImageFragment {
  databaseId: number;
  url: string;
  extension: string;
  width?: number | null;
  height?: number | null;
  filesize?: number | null;
  /** Renditions by name (`{ thumbnail: { width, height, "mime-type", filesize, url } }`). */
  sizes?: unknown;
  mimeType?: string | null;
}

/** Fields shared by the post-like fragments. */
export interface RestPostFields {
  databaseId: number;
  authorId?: number | null;
  status: PostStatusEnum;
  /** Site-local `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  /** UTC; null for drafts never published (→ `"0000-00-00 00:00:00"`). */
  dateUtc?: string | null;
  modified: string;
  modifiedUtc: string;
  /** Null for drafts never given one; trashed records end in `__trashed`. */
  slug?: string | null;
  /** Rendered HTML (`""` when empty). */
  description: string;
  /** Rendered HTML of the manual excerpt (`""` when none). */
  excerpt: string;
  image?: RestImageFragment | null;
  hasPassword: boolean;
  /** Password-protected and not unlocked by this request (computed by the core from the context). */
  locked?: boolean | null;
}

/** `fragment RestVenue on Venue`. */
export interface RestVenueFragment extends RestPostFields {
  /** Display name. */
  name: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  latitude?: number | null;
  longitude?: number | null;
  showMap: boolean;
  showMapLink: boolean;
}

/** `fragment RestOrganizer on Organizer`. */
export interface RestOrganizerFragment extends RestPostFields {
  name: string;
  phone: string;
  website: string;
  email: string;
}

/** `fragment RestCategory on EventCategory`. */
export interface RestCategoryFragment {
  databaseId: number;
  name: string;
  slug: string;
  description: string;
  /** 0 for top-level categories. */
  parentId: number;
  /** Published events. */
  count: number;
  /**
   * Slugs from the top-level ancestor down to this category. Optional so that a `DeletedTerm`
   * (which has no `path`) can be presented; without it the URL falls back to `[slug]`.
   */
  path?: readonly string[] | null;
}

/** `fragment RestTag on EventTag`. */
export interface RestTagFragment {
  databaseId: number;
  name: string;
  slug: string;
  description: string;
  count: number;
  /** Tags are flat; accepted (and ignored) so a `DeletedTerm` can be passed as is. */
  parentId?: number | null;
}

/** `categories { databaseId name slug description parentId count }` inside RestEvent. */
export type RestEventCategoryRef = Pick<RestCategoryFragment, 'databaseId' | 'name' | 'slug' | 'description' | 'parentId' | 'count'>;
/** `tags { databaseId name slug description count }` inside RestEvent. */
export type RestEventTagRef = Pick<RestTagFragment, 'databaseId' | 'name' | 'slug' | 'description' | 'count'>;

/** `fragment RestEvent on Event`. */
export interface RestEventFragment extends RestPostFields {
  /** Display title (texturized). */
  title: string;
  allDay: boolean;
  /** Event-local wall clock. */
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  timezoneAbbr: string;
  /** Formatted cost (`""` when none). */
  cost: string;
  costValues: readonly string[];
  currencySymbol: string;
  currencyPosition: string;
  currencyCode: string;
  /** Null when never stored (→ the event's `url`). */
  website?: string | null;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  categories: readonly RestEventCategoryRef[];
  tags: readonly RestEventTagRef[];
  venues: readonly RestVenueFragment[];
  organizers: readonly RestOrganizerFragment[];
}

/**
 * Absolute-URL context. Structurally compatible with `WpUrls` (rest-facade/wp/types.ts): pass
 * `req.urls` directly.
 */
export interface RestUrls {
  /** `home_url()` without trailing slash, e.g. `http://localhost:8080` or `http://localhost:8080/fr`. */
  home: string;
  /** `rest_url()`, e.g. `http://localhost:8080/wp-json/` (a missing trailing slash is tolerated). */
  restRoot: string;
  /** Host used in `global_id` (no scheme, no port); default: the host name of `home`. */
  host?: string;
}

/** What a lock rule looks at. */
export interface Lockable {
  databaseId: number;
  hasPassword: boolean;
  locked?: boolean | null;
}

/** Is this record password-locked for the caller? (§3.2, REC.) */
export type LockCheck = (record: Lockable) => boolean;

export type JsonObject = Record<string, unknown>;
