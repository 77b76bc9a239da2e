import type { Category, Event, Organizer, PostType, Prisma, Tag, Taxonomy, Venue } from '../../prisma/generated/client/client.ts';
import type { TransactionClient } from './transactions.ts';

/**
 * Prisma models chosen by kind (a post kind, a taxonomy, a Node type), typed once for the calls
 * made on any of them: Prisma's own delegates do not unite (a union of them cannot be called), so
 * each helper answers this shape, which every one of its delegates satisfies as it is, without a
 * cast. Rows are typed as the caller names them (`Row`); what a `select` leaves out is the caller's
 * to know.
 */
type Selection = { select?: object; include?: object };

export interface ReadTable<Row> {
  findUnique(args: Selection & { where: { id: number } | { slug: string } }): Promise<Row | null>;
  findUniqueOrThrow(args: Selection & { where: { id: number } }): Promise<Row>;
  findFirst(args: Selection & { where: object; orderBy?: object }): Promise<Row | null>;
  findMany(args: Selection & { where: object; orderBy?: object; skip?: number; take?: number }): Promise<Row[]>;
  count(args: { where: object }): Promise<number>;
}

/** Reads, and the update by ID: the columns written must be ones every table of the choice has. */
interface Table<Row> extends ReadTable<Row> {
  update(args: { where: { id: number }; data: object }): Prisma.PrismaPromise<unknown>;
}

/** The post types with a table of their own (an attachment is never chosen by kind). */
export type PostKind = Exclude<PostType, 'ATTACHMENT'>;
/** The posts an event links to: they share their columns, reads and writes. */
export type LinkedKind = Exclude<PostKind, 'EVENT'>;

/** The table of a post kind, for reads (writes differ by kind: see the callers' own switches). */
export function postTable(db: TransactionClient, kind: PostKind): ReadTable<Event | Venue | Organizer> {
  return kind === 'EVENT' ? db.event : kind === 'VENUE' ? db.venue : db.organizer;
}

/** The table of a venue or organizer, for reads and for writes of the columns both have. */
export function linkedPostTable(db: TransactionClient, kind: LinkedKind): Table<Venue | Organizer> {
  return kind === 'VENUE' ? db.venue : db.organizer;
}

/** The table of a taxonomy, for reads. */
export function termTable(db: TransactionClient, taxonomy: Taxonomy): ReadTable<Category | Tag> {
  return taxonomy === 'CATEGORY' ? db.category : db.tag;
}
